"""Incan Gold state transitions: pure functions over a plain-JSON state.

Flow (ja "ゲームの流れ"): each round starts by turning cards (nobody decides before the first
card), then repeats: everyone inside chooses stay/leave in secret -> choices revealed together
-> leavers share the path and bank their gems -> if anyone stayed, the next card is turned.
A round ends when everyone has left or a hazard kind shows a second time; after round 5 the
game is over.  Every function here either reads the state or mutates it in place; validation
happens before any of them is called (see ``apply``)."""
from __future__ import annotations

from engine.core import RESHUFFLED, IllegalAction, draw_rng, find_legal, rng
from engine.text import Phrase, counted, phrase

from . import data

PHASE_CHOOSE = "choose"
PHASE_OVER = "over"


# ---------------------------------------------------------------- setup

def check_options(options: dict) -> dict:
    """Unknown options are refused rather than ignored, so a typo never silently changes rules."""
    if not isinstance(options, dict):
        raise IllegalAction(phrase("options must be a JSON object"))
    unknown = set(options) - set(data.DEFAULT_OPTIONS)
    if unknown:
        raise IllegalAction(counted("unknown option: {unknown}; known: {known}",
                                    "unknown options: {unknown}; known: {known}", len(unknown),
                                    unknown=", ".join(sorted(map(str, unknown))),
                                    known=", ".join(sorted(data.DEFAULT_OPTIONS))))
    merged = {**data.DEFAULT_OPTIONS, **options}
    if not isinstance(merged["artifacts"], str) or merged["artifacts"] not in data.EDITIONS:
        raise IllegalAction(phrase("option artifacts must be one of {choices}, not {given}",
                                   choices=", ".join(sorted(data.EDITIONS)),
                                   given=repr(merged["artifacts"])[:40]))
    return merged


def artifact_order(seed: int, edition: str) -> list[str]:
    """The order artifacts enter the deck: printed order (2018) or a seeded shuffle (classic)."""
    cards = list(data.EDITIONS[edition]["cards"])
    if data.EDITIONS[edition]["shuffle"]:
        rng(seed, "artifacts").shuffle(cards)
    return cards


def new_state(players: list[str], seed: int, options: dict, rules_version: str) -> dict:
    """The state before round 1's first card, then round 1 is started at once."""
    options = check_options(options)
    state = {
        "game": "incan_gold",
        "rules_version": rules_version,
        "seed": seed,
        "options": options,
        "names": list(players),
        "players": [{"in_temple": True, "carrying": 0, "tent": 0, "artifacts": [],
                     "choice": None} for _ in players],
        "round": 0,
        "turn": 0,
        "phase": PHASE_CHOOSE,
        "start_player": 0,
        "deck": [],
        "path": [],
        "artifacts_to_come": artifact_order(seed, options["artifacts"]),
        "artifacts_in_deck": [],
        "artifacts_claimed": 0,
        "removed_hazards": [],
        "gems_revealed": 0,
        "gems_lost": 0,
        "last_reveal": None,
        "history": [],
        "epoch": 0,
    }
    start_round(state)
    return state


# ---------------------------------------------------------------- rounds

def start_round(state: dict) -> None:
    """ja "ラウンドの準備": add the next artifact, shuffle the quest deck, turn the first card.

    The deck is rebuilt from its public contents (quest cards minus removed hazards, plus the
    artifacts still in play) and shuffled by ``draw_rng(state, "round", n)``, so a round's order
    does not depend on where cards lay on the previous path."""
    state["round"] += 1
    state["turn"] = 1
    state["start_player"] = (state["round"] - 1) % len(state["players"])
    if state["artifacts_to_come"]:
        state["artifacts_in_deck"].append(state["artifacts_to_come"].pop(0))
    deck = list(data.QUEST_DECK)
    for kind in state["removed_hazards"]:
        deck.remove(data.HAZARD_CARD[kind])
    deck.extend(state["artifacts_in_deck"])
    deck.sort()
    draw_rng(state, "round", state["round"]).shuffle(deck)
    state["deck"] = deck
    state["path"] = []
    for player in state["players"]:
        player["in_temple"] = True
        player["carrying"] = 0
        player["choice"] = None
    # ja: the first turn starts at step 3 (turn a card); notes: a hazard as first card is
    # followed at once by the next card, without a decision.
    if draw(state) and state["path"][0]["type"] == "hazard":
        draw(state)


def draw(state: dict) -> bool:
    """Turn the top card for those inside; return False if that ended the round."""
    if not state["deck"]:
        # Unreachable: at least 11 hazards of 5 kinds are always in the deck, so a kind repeats
        # before it runs out (see docs).  Should it happen, those inside walk out together as
        # leavers of one turn, so no dead end and nobody is punished for the engine's sake.
        inside = [seat for seat, p in enumerate(state["players"]) if p["in_temple"]]
        if inside:
            leave_temple(state, inside)
        end_round(state, "deck_empty", None)
        return False
    card_id = state["deck"].pop()
    card = data.CARDS[card_id]
    state["epoch"] += 1
    entry = {"card": card_id, **card, "gems_left": 0}
    state["path"].append(entry)
    kind = card["type"]
    if kind == "treasure":
        share_treasure(state, entry)
    elif kind == "artifact":
        state["artifacts_in_deck"].remove(card_id)
    elif kind == "hazard":
        shown = sum(1 for c in state["path"] if c.get("hazard") == card["hazard"])
        if shown >= 2:
            end_round(state, "hazard", card["hazard"])
            return False
    return True


def share_treasure(state: dict, entry: dict) -> None:
    """ja "お宝カード": split evenly (rounded down) among those inside; rest stays on the card."""
    inside = [p for p in state["players"] if p["in_temple"]]
    share, rest = divmod(entry["value"], len(inside))
    for player in inside:
        player["carrying"] += share
    entry["gems_left"] = rest
    state["gems_revealed"] += entry["value"]


def end_round(state: dict, cause: str, hazard: str | None) -> None:
    """ja "ラウンドの終了": those caught inside drop their gems; path gems and drawn artifacts
    are lost; a second hazard leaves the game; then the next round starts, or the game ends."""
    caught = [seat for seat, p in enumerate(state["players"]) if p["in_temple"]]
    lost = sum(c["gems_left"] for c in state["path"])
    for seat in caught:
        lost += state["players"][seat]["carrying"]
        state["players"][seat]["carrying"] = 0
        state["players"][seat]["in_temple"] = False
        state["players"][seat]["choice"] = None
    state["gems_lost"] += lost
    if hazard is not None:
        state["removed_hazards"].append(hazard)
    state["history"].append({
        "round": state["round"],
        "ended_by": cause,
        "hazard": hazard,
        "caught": caught,
        "gems_lost": lost,
        "artifacts_lost": sum(1 for c in state["path"] if c["type"] == "artifact"),
        "path": state["path"],
    })
    if state["round"] >= data.ROUNDS:
        state["phase"] = PHASE_OVER
        state["deck"] = []
        state["path"] = []
        return
    start_round(state)


def reshuffle_unseen(state: dict, key: int) -> None:
    """After a rollback: nobody has seen the quest deck's order, the order in which the
    classic edition's artifacts enter, nor the decks of the rounds to come.  The first two are
    shuffled again from ``key`` (sorted first, so the old order leaves no trace), and ``key``
    joins every later round's shuffle.  The path, the tents, the removed hazards and how many
    cards are left stay as they were."""
    if state["phase"] == PHASE_OVER:
        return
    state["deck"].sort()
    rng(key, "deck").shuffle(state["deck"])
    if data.EDITIONS[state["options"]["artifacts"]]["shuffle"]:
        state["artifacts_to_come"].sort()
        rng(key, "artifacts").shuffle(state["artifacts_to_come"])
    state[RESHUFFLED] = key


# ---------------------------------------------------------------- turns

def to_act(state: dict) -> list[int]:
    """Seats still inside that have not chosen this turn (all of them choose at once)."""
    if state["phase"] != PHASE_CHOOSE:
        return []
    return [seat for seat, p in enumerate(state["players"])
            if p["in_temple"] and p["choice"] is None]


def must_act(state: dict, seat: int) -> bool:
    if state["phase"] != PHASE_CHOOSE or type(seat) is not int:
        return False
    if not 0 <= seat < len(state["players"]):
        return False
    player = state["players"][seat]
    return player["in_temple"] and player["choice"] is None


def why_not(state: dict, seat) -> Phrase:
    """The clear message for a seat that may not act now."""
    if state["phase"] == PHASE_OVER:
        return phrase("the game is over")
    if type(seat) is not int or not 0 <= seat < len(state["players"]):
        return phrase("no seat {seat} in this game", seat=repr(seat))
    if not state["players"][seat]["in_temple"]:
        return phrase("you have left the temple; wait in camp for the next round")
    return phrase("you have already chosen this turn; choices are revealed when everyone "
                  "inside has chosen")


def choose(state: dict, seat: int, choice: str) -> None:
    """Record a secret choice; once everyone inside has chosen, reveal them all together."""
    state["players"][seat]["choice"] = choice
    for player in state["players"]:
        if player["in_temple"] and player["choice"] is None:
            return
    reveal(state)


def reveal(state: dict) -> None:
    """ja steps 1-3: leavers go to camp (sharing the path), then a card is turned for stayers."""
    players = state["players"]
    left = [s for s, p in enumerate(players) if p["in_temple"] and p["choice"] == "leave"]
    stayed = [s for s, p in enumerate(players) if p["in_temple"] and p["choice"] == "stay"]
    for player in players:
        player["choice"] = None
    state["epoch"] += 1
    share, artifacts = leave_temple(state, left) if left else (0, [])
    state["last_reveal"] = {"round": state["round"], "turn": state["turn"], "stayed": stayed,
                            "left": left, "share": share, "artifacts": artifacts}
    if not stayed:
        end_round(state, "all_left", None)
        return
    state["turn"] += 1
    draw(state)


def leave_temple(state: dict, left: list[int]) -> tuple[int, list[int]]:
    """ja "キャンプに戻るプレイヤー": leavers of one turn pool the path's gems and split them
    evenly; the remainder stays on the path.  Only a lone leaver takes the artifacts.  Then all
    their round's gems go into their tents.  Returns (share each, artifact values taken)."""
    path = state["path"]
    pooled = sum(c["gems_left"] for c in path)
    share = pooled // len(left)
    take_from_path(path, share * len(left))
    artifacts: list[int] = []
    if len(left) == 1:
        artifacts = claim_artifacts(state, left[0])
    for seat in left:
        player = state["players"][seat]
        player["tent"] += player["carrying"] + share
        player["carrying"] = 0
        player["in_temple"] = False
    return share, artifacts


def take_from_path(path: list[dict], amount: int) -> None:
    """Take gems card by card from the temple entrance; what is not taken stays where it lay."""
    for card in path:
        if amount <= 0:
            return
        taken = min(card["gems_left"], amount)
        card["gems_left"] -= taken
        amount -= taken


def claim_artifacts(state: dict, seat: int) -> list[int]:
    """Move every artifact on the path to ``seat``, valued by edition (printed or claim order)."""
    claim_values = data.EDITIONS[state["options"]["artifacts"]]["claim_values"]
    taken = []
    keep = []
    for card in state["path"]:
        if card["type"] != "artifact":
            keep.append(card)
            continue
        value = card["value"]
        if claim_values is not None:
            value = claim_values[state["artifacts_claimed"]]
        state["artifacts_claimed"] += 1
        taken.append(value)
    state["path"][:] = keep
    state["players"][seat]["artifacts"].extend(taken)
    return taken


# ---------------------------------------------------------------- the protocol's entry points

def legal(state: dict, seat: int) -> list[dict]:
    if not must_act(state, seat):
        return []
    return [dict(data.ACTIONS["stay"]), dict(data.ACTIONS["leave"])]


def apply(state: dict, seat: int, action) -> None:
    """Validate completely (nothing is touched on IllegalAction), then mutate."""
    if not must_act(state, seat):
        raise IllegalAction(why_not(state, seat))
    chosen = find_legal(data.ACTIONS.values(), action)
    choose(state, seat, chosen["type"])

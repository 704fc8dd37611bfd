"""What one seat may see of an Incan Gold state.

Public (ja): the path, every player's carried gems (kept beside the tent), artifacts, who is
inside, removed hazards, how many cards are left.  Secret: other tents (ja "他人のテントに触った
り、その中身を見て数えることはできない"), other seats' pending choices, the deck order.  Tents
are shown to all once the game is over, since the final scores reveal them anyway."""
from __future__ import annotations

from . import data, rules, scoring


def view(state: dict, seat: int | None) -> dict:
    """The page's data for ``seat`` (None = spectator): built fresh, never shares state lists."""
    over = state["phase"] == rules.PHASE_OVER
    you = seat if type(seat) is int and 0 <= seat < len(state["players"]) else None
    result = {
        "game": "incan_gold",
        "round": state["round"],
        "rounds": data.ROUNDS,
        "turn": state["turn"],
        "phase": state["phase"],
        "epoch": state["epoch"],
        "options": dict(state["options"]),
        "start_player": state["start_player"],
        "to_act": rules.to_act(state),
        "path": [path_card(c) for c in state["path"]],
        "hazards_showing": [c["hazard"] for c in state["path"] if c["type"] == "hazard"],
        "removed_hazards": list(state["removed_hazards"]),
        "deck_left": len(state["deck"]),
        "artifacts_in_deck": [data.CARDS[a]["value"] for a in state["artifacts_in_deck"]],
        "artifacts_to_come": len(state["artifacts_to_come"]),
        "next_claim_values": next_claim_values(state),
        "path_gems": sum(c["gems_left"] for c in state["path"]),
        "players": [player_view(state, s, you, over) for s in range(len(state["players"]))],
        "you": you,
        "your_choice": state["players"][you]["choice"] if you is not None else None,
        "decision_key": decision_key(state, you) if you is not None else None,
        "last_reveal": reveal_view(state["last_reveal"]),
        "history": [history_view(h) for h in state["history"]],
        "game_over": over,
        "outcome": scoring.outcome(state) if over else None,
    }
    return result


def path_card(card: dict) -> dict:
    shown = {"type": card["type"], "gems_left": card["gems_left"]}
    if card["type"] == "hazard":
        shown["hazard"] = card["hazard"]
    else:
        shown["value"] = card["value"]
    return shown


def player_view(state: dict, seat: int, you: int | None, over: bool) -> dict:
    player = state["players"][seat]
    return {
        "seat": seat,
        "name": state["names"][seat],
        "in_temple": player["in_temple"],
        "carrying": player["carrying"],
        "tent": player["tent"] if over or seat == you else None,
        "artifacts": list(player["artifacts"]),
        # Whether the seat has chosen this turn -- never what.
        "decided": player["in_temple"] and player["choice"] is not None,
    }


def reveal_view(last: dict | None) -> dict | None:
    if last is None:
        return None
    return {**last, "stayed": list(last["stayed"]), "left": list(last["left"]),
            "artifacts": list(last["artifacts"])}


def history_view(entry: dict) -> dict:
    return {**entry, "caught": list(entry["caught"]),
            "path": [path_card(c) for c in entry["path"]]}


def next_claim_values(state: dict) -> list[int] | None:
    """Classic edition: what the next artifacts claimed will be worth (None if printed)."""
    claim_values = data.EDITIONS[state["options"]["artifacts"]]["claim_values"]
    if claim_values is None:
        return None
    return list(claim_values[state["artifacts_claimed"]:])


def decision_key(state: dict, seat: int) -> str:
    """One key per turn of a round: every seat inside is asked the same question."""
    if state["phase"] == rules.PHASE_OVER:
        return "over"
    return f"r{state['round']}t{state['turn']}"


def vary_hidden(state: dict, seat: int | None) -> None:
    """Nobody knows the deck's order (nor, in the classic edition, the artifacts' order of
    entry); a seat alone knows its tent and its choice this turn.  Changed here: those orders
    reversed; a seat's tent one gem richer and its pending choice the other one."""
    if state["phase"] == rules.PHASE_OVER:
        return  # the final scores show every tent
    if seat is None:
        state["deck"].reverse()
        state["artifacts_to_come"].reverse()
        return
    player = state["players"][seat]
    player["tent"] += 1
    if player["choice"] is not None:
        player["choice"] = "stay" if player["choice"] == "leave" else "leave"

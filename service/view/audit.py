"""The audit log: every event in words, its hash and whether the chain verifies, and what it
changed in the *public* state (``game.view(state, None)``) -- never a seat's private view,
so the log cannot show a hidden card or tent to anyone.

While a game runs, a game's own admins (who usually sit in it) see public information only
(``shows_secrets``): a move's label may name a secret choice, so it is left out; and a hash
is shown only for an event that is not a move and has a nonce (``concealed``), since a hash
of content without a nonce confirms a guess of that content (a seed tried until GameCreated's
hash matched, a stay or leave tried against a move's).  Site admins see everything, and so
does everyone once the game is over (its seed is revealed then)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.core import canonical_json
from engine.text import N_, Phrase, counted, phrase, render, term
from service.view import bot_levels
from service.view.actors import actor_name, address_of
from service.view.i18n import translate
from service.view.moments import back_to
from service.view.notices import undone_moves
from service.store.fairness import is_over
from service.store.imports import IMPORT_EVENT
from service.store.loading import Loaded
from service.store.history import (ENGINE_EVENTS, REVEAL_EVENT, REWIND_EVENTS, rebuild,
                                   superseded_seqs)
from service.store.events import GENESIS, Event, digest_of, verify_chain
from service.store.organisers import Organiser

MAX_DIFF_LINES = 60
_MISSING = object()


@dataclass
class Change:
    path: str
    before: str
    after: str


@dataclass
class Entry:
    seq: int
    kind: str
    actor: str
    who: str | Phrase      # a name or a role (``actors.actor_name``), never a bare code
    recorded_at: datetime
    words: str
    hash: str | None       # None: concealed while the game runs (``concealed``)
    prev_hash: str | None
    verified: bool
    superseded: bool
    changes: list[Change] = field(default_factory=list)
    more_changes: int = 0
    address: str | None = None  # the organiser's address, for an admin who may see it

    def as_json(self) -> dict:
        return {"seq": self.seq, "kind": self.kind, "actor": self.actor, "who": render(self.who),
                "recorded_at": self.recorded_at.isoformat(), "words": self.words,
                "hash": self.hash, "prev_hash": self.prev_hash, "verified": self.verified,
                "superseded": self.superseded, "more_changes": self.more_changes,
                "changes": [c.__dict__ for c in self.changes]}


def flatten(data: Any, prefix: str = "", out: dict | None = None) -> dict[str, Any]:
    """``{"a": {"b": [1]}}`` → ``{"a.b[0]": 1}``: one line per leaf, for a readable diff."""
    out = {} if out is None else out
    if isinstance(data, dict) and data:
        for key in sorted(data, key=str):
            flatten(data[key], f"{prefix}.{key}" if prefix else str(key), out)
    elif isinstance(data, list) and data:
        for i, item in enumerate(data):
            flatten(item, f"{prefix}[{i}]", out)
    else:
        out[prefix or "(state)"] = data
    return out


def diff(before: dict | None, after: dict) -> tuple[list[Change], int]:
    old = flatten(before) if before is not None else {}
    new = flatten(after)
    changes = []
    for path in sorted(set(old) | set(new)):
        a, b = old.get(path, _MISSING), new.get(path, _MISSING)
        if a != b or (a is _MISSING) != (b is _MISSING):
            changes.append(Change(path, _show(a), _show(b)))
    return changes[:MAX_DIFF_LINES], max(len(changes) - MAX_DIFF_LINES, 0)


def _show(value: Any) -> str:
    return "—" if value is _MISSING else canonical_json(value)


def states_after_each(loaded: Loaded):
    """(event, the state right after it) for each event, replaying once.  The state is
    changed in place by the next step: read what you need of it before asking for more."""
    game = loaded.game
    state = None
    for i, event in enumerate(loaded.events):
        if i == 0:
            _, state = rebuild(loaded.events[:1])
        elif event.kind in ENGINE_EVENTS:
            game.apply_in_place(state, event.payload["seat"], event.payload["action"])
        elif event.kind in REWIND_EVENTS:
            _, state = rebuild(loaded.events[:i + 1])
        yield event, state


def public_views(loaded: Loaded) -> list[dict]:
    """The public view right after each event (index = seq - 1), replaying once."""
    return [loaded.game.view(state, None) for _, state in states_after_each(loaded)]


def describe(loaded: Loaded, index: int, reveal: bool) -> str:
    """What event ``index`` did, in English words (the JSON's ``words``): the page's phrase
    in English, game terms named as the English catalog names them ("3 corn", not "corn3")."""
    return translate("en", described(loaded, index, reveal))


def described(loaded, index: int, reveal: bool) -> dict:
    """What event ``index`` did, as a phrase, so the admin page's log reads in the page's
    language; its English rendering is the audit's ``words`` (``describe``), which the JSON
    keeps.  Seats are named by their players, points of the game by the move they follow and
    their step of the record, never by a number counted from 0."""
    event = loaded.events[index]
    names = [s.name for s in loaded.seats]
    p = event.payload

    def seat_name(seat):
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return term("an unknown seat")

    def reasoned(text: dict) -> dict:
        return phrase("{what}. Reason: {reason}", what=text, reason=p["reason"]) \
            if p.get("reason") else text

    if event.kind == "GameCreated":
        return phrase("created a game of {game} for {players} (rules version {version})",
                      game=term(loaded.game.title), players=", ".join(p.get("players", [])),
                      version=str(p.get("rules_version")))
    if event.kind == "MoveMade":
        who = seat_name(p.get("seat"))
        if event.actor == "bot":
            who = phrase("the bot playing {player}", player=who)
        if reveal:
            return phrase("{player}: {move}", player=who,
                          move=p.get("say") or p.get("label") or canonical_json(p.get("action")))
        return phrase("{player} made a move", player=who)
    if event.kind == "TurnTimedOut":
        if p.get("ordered"):
            return phrase("{player}'s turn timed out; {bot} chose for them, as they had asked",
                          player=seat_name(p.get("seat")), bot=bot_levels.the_bot(p.get("level")))
        if p.get("policy") == "bot":
            return phrase("{player}'s turn timed out; {bot} chose for them",
                          player=seat_name(p.get("seat")), bot=bot_levels.the_bot(p.get("level")))
        return phrase("{player}'s turn timed out", player=seat_name(p.get("seat")))
    if event.kind in REWIND_EVENTS:
        undone = [phrase("{player}'s move at step {n}", n=e.seq,
                         player=seat_name(e.payload.get("seat")))
                  for e in undone_moves(loaded.events, event.seq)]
        template = (N_("rolled the game back to step {n} ({point}); undone: {moves}")
                    if event.kind == "RolledBack"
                    else N_("took back a move: back to step {n} ({point}); undone: {moves}"))
        return reasoned(phrase(template, n=p.get("to_seq"),
                               point=back_to(loaded.events, p.get("to_seq", 0), names),
                               moves=undone or term("nothing")))
    if event.kind == "RollbackProposed":
        return reasoned(phrase("proposed rolling the game back to step {n} ({point}); it waits "
                               "for every player's consent", n=p.get("to_seq"),
                               point=back_to(loaded.events, p.get("to_seq", 0), names)))
    if event.kind == "RollbackConsented":
        return phrase("{player} agreed to the proposed rollback", player=seat_name(p.get("seat")))
    if event.kind == "RollbackDeclined":
        return phrase("{player} declined the proposed rollback", player=seat_name(p.get("seat")))
    if event.kind == "SeatReplaced":
        return phrase("gave {old}'s seat to {new} <{email}>; the old links are revoked",
                      old=str(p.get("previous_name")), new=str(p.get("name")),
                      email=newcomer_address(event))
    if event.kind == "SeatBotted":
        template = (N_("seated {bot} in an empty seat, as {player}")
                    if event.actor.startswith("organiser:")  # an empty seat filled at the start
                    else N_("handed {player}'s seat to {bot}"))
        return phrase(template, player=str(p.get("name")), bot=bot_levels.the_bot(p.get("level")))
    if event.kind == IMPORT_EVENT:
        return phrase("imported the game; its export ended at hash {hash}",
                      hash=str(p.get("source_last_hash")))
    words = {"GamePaused": N_("paused the game"), "GameResumed": N_("resumed the game"),
             "GameAbandoned": N_("abandoned the game")}.get(event.kind)
    if words:
        return reasoned(term(words))
    table = _table_words(event, seat_name)
    if table is not None:
        return table
    return phrase("{kind} {payload}", kind=event.kind, payload=canonical_json(
        {k: v for k, v in p.items() if k != "schema_version"}))


def _table_words(event, seat_name) -> Phrase | None:
    """The words for an event around the play (a vacation, table talk, the seed's reveal),
    None for any other: a seat by its player, vacation days whole, table talk not quoted
    (the log is not where the table's conversation is read)."""
    p = event.payload
    if event.kind == "VacationStarted":
        return counted("{player} went on vacation, {n} vacation day left",
                       "{player} went on vacation, {n} vacation days left",
                       int(p.get("days_left") or 0), player=seat_name(p.get("seat")))
    if event.kind == "VacationEnded":
        return phrase("{player}'s vacation ended", player=seat_name(p.get("seat")))
    if event.kind == "MessagePosted":
        return phrase("{player} wrote to the table", player=seat_name(p.get("seat")))
    if event.kind == "TimeoutOrderSet":
        if p.get("level"):
            return phrase("{player} asked {bot} to decide whenever their time runs out",
                          player=seat_name(p.get("seat")), bot=bot_levels.the_bot(p.get("level")))
        return phrase("{player} left their timeouts to the table's rule",
                      player=seat_name(p.get("seat")))
    if event.kind == REVEAL_EVENT:
        return term("revealed the game's seed: anyone may now check every card and move")
    return None


def shows_secrets(loaded: Loaded, site_admin: bool) -> bool:
    """Whether the audit may show move labels and every hash: to a site admin always, to a
    game's admin once the game is over."""
    return site_admin or is_over(loaded.row.status)


def concealed(event: Event) -> bool:
    """An event whose hash a game's admin may not see while the game runs: a move (its
    content is a seat's choice) or an event without a nonce (written before fair play)."""
    return event.kind in ENGINE_EVENTS or event.nonce is None


def newcomer_address(event) -> str:
    """A SeatReplaced's new address: sealed with the event (it is no one's business outside
    the game's admins, and a finished game's record is public), or, in events recorded
    before that, in its payload."""
    return (event.sealed or {}).get("email") or event.payload.get("email", "")


def audit(loaded: Loaded, site_admin: bool, admins: dict[str, str] | None = None,
          organiser: Organiser | None = None) -> tuple[list[Entry], Any]:
    """The log of the whole game, oldest first, and the chain report; what the viewer may
    see of it (``shows_secrets``).  ``admins``: ``auth.actor_addresses``, to name the admins
    who acted by address -- None for an admin who sits in the game, who is told no more than
    its players (names and roles); ``organiser``: ``organisers.organiser_of``, to name them."""
    reveal = shows_secrets(loaded, site_admin)
    events = loaded.events
    report = verify_chain(loaded.row.id, events)
    superseded = superseded_seqs(events)
    views = public_views(loaded)
    names = [s.name for s in loaded.seats]
    entries = []
    prev, prev_hidden = GENESIS, False
    for i, event in enumerate(events):
        own = digest_of(loaded.row.id, event) == event.hash
        hidden = not reveal and concealed(event)
        changes, more = diff(views[i - 1] if i else None, views[i])
        entries.append(Entry(
            seq=event.seq, kind=event.kind, actor=event.actor,
            who=actor_name(event.actor, names, organiser, admins), recorded_at=event.recorded_at,
            words=describe(loaded, i, reveal), hash=None if hidden else event.hash,
            prev_hash=None if prev_hidden else event.prev_hash,
            verified=own and event.prev_hash == prev and event.seq == i + 1,
            superseded=event.seq in superseded, changes=changes, more_changes=more,
            address=address_of(event.actor, organiser) if admins is not None else None))
        prev, prev_hidden = event.hash, hidden
    return entries, report

"""A player's share of a game's chance, as they give it on taking a seat (accepting an
invitation, confirming a lobby join, accepting a seat offer): the text their browser made
(``chasqui.js``, from ``crypto.getRandomValues``) or they typed, or the service's for an empty
field (no JavaScript, nothing typed).  Checked here, at the edge, so that a record never holds
a share a page cannot show (``service.store.randomness``)."""
from __future__ import annotations

from engine.text import phrase, term
from service.core import validation
from service.store import fairness, randomness
from service.view.i18n import N_


def given_share(raw) -> dict:
    """``{"text", "by"}`` as GameCreated (or SeatReplaced) lists it: surrounding spaces
    dropped; ``BadInput`` for control characters, more than ``randomness.MAX_ENTROPY``
    characters or anything a record cannot show."""
    what = term(N_("your share of the chance"))
    text = validation.bounded_text("" if raw is None else raw, what, randomness.MAX_ENTROPY,
                                   allowed="").strip()
    if not text:
        return fairness.contribution(randomness.default_contribution(), randomness.BY_SERVICE)
    if not randomness.is_contribution(text):
        raise validation.BadInput(phrase("{what} holds a character that cannot be shown",
                                         what=what))
    return fairness.contribution(text, randomness.BY_PLAYER)

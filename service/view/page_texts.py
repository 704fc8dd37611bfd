"""Texts the pages show that are made in Python: error titles and messages, and the
shared drawing helpers' fixed names (service.view.drawing).  Marked with ``N_`` for ``pybabel
extract``; templates translate them with the ``tr`` filter (``{{ title | tr }}``), which leaves
a text without a catalog entry as it is.  Each game's own names, labels and log lines are in its own
catalog domain (``translations/<game>.cfg``), not here."""
from __future__ import annotations

from service.view.i18n import N_

PAGE_TEXTS = (
    # error pages
    N_("Link not valid"), N_("Malformed move"), N_("Malformed request"), N_("Not available"),
    N_("Not done"), N_("Too many mails"), N_("Too many requests"), N_("Check your mail"),
    N_("Invitation"),
    N_("that action is not available now"), N_("the form was incomplete; go back and try again"),
    N_("this seat now has another player"),
    # seat colours (service.view.drawing.SEAT_COLOURS)
    N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("purple"), N_("grey"), N_("orange"),
    N_("teal"),
)

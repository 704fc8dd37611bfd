"""Inca Empire as the service shows it: its pictures (``board``) and its own catalog domain
(translations/inca_empire.cfg).  The title is a service text (the ``messages`` catalog)."""
from __future__ import annotations

from engine.text import N_
from service.view.presentations import Presentation

PRESENTATION = Presentation(
    gettext_domain="inca_empire",
    runtime_texts=(N_("Inca Empire: The Card Game"),),
)

"""The Princes of Machu Picchu as the service shows it: its pictures (``board``), its own catalog
domain (translations/machu_picchu.cfg), and the standing orders a seat may set on the play page.

The title and the standing orders' labels are service texts (the ``messages`` catalog, extracted
from this file by translations/babel.cfg); the board's words are in the game's domain."""
from __future__ import annotations

from engine.text import N_
from service.view.presentations import Presentation, StandingOrder

PRESENTATION = Presentation(
    gettext_domain="machu_picchu",
    runtime_texts=(N_("The Princes of Machu Picchu"),),
    standing_choices=(
        StandingOrder("produce", N_("Production in your districts"),
                      (("ask", N_("ask me")), ("always", N_("always produce when I can pay")),
                       ("never", N_("never produce")))),
        StandingOrder("temple_sacrifice", N_("Sacrifices at the priest temples"),
                      (("ask", N_("ask me")), ("all", N_("sacrifice all I may")),
                       ("none", N_("sacrifice nothing")))),
        StandingOrder("main_temple", N_("Sacrifices at the Main Temple"),
                      (("ask", N_("ask me")), ("all", N_("sacrifice all I may")),
                       ("goods_only", N_("goods only, keep my corn")),
                       ("none", N_("sacrifice nothing")))),
    ),
)

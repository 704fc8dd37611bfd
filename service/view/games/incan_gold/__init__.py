"""Incan Gold as the service shows it: its pictures (``board``: the expedition), its own
catalog domain (translations/incan_gold.cfg: its engine's texts, its board and its templates),
the editions on the new-game form, and no turn plan (each turn is a single stay-or-leave
choice).

The title, the action labels and the editions' labels are service texts (the ``messages``
catalog, extracted from this file by translations/babel.cfg)."""
from __future__ import annotations

from engine.text import N_
from service.view.presentations import Presentation

PRESENTATION = Presentation(
    gettext_domain="incan_gold",
    # the title, and the action labels (terms from the rules texts in shared/rules)
    runtime_texts=(N_("Incan Gold"), N_("Stay in the temple"), N_("Leave for camp")),
    option_names={"artifacts": N_("artifacts")},
    plans_turns=False,  # a turn is one secret stay-or-leave choice, made by all at once
    option_choices={"artifacts": [("2018", N_("2018 edition (artifacts in printed order)")),
                                  ("classic", N_("classic (artifacts shuffled)"))]},
)

"""The end of Incan Gold: scores and winners (notes "End")."""
from __future__ import annotations

from . import rules


def scores(state: dict) -> dict[int, int]:
    """Score = gems in the tent + artifact values (ja "ゲームの目的"; notes "End")."""
    return {seat: p["tent"] + sum(p["artifacts"]) for seat, p in enumerate(state["players"])}


def winners(state: dict) -> list[int]:
    """Highest score; tie -> more artifacts; still tied -> shared victory (notes "End")."""
    ranked = {seat: (score, len(state["players"][seat]["artifacts"]))
              for seat, score in scores(state).items()}
    best = max(ranked.values())
    return [seat for seat, key in ranked.items() if key == best]


def outcome(state: dict) -> dict | None:
    if state["phase"] != rules.PHASE_OVER:
        return None
    return {"scores": scores(state), "winners": winners(state)}

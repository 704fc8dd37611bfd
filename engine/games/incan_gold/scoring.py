"""The end of Incan Gold: scores and winners (notes "End")."""
from __future__ import annotations

from engine.text import counted, phrase

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


def score_breakdown(state: dict) -> dict[int, dict] | None:
    """Where each score came from, as the rules count it: the gems in the tent, then each
    artifact at its value ("48 = 31 gems in the tent + an artifact worth 10 + ... 7")."""
    if state["phase"] != rules.PHASE_OVER:
        return None
    return {seat: {"total": score, "parts": _parts(state["players"][seat])}
            for seat, score in scores(state).items()}


def _parts(player: dict) -> list[dict]:
    tent = player["tent"]
    parts = [{"points": tent,
              "say": counted("{n} gem in the tent", "{n} gems in the tent", tent)}]
    return parts + [{"points": value, "say": phrase("an artifact worth {value}", value=value)}
                    for value in player["artifacts"]]

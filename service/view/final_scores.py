"""A final score in words, with where its points came from (the game's ``score_breakdown``):
"48 points = 31 gems in the tent + an artifact worth 10 + an artifact worth 7", and, when a
game multiplies, the parts in brackets then the factor in words.

Why Python and not a template macro: the same sentence goes into pages and the mail's HTML
(escaped there by Jinja, as any plain string) and into the mail's text part (not escaped)."""
from __future__ import annotations

from service.view.i18n import catalog, page_language, said

PLUS = " + "
EQUALS = " = "


def score_words(score: int, explained: dict | None) -> str:
    """``score`` as "n points", then ``explained``'s parts when the game gave them, in the
    language of the page or mail being rendered."""
    found = catalog(page_language())
    points = found.ngettext("%(num)s point", "%(num)s points", score) % {"num": score}
    if not explained or not explained.get("parts"):
        return points
    parts = PLUS.join(said(part["say"], found.gettext, found.ngettext)
                      for part in explained["parts"])
    factor = explained.get("multiplier")
    if factor:
        parts = found.gettext("(%(parts)s) %(factor)s") % {
            "parts": parts, "factor": said(factor["say"], found.gettext, found.ngettext)}
    return points + EQUALS + parts

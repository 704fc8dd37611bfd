"""The marks that join translated parts, per language: the one place a page, a mail or a board
asks for "the list separator" or "the end of a sentence".

Why a table and not "; " in the templates: Chinese and Japanese write their own full-width
marks with no space around them ("全員が無事に戻った。宝石 0 個が失われた。"), and a part that is
translated on its own cannot carry the mark that joins it to the next one.  A language not in
the table is written as English is."""
from __future__ import annotations

from markupsafe import Markup, escape

# list: items of one kind ("P0、P1"); comma: phrases about one thing ("在场 2，供应 9"; Japanese
# writes "、" for both); clause: facts about one thing; label: a name and what it names;
# sentence: between two sentences; end: closes the last sentence; number: after a line's
# number in a numbered list; open and close: around an aside, with the space before it;
# gap: after a part that carries its own mark (a label's colon "道路：", a sentence's "。").
ENGLISH = {"list": ", ", "comma": ", ", "clause": "; ", "label": ": ", "sentence": ". ",
           "end": ".", "number": ". ", "open": " (", "close": ")", "gap": " "}
FULL_WIDTH = {"list": "、", "comma": "，", "clause": "；", "label": "：", "sentence": "。",
              "end": "。", "number": "．", "open": "（", "close": "）", "gap": ""}
SEPARATORS = {"en": ENGLISH, "zh_Hans": FULL_WIDTH, "ja": {**FULL_WIDTH, "comma": "、"}}


def separator(kind: str, language: str | None = None) -> str:
    """The mark of ``kind`` in ``language`` (the current page's or mail's when not given)."""
    return SEPARATORS.get(language or _current_language(), ENGLISH)[kind]


def joined(parts, kind: str = "list", language: str | None = None) -> str:
    """The non-empty ``parts`` joined by the mark of ``kind``; Markup stays Markup (each plain
    part is escaped), so a template may join parts that carry HTML."""
    shown = _said(parts)
    mark = separator(kind, language)
    if any(isinstance(part, Markup) for part in shown):
        return Markup(mark).join(escape(part) for part in shown)
    return mark.join(str(part) for part in shown)


def labelled(label, value, language: str | None = None) -> str:
    """"Roads: 3" in English, "道：3" in Chinese and Japanese."""
    return joined([label, value], "label", language)


def sentences(parts, language: str | None = None) -> str:
    """Sentences one after another, the last one closed: "A. B." or "A。B。"."""
    shown = _said(parts)
    return joined(shown, "sentence", language) + separator("end", language) if shown else ""


def aside(text, language: str | None = None) -> str:
    """A remark after a word: " (winner)" in English, "（赢家）" in Chinese."""
    if text is None or str(text) == "":
        return ""
    marks = [separator("open", language), separator("close", language)]
    if isinstance(text, Markup):
        return Markup(marks[0]) + text + Markup(marks[1])
    return marks[0] + str(text) + marks[1]


def _said(parts) -> list:
    """The parts that show something (a template's ``x if y`` without ``else`` is empty)."""
    return [part for part in parts if part is not None and str(part) != ""]


def _current_language() -> str:
    from service.view.i18n import page_language

    try:
        return page_language()
    except RuntimeError:  # outside a request or a mail's force_locale: English
        return "en"


def init_app(app) -> None:
    """``sep('clause')``, ``joined(parts, 'list')``, ``labelled(a, b)``, ``sentences(parts)``,
    ``aside(text)`` in every template (mail templates copy the page environment's globals)."""
    app.jinja_env.globals.update(sep=separator, joined=joined, labelled=labelled,
                                 sentences=sentences, aside=aside)

"""Languages (issue 7): English, Simplified Chinese and Japanese, with Flask-Babel.

Catalogs live in ``translations/<locale>/LC_MESSAGES/messages.po`` and their compiled ``.mo``
files are committed.  Pages take the language from ``?lang=`` or the browser; a mail takes the
recipient seat's preference (``service.preferences.language_of``) through ``force_locale``.
``translate`` works without an app (the inbound parser matches labels in the player's
language with it)."""
from __future__ import annotations

from functools import lru_cache

from babel.support import NullTranslations, Translations

from service.config import ROOT

def N_(text: str) -> str:
    """Marks a text for the catalog (``pybabel extract -k N_``) without translating it."""
    return text


# Texts made at run time that the catalogs must hold: the mail intros (service.mail and
# service.mailkit KIND_INTRO), game titles and Incan Gold's action labels (terms from the
# rules texts in shared/rules), game statuses, and the digest's subject.
RUNTIME_TEXTS = (
    N_("A new game has started."), N_("It is your turn."), N_("The game is over."),
    N_("A player's time ran out."),
    N_("Your time ran out, so your vacation started by itself: your clock is stopped."),
    N_("Your vacation days are used up: your clock runs again."),
    N_("An admin rolled the game back. Links in earlier mails no longer work; use these."),
    N_("A player took back a move. Links in earlier mails no longer work; use these."),
    N_("You now have a seat in this game."),
    N_("An admin paused the game: no moves are taken until it resumes."),
    N_("The game goes on again. Links in earlier mails no longer work; use these."),
    N_("An admin ended this game: no more moves are taken."),
    N_("A message to the table."), N_("Your move by mail was recorded."),
    N_("Your reply could not be used."), N_("Your games that are waiting for you."),
    N_("Your waiting games"),
    N_("Incan Gold"), N_("The Princes of Machu Picchu"), N_("Inca Empire: The Card Game"),
    N_("Stay in the temple"), N_("Leave for camp"),
    N_("active"), N_("finished"), N_("paused"), N_("abandoned"),
)

TRANSLATIONS = ROOT / "translations"
LOCALES = ("en", "zh_Hans", "ja")
CONTENT_LANGUAGE = {"en": "en", "zh_Hans": "zh-Hans", "ja": "ja"}


@lru_cache(maxsize=None)
def catalog(language: str) -> NullTranslations:
    if language == "en" or language not in LOCALES:
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS), [language])


def translate(language: str, text: str) -> str:
    if not text:
        return text
    return catalog(language).gettext(text)


def select_page_locale() -> str:
    """``?lang=``, else what the view found for the visitor (``g.chasqui_language``: the
    address's preference on "my games"), else English.  The browser's Accept-Language is not
    used: most pages of other issues are English only, and a half-translated page is worse."""
    from flask import g, request

    wanted = request.args.get("lang") if request else None
    if wanted in LOCALES:
        return wanted
    chosen = g.get("chasqui_language") if request else None
    return chosen if chosen in LOCALES else "en"


def init_app(app) -> None:
    from flask_babel import Babel

    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    Babel(app, locale_selector=select_page_locale)
    app.jinja_env.filters["tr"] = _translate_filter


def _translate_filter(text) -> str:
    """``{{ link.label | tr }}``: a runtime text (an engine's label, a status) in the current
    language, left as it is when the catalog has no entry; no %-formatting, still escaped."""
    from flask_babel import gettext

    return gettext(str(text)) if text else text

"""Languages: English, Simplified Chinese and Japanese, with Flask-Babel.

Catalogs live in ``translations/<locale>/LC_MESSAGES/messages.po`` and their compiled ``.mo``
files are committed.  Pages take the language from ``?lang=`` or the browser; a mail takes the
recipient seat's preference (``service.store.preferences.language_of``) through ``force_locale``.
``translate`` works without an app (the inbound parser matches labels in the player's
language with it)."""
from __future__ import annotations

from functools import lru_cache

from babel.support import NullTranslations, Translations

from engine.text import render
from service.core.config import ROOT
from service.core.language_codes import LOCALES
from service.view import presentations

def N_(text: str) -> str:
    """Marks a text for the catalog (``pybabel extract -k N_``) without translating it."""
    return text


# Texts made at run time that the catalogs must hold: the mail intros (service.mail.kinds),
# game statuses, and the digest's subject; then each game's own
# (its title, its action labels: service.view.games.<game>).
SERVICE_TEXTS = (
    N_("A new game has started."), N_("It is your turn."), N_("The game is over."),
    N_("A player's time ran out."),
    N_("Your time ran out, so your vacation started by itself: your clock is stopped."),
    N_("Your vacation days are used up: your clock runs again."),
    N_("The game was rolled back by {who}. Links in earlier mails no longer work; use these."),
    N_("A player took back a move. Links in earlier mails no longer work; use these."),
    N_("A rollback of the game is proposed. The moves it would take back showed "
       "something, so it happens only if every player agrees."),
    N_("A player declined the proposed rollback: the game goes on as it is."),
    N_("You now have a seat in this game."),
    N_("The game was paused by {who}: no moves are taken until it resumes."),
    N_("The game was resumed by {who}: it goes on again. "
       "Links in earlier mails no longer work; use these."),
    N_("The game was ended by {who}: no more moves are taken."),
    N_("A message to the table."), N_("Your move by mail was recorded."),
    N_("Your reply could not be used."), N_("Your games that are waiting for you."),
    N_("Your waiting games"),
    N_("active"), N_("finished"), N_("paused"), N_("abandoned"),
)
RUNTIME_TEXTS = SERVICE_TEXTS + presentations.runtime_texts()

TRANSLATIONS = ROOT / "translations"
# One catalog per domain: the service's own texts, then each game's terms and phrases (extracted
# from its engine package, so a game's translators need not touch the others' files).
DOMAINS = ("messages", *presentations.gettext_domains())
CONTENT_LANGUAGE = {"en": "en", "zh_Hans": "zh-Hans", "ja": "ja"}


@lru_cache(maxsize=None)
def catalog(language: str) -> NullTranslations:
    """Every domain's catalog of ``language`` merged, as Flask-Babel merges them for a page
    (the plural rule comes from the catalogs).  English has catalogs too, for the few engine
    terms whose msgid is an internal id (``translations/en``)."""
    if language not in LOCALES:
        return NullTranslations()
    merged = Translations()
    for domain in DOMAINS:
        found = Translations.load(str(TRANSLATIONS), [language], domain)
        merged.merge(found)
        if hasattr(found, "plural"):
            merged.plural = found.plural
    return merged


def translate(language: str, text):
    """A text in ``language``: a catalog string, an engine phrase (``engine.text``), or an
    action (its phrase, else its English label)."""
    if not text:
        return text
    found = catalog(language)
    return said(shown(text), found.gettext, found.ngettext)


def said(text, gettext, ngettext=None) -> str:
    """A catalog string translated as it is; a phrase (or list of them) filled in, a counted
    phrase in the form ``ngettext`` picks for its count (English's without one)."""
    if type(text) not in (dict, list):
        return gettext(str(text))
    return render(text, gettext, ngettext) if ngettext else render(text, gettext)


def shown(text):
    """What of ``text`` is displayed: an action shows its phrase (or label), a phrase itself."""
    if type(text) is dict and "t" not in text:
        return text.get("_say") or text.get("label") or ""
    return text


def page_language() -> str:
    """The current page's (or mail's ``force_locale``) language as one of ``LOCALES``."""
    from flask_babel import get_locale

    found = str(get_locale() or "en")
    return found if found in LOCALES else "en"


def translated_label(text, gettext, ngettext=None) -> str:
    """What the ``tr`` filter shows of a non-empty ``text`` with the catalog's ``gettext`` (and
    ``ngettext`` for a counted phrase)."""
    return said(shown(text), gettext, ngettext)

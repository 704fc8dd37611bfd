"""Languages (issue 7): English, Simplified Chinese and Japanese, with Flask-Babel.

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

def N_(text: str) -> str:
    """Marks a text for the catalog (``pybabel extract -k N_``) without translating it."""
    return text


# Texts made at run time that the catalogs must hold: the mail intros (service.mail.compose and
# service.mail.kit KIND_INTRO), game titles and Incan Gold's action labels (terms from the
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
# One catalog per domain: the service's own texts, then each game's terms and phrases (extracted
# from its engine package, so a game's translators need not touch the others' files).
DOMAINS = ("messages", "machu_picchu", "inca_empire")
CONTENT_LANGUAGE = {"en": "en", "zh_Hans": "zh-Hans", "ja": "ja"}


@lru_cache(maxsize=None)
def catalog(language: str) -> NullTranslations:
    if language == "en" or language not in LOCALES:
        return NullTranslations()
    merged = Translations.load(str(TRANSLATIONS), [language], DOMAINS[0])
    for domain in DOMAINS[1:]:
        merged.merge(Translations.load(str(TRANSLATIONS), [language], domain))
    return merged


def translate(language: str, text):
    """A text in ``language``: a catalog string, an engine phrase (``engine.text``), or an
    action (its phrase, else its English label)."""
    if not text:
        return text
    return said(shown(text), catalog(language).gettext)


def said(text, gettext) -> str:
    """A catalog string translated as it is; a phrase (or list of them) filled in."""
    return render(text, gettext) if type(text) in (dict, list) else gettext(str(text))


def shown(text):
    """What of ``text`` is displayed: an action shows its phrase (or label), a phrase itself."""
    if type(text) is dict and "t" not in text:
        return text.get("_say") or text.get("label") or ""
    return text


LANGUAGE_COOKIE = "chasqui_lang"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
# Accept-Language tags (lower case) per locale; a tag not listed matches by its first subtag
# ("en-GB" -> en, "ja-JP" -> ja).  Chinese is matched only where Simplified is what is asked
# for: zh-TW, zh-HK and zh-Hant readers get their next choice, not a script they did not ask for.
ACCEPTED = {"zh": "zh_Hans", "zh-cn": "zh_Hans", "zh-sg": "zh_Hans", "zh-hans": "zh_Hans",
            "en": "en", "ja": "ja"}


def page_language() -> str:
    """The current page's (or mail's ``force_locale``) language as one of ``LOCALES``."""
    from flask_babel import get_locale

    found = str(get_locale() or "en")
    return found if found in LOCALES else "en"


def select_page_locale() -> str:
    """The page's language, first that applies:

    1. ``?lang=`` (the language switcher's links; also remembered in a cookie, see ``init_app``);
    2. on a seat's pages (any page under ``/play/<secret>``, forms included, so a flash
       message is made in the language of the page that shows it): the seat's stored
       preference, else its address's (as for mail) -- a player who chose a language for a
       game keeps it, whatever browser opens the link;
    3. the cookie: the language this browser last chose with ``?lang=``;
    4. what the view found for the visitor (``g.chasqui_language``: the game's language on
       its invitation and lobby pages, the address's on "my games");
    5. the browser's Accept-Language, best match among en, zh_Hans and ja;
    6. English.

    Every page is translated, so a language found without ``?lang=`` (2-5) shows a whole page
    in it.  A choice (1-3) beats a guess (4-5); the seat's read is made once per request,
    on seat pages only."""
    from flask import g, request

    if not request:
        return "en"
    wanted = request.args.get("lang")
    if wanted in LOCALES:
        return wanted
    seat = _seat_preference()
    if seat:
        return seat
    remembered = request.cookies.get(LANGUAGE_COOKIE)
    if remembered in LOCALES:
        return remembered
    chosen = g.get("chasqui_language")
    if chosen in LOCALES and not _seat_secret():
        return chosen
    return accepted_language(request.accept_languages)


def accepted_language(accept) -> str:
    """The best of our languages in an Accept-Language header (Werkzeug's parsed value,
    highest quality first); English when none of them is asked for."""
    for tag, quality in accept:
        tag = tag.lower().replace("_", "-")
        if quality <= 0:
            continue
        if tag in ACCEPTED:
            return ACCEPTED[tag]
        primary = tag.split("-")[0]
        if primary == "zh":  # zh-Hans-CN is Simplified; zh-TW, zh-Hant-HK are not
            if tag.startswith("zh-hans-"):
                return "zh_Hans"
            continue
        if primary in ACCEPTED:
            return ACCEPTED[primary]
    return "en"


def _seat_secret() -> str | None:
    """The seat secret of a seat's page (``/play/<secret>/...``); not the JSON API's."""
    from flask import request

    if request.blueprint == "api" or not request.view_args:
        return None
    return request.view_args.get("secret")


def _seat_preference() -> str | None:
    """The language stored for the seat of this page's secret (its own, else its address's
    newest), or None: a seat that never chose one is not held to English.  One read, cached
    for the request."""
    from flask import g

    secret = _seat_secret()
    if not secret:
        return None
    if "chasqui_seat_language" not in g:
        found = _stored_seat_language(secret)
        g.chasqui_seat_language = found if found in LOCALES else None
    return g.chasqui_seat_language


def _stored_seat_language(secret: str) -> str | None:
    from flask import current_app

    from service.store import preferences
    from service.core.tokens import BadSecret, read_secret

    svc = current_app.extensions["chasqui"]
    try:
        game_id, seat, _nonce = read_secret(svc.settings.secret_key, secret)
    except BadSecret:
        return None
    with svc.db.reading() as session:
        return preferences.stored_language(session, game_id, seat)


def _remember_language(response):
    """``?lang=`` on any page is the visitor's choice: kept in a cookie for the next pages
    (a cookie, not a stored preference -- a GET changes no game)."""
    from flask import current_app, request

    if b"lang=" not in request.query_string:
        return response  # nearly every request: no query string to parse (issue 9)
    wanted = request.args.get("lang")
    if wanted in LOCALES and request.cookies.get(LANGUAGE_COOKIE) != wanted:
        response.set_cookie(LANGUAGE_COOKIE, wanted, max_age=LANGUAGE_COOKIE_AGE, httponly=True,
                            samesite="Lax", secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    return response


def init_app(app) -> None:
    from flask_babel import Babel

    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join([str(TRANSLATIONS)] * len(DOMAINS)))
    app.config.setdefault("BABEL_DOMAIN", ";".join(DOMAINS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    Babel(app, locale_selector=select_page_locale)
    app.after_request(_remember_language)
    app.jinja_env.filters["tr"] = _translate_filter
    app.jinja_env.filters["posted"] = posted


def posted(action):
    """An action (or a list of them) as a form posts it back: without the display-only keys
    (``_say``: the phrase is for showing; the server takes the label from its own legal list)."""
    if type(action) is list:
        return [posted(a) for a in action]
    return {k: v for k, v in action.items() if not k.startswith("_")}


def _translate_filter(text) -> str:
    """``{{ link.label | tr }}``: a runtime text (a status, an engine's phrase or an action's
    label) in the current language, left as it is when the catalog has no entry; no
    %-formatting, still escaped."""
    from flask_babel import get_translations

    return translated_label(text, get_translations().gettext) if text else text


def translated_label(text, gettext) -> str:
    """What the ``tr`` filter shows of a non-empty ``text`` with the catalog's ``gettext``."""
    return said(shown(text), gettext)

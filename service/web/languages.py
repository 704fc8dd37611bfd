"""Which language a page is shown in: the visitor's choice, the seat's stored preference or the
browser's, and the template filters that translate runtime texts."""
from __future__ import annotations

from flask import current_app, g, request
from flask_babel import Babel, get_translations

from service.core.language_codes import locale_for
from service.core.tokens import BadSecret, read_secret
from service.store import preferences
from service.view.i18n import DOMAINS, LOCALES, TRANSLATIONS, translated_label
from service.view.final_scores import score_words
from service.web.extensions import services


LANGUAGE_COOKIE = "chasqui_lang"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600


def select_page_locale() -> str:
    """The page's language, first that applies:

    1. ``?lang=`` (the language switcher's links; also remembered in a cookie, see ``init_app``),
       in any spelling ``locale_for`` knows (``zh``, ``zh-CN``, ``ja-JP`` ...);
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
    if not request:
        return "en"
    wanted = locale_for(request.args.get("lang"))
    if wanted:
        return wanted
    seat = _seat_preference()
    if seat:
        return seat
    remembered = locale_for(request.cookies.get(LANGUAGE_COOKIE))
    if remembered:
        return remembered
    chosen = g.get("chasqui_language")
    if chosen in LOCALES and not _seat_secret():
        return chosen
    return accepted_language(request.accept_languages)


def accepted_language(accept) -> str:
    """The best of our languages in an Accept-Language header (Werkzeug's parsed value,
    highest quality first); English when none of them is asked for."""
    for tag, quality in accept:
        found = locale_for(tag) if quality > 0 else None
        if found:
            return found
    return "en"


def _seat_secret() -> str | None:
    """The seat secret of a seat's page (``/play/<secret>/...``); not the JSON API's."""
    if request.blueprint == "api" or not request.view_args:
        return None
    return request.view_args.get("secret")


def _seat_preference() -> str | None:
    """The language stored for the seat of this page's secret (its own, else its address's
    newest), or None: a seat that never chose one is not held to English.  One read, cached
    for the request."""
    secret = _seat_secret()
    if not secret:
        return None
    if "chasqui_seat_language" not in g:
        found = _stored_seat_language(secret)
        g.chasqui_seat_language = found if found in LOCALES else None
    return g.chasqui_seat_language


def _stored_seat_language(secret: str) -> str | None:
    svc = services()
    try:
        game_id, seat, _nonce = read_secret(svc.settings.secret_key, secret)
    except BadSecret:
        return None
    with svc.db.reading() as session:
        return preferences.stored_language(session, game_id, seat)


def _remember_language(response):
    """``?lang=`` on any page is the visitor's choice: kept in a cookie for the next pages
    (a cookie, not a stored preference -- a GET changes no game)."""
    if b"lang=" not in request.query_string:
        return response  # nearly every request: no query string to parse
    wanted = locale_for(request.args.get("lang"))
    if wanted and request.cookies.get(LANGUAGE_COOKIE) != wanted:
        response.set_cookie(LANGUAGE_COOKIE, wanted, max_age=LANGUAGE_COOKIE_AGE, httponly=True,
                            samesite="Lax", secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    return response


def init_app(app) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join([str(TRANSLATIONS)] * len(DOMAINS)))
    app.config.setdefault("BABEL_DOMAIN", ";".join(DOMAINS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    Babel(app, locale_selector=select_page_locale)
    app.after_request(_remember_language)
    app.jinja_env.filters["tr"] = _translate_filter
    app.jinja_env.filters["posted"] = posted
    app.jinja_env.globals["score_words"] = score_words  # a final score and where it came from


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
    if not text:
        return text
    found = get_translations()
    return translated_label(text, found.gettext, found.ngettext)

"""Guards on every request: the default rate limit of every endpoint, the 429
answer, and the security headers.

* Rate limits use the one shared ``limiter`` (Flask-Limiter; Redis storage when
  CHASQUI_REDIS_URL is set, memory otherwise).  Routes that set their own limit
  (the admin login, sign-in, invitations, lobby joins) keep it; every other endpoint gets
  the default, ``CHASQUI_RATE_LIMIT`` per client address and endpoint ("1000 per minute"
  unless set; "off" switches the default off, e.g. behind a proxy that limits, or for
  benchmarks: the routes with a limit of their own keep it).  A route sets its own limit
  with ``own_limit``, which marks the view, so that with the default off every other
  request skips the limiter outright (``nothing_to_limit``).  All of it is Flask-Limiter's
  own configuration (``RATELIMIT_*`` keys, ``limiter.limit``, ``limiter.request_filter``,
  the 429 error handler).  The limiter object is shared by every app of a process, so the
  default is a callable reading this app's config.
* Security headers on every response (``SECURITY_HEADERS``): a Content-Security-Policy (no
  script but the site's own static file, no inline script; inline styles allowed, which the
  templates and the mailbox's ``srcdoc`` mail preview use; ``frame-ancestors 'none'``),
  X-Frame-Options DENY, Referrer-Policy ``same-origin`` (links carry seat secrets, so nothing
  leaves the site; Flask-WTF's HTTPS CSRF check needs the same-origin Referer),
  X-Content-Type-Options, Permissions-Policy, and HSTS only on https requests
  (``X-Forwarded-Proto: https`` from the TLS-terminating proxy counts).  Never a redirect to
  https: the proxy does that.  These are the headers Flask-Talisman set here until;
  they never vary by request, so they are written once, not rebuilt per response as
  Talisman did (a measurable share of a move's CPU).
* Behind a proxy, ``CHASQUI_PROXY_HOPS`` (the number of trusted proxies) makes Werkzeug's
  ProxyFix take the client address from X-Forwarded-For, so limits count per client."""
from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from service.core.config import Settings

CONFIG_KEY = "CHASQUI_RATE_LIMIT"
EXEMPT_ENDPOINTS = {"static", "pages.health"}


# Counters live in Redis when CHASQUI_REDIS_URL is set (shared by every web process), else in
# this process's memory.
limiter = Limiter(get_remote_address, default_limits=[])

CSP = {
    "default-src": "'self'",
    "script-src": "'self'",  # only service/static/chasqui.js: no inline script, ever
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "frame-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
SECURITY_HEADERS = {
    "Permissions-Policy": "browsing-topics=()",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "; ".join(f"{name} {value}" for name, value in CSP.items()),
    "Referrer-Policy": "same-origin",
}
_SECURITY_ITEMS = tuple(SECURITY_HEADERS.items())
_SECURITY_NAMES = frozenset(name.lower() for name in SECURITY_HEADERS)
HSTS = ("Strict-Transport-Security", f"max-age={365 * 24 * 3600}; includeSubDomains")


OWN_LIMIT = "chasqui_own_rate_limit"  # the mark ``own_limit`` leaves on a view


def own_limit(value: str, **options):
    """``limiter.limit`` for a view with a limit of its own, marked so that
    ``nothing_to_limit`` never skips it (Flask-Limiter's wrapper keeps the view's attributes,
    and so does any decorator above it that uses ``functools.wraps``)."""
    def decorate(view):
        setattr(view, OWN_LIMIT, True)
        limited = limiter.limit(value, **options)(view)
        setattr(limited, OWN_LIMIT, True)
        return limited
    return decorate


@limiter.request_filter
def nothing_to_limit() -> bool:
    """With the default limit off, a view without a limit of its own has nothing to check.
    Flask-Limiter would still resolve, for every request, the default it then finds exempt:
    a measurable share of a move's CPU, spent on no limit at all."""
    if current_app.config.get(CONFIG_KEY, "off") != "off":
        return False
    return not getattr(current_app.view_functions.get(request.endpoint), OWN_LIMIT, False)


def default_limit() -> str:
    value = current_app.config.get(CONFIG_KEY) or "off"
    return "1000000 per second" if value == "off" else value


def default_exempt() -> bool:
    return current_app.config.get(CONFIG_KEY, "off") == "off" or request.endpoint in EXEMPT_ENDPOINTS


def init_app(app: Flask, settings: Settings) -> None:
    """Call before ``limiter.init_app(app)``: the default limit is read there."""
    app.config[CONFIG_KEY] = settings.rate_limit.strip() or "off"
    if settings.proxy_hops:  # behind a proxy every request comes from the proxy's address
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.proxy_hops,
                                x_proto=settings.proxy_hops)
    app.config.setdefault("RATELIMIT_DEFAULT", default_limit)
    app.config.setdefault("RATELIMIT_DEFAULTS_EXEMPT_WHEN", default_exempt)
    if settings.redis_url:  # a hung Redis must cost a request half a second, not ten: the
        # limiter then falls back to memory (RATELIMIT_IN_MEMORY_FALLBACK_ENABLED in create_app)
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS",
                              {"socket_timeout": 0.5, "socket_connect_timeout": 0.5})
    app.after_request(security_headers)
    app.register_error_handler(429, too_many_requests)


def security_headers(response):
    headers = response.headers
    if _SECURITY_NAMES.isdisjoint(name.lower() for name, _ in headers.items()):
        headers.extend(_SECURITY_ITEMS)  # nearly every response: appended, in the same order,
    else:  # without ``update``'s search of the list for each name
        headers.update(SECURITY_HEADERS)  # a view set one of them: replaced
    if request.is_secure or request.headers.get("X-Forwarded-Proto") == "https":
        response.headers[HSTS[0]] = HSTS[1]
    return response


def too_many_requests(error):
    message = (f"Too many requests ({error.description}) from your address; "
               "wait a little and try again.")
    if request.path.startswith(("/api/", "/admin/api/")) or request.is_json:
        return jsonify(error=message), 429
    return render_template("pages/error.html", title="Too many requests", message=message), 429

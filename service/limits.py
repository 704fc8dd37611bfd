"""Guards on every request (issue 10): the default rate limit of every endpoint, the 429
answer, and the security headers.

* Rate limits use the one shared ``service.app.limiter`` (Flask-Limiter; Redis storage when
  CHASQUI_REDIS_URL is set, memory otherwise).  Routes that set their own limit (the admin
  login, sign-in, invitations, lobby joins) keep it; every other endpoint gets the default,
  ``CHASQUI_RATE_LIMIT`` per client address and endpoint ("1000 per minute" unless set;
  "off" switches the default off, e.g. for benchmarks).  The limiter object is shared by
  every app of a process, so the default is a callable reading this app's config.
* Security headers with Flask-Talisman on every response: a Content-Security-Policy (no
  script but the site's own static file, no inline script; inline styles allowed, which the templates and the mailbox's ``srcdoc``
  mail preview use; ``frame-ancestors 'none'``), X-Frame-Options DENY, Referrer-Policy
  ``same-origin`` (links carry seat secrets, so nothing leaves the site; Flask-WTF's HTTPS
  CSRF check needs the same-origin Referer), X-Content-Type-Options, and HSTS only on https
  requests (``X-Forwarded-Proto: https`` from the TLS-terminating proxy counts).  Talisman
  never redirects to https (``force_https`` off: the proxy does that).
* Behind a proxy, ``CHASQUI_PROXY_HOPS`` (the number of trusted proxies) makes Werkzeug's
  ProxyFix take the client address from X-Forwarded-For, so limits count per client."""
from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_talisman import Talisman

from service.config import Settings

CONFIG_KEY = "CHASQUI_RATE_LIMIT"
EXEMPT_ENDPOINTS = {"static", "pages.health"}

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
    https = settings.base_url.startswith("https://")
    Talisman(app, force_https=False, frame_options="DENY", content_security_policy=CSP,
             referrer_policy="same-origin", strict_transport_security=True,
             strict_transport_security_max_age=365 * 24 * 3600,
             session_cookie_secure=https, session_cookie_http_only=True,
             session_cookie_samesite="Lax", x_xss_protection=False)
    app.register_error_handler(429, too_many_requests)


def too_many_requests(error):
    message = (f"Too many requests ({error.description}) from your address; "
               "wait a little and try again.")
    if request.path.startswith(("/api/", "/admin/api/")) or request.is_json:
        return jsonify(error=message), 429
    return render_template("pages/error.html", title="Too many requests", message=message), 429

"""Flask's signed-cookie sessions, without the signing work for a request that has no cookie.

Flask opens the session of every request, and its interface builds an itsdangerous
serializer (keys, signer, salt) before it even looks for a cookie.  Most requests carry none:
every JSON API call and every link a player follows from a mail.  For those the session is
the same new, empty session, made here without the serializer (issue 9: a few per cent of a
move's web CPU, with the session check the sign-in did on every request)."""
from __future__ import annotations

from flask.sessions import SecureCookieSessionInterface


class CookieSessions(SecureCookieSessionInterface):
    def open_session(self, app, request):
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)

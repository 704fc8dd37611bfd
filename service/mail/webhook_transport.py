"""Posting a webhook's body over HTTP(S), to the address the guard checked.

The host is resolved and every address checked (``webhook_guard.resolved``) just before the
post, and the connection goes to the first checked address: urllib3's connection pool is made
for that address, with the URL's host kept for TLS (``server_hostname``: SNI, and the
certificate is verified against that name) and in the ``Host`` header.  No redirect is
followed (a redirect could point anywhere), nothing is retried here (the outbox retries, with
backoff), and the time-outs are short: a channel that hangs must not hold a worker."""
from __future__ import annotations

import urllib3

from service.mail.webhook_guard import Target, resolved

TIMEOUT = urllib3.Timeout(connect=5.0, read=10.0)
USER_AGENT = "Chasqui-Webhook/1"


class PostFailed(Exception):
    """A post that did not reach the channel or was not taken (a status that is not 2xx);
    the text says which, without the body."""


def post(found: Target, body: bytes, headers: dict[str, str]) -> int:
    """POST ``body`` to the target; its HTTP status when 2xx, else ``PostFailed`` (the
    guard's ``UnsafeTarget`` when the host now resolves to an address it refuses)."""
    address = resolved(found)[0]
    kwargs = {"timeout": TIMEOUT, "retries": False, "maxsize": 1}
    if found.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(address, found.port, server_hostname=found.host,
                                           assert_hostname=found.host, cert_reqs="CERT_REQUIRED",
                                           **kwargs)
    else:
        pool = urllib3.HTTPConnectionPool(address, found.port, **kwargs)
    try:
        response = pool.urlopen("POST", found.path, body=body, redirect=False,
                                assert_same_host=False, preload_content=True,
                                headers={**headers, "Host": found.host_header,
                                         "User-Agent": USER_AGENT})
    except urllib3.exceptions.HTTPError as error:
        raise PostFailed(f"could not post: {type(error).__name__}") from None
    finally:
        pool.close()
    if not 200 <= response.status < 300:
        raise PostFailed(f"the channel answered HTTP {response.status}")
    return response.status

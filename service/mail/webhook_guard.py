"""Which URLs a webhook may post to: a guard against a hook aimed at the service's own
network (server-side request forgery).

A target must be ``https``, or ``http`` on a host the operator named in
``CHASQUI_WEBHOOK_HTTP_HOSTS``.  Its host is resolved and *every* address it resolves to
must be a public one: not private, loopback, link-local, multicast, reserved, unspecified,
shared (carrier-grade NAT) or a cloud's metadata address, IPv4 inside IPv6 included.  The
check runs when a hook is saved and again before every post (``resolved``), since a name's
addresses can change in between; the post then connects to the address that was checked
(``webhook_transport``), so a second lookup cannot swap it.  A host on the operator's
allow-list is the operator's own choice: its addresses are not checked (that is how a
receiver on 127.0.0.1 is reached in tests)."""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from engine.text import phrase
from service.core.refusals import Refusal

MAX_URL = 2000
# The instance metadata services of the clouds (AWS's IPv4 and IPv6, Alibaba's; Google's
# and Azure's are 169.254.169.254 too), refused with their own reason.
METADATA = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "fd00:ec2::254", "fd00:ec2::23", "100.100.100.200", "169.254.170.2"))


class UnsafeTarget(Refusal):
    """A webhook URL that may not be posted to; the phrase says why."""


@dataclass(frozen=True)
class Target:
    """A URL that passed the rules: where to connect and what to ask for."""
    scheme: str
    host: str
    port: int
    path: str  # with its query
    trusted: bool  # on the operator's allow-list: its addresses are not checked

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"


def target(url: str, http_hosts: tuple[str, ...] = ()) -> Target:
    """The URL's parts, or ``UnsafeTarget`` for a URL of the wrong form (its addresses are
    checked by ``resolved``)."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL or url != url.strip() \
            or any(ord(c) < 0x21 or ord(c) == 0x7F for c in url):
        raise UnsafeTarget(phrase("the webhook URL must be a single URL of at most {n} "
                                  "characters", n=MAX_URL))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UnsafeTarget(phrase("the webhook URL cannot be read")) from None
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise UnsafeTarget(phrase("the webhook URL has no host"))
    if parts.username is not None or parts.password is not None:
        raise UnsafeTarget(phrase("the webhook URL may not hold a user name or password"))
    trusted = allowed_http(host, port, http_hosts)
    if parts.scheme != "https" and not (parts.scheme == "http" and trusted):
        raise UnsafeTarget(phrase("the webhook URL must start with https://"))
    port = port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path, trusted)


def allowed_http(host: str, port: int | None, http_hosts: tuple[str, ...]) -> bool:
    """Is the host (or host:port) on the operator's allow-list?"""
    named = {h.strip().lower() for h in http_hosts if h.strip()}
    return host in named or (port is not None and f"{host}:{port}" in named)


def refusal(address):
    """Why an address may not be posted to (a phrase); None for a public one."""
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address in METADATA:
        return phrase("a cloud metadata address")
    for said, test in ((phrase("an unspecified address"), address.is_unspecified),
                       (phrase("a loopback address"), address.is_loopback),
                       (phrase("a link-local address"), address.is_link_local),
                       (phrase("a multicast address"), address.is_multicast),
                       (phrase("a reserved address"), address.is_reserved),
                       (phrase("a private address"), address.is_private)):
        if test:
            return said
    if not address.is_global:
        return phrase("an address that is not public")
    return None


def resolve(host: str, port: int) -> list[str]:
    """The host's addresses (the one lookup of a post; tests replace it)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return []
    return list(dict.fromkeys(info[4][0] for info in infos))


def resolved(found: Target) -> list[str]:
    """The addresses to connect to, each checked; ``UnsafeTarget`` when the host resolves to
    none, or to any address that is not public (one bad address refuses the host: which of
    them a connection would take is not ours to choose)."""
    try:
        addresses = [ipaddress.ip_address(found.host)]
    except ValueError:
        addresses = [ipaddress.ip_address(a.split("%", 1)[0]) for a in resolve(found.host, found.port)]
    if not addresses:
        raise UnsafeTarget(phrase("the webhook's host {host} has no address", host=found.host))
    if not found.trusted:
        for address in addresses:
            reason = refusal(address)
            if reason is not None:
                raise UnsafeTarget(phrase("the webhook's host {host} is {reason} ({address}); "
                                          "only public addresses are posted to",
                                          host=found.host, reason=reason, address=str(address)))
    return [str(a) for a in addresses]


def checked(url: str, http_hosts: tuple[str, ...] = ()) -> tuple[Target, list[str]]:
    """The URL's target and its checked addresses (``UnsafeTarget`` otherwise)."""
    found = target(url, http_hosts)
    return found, resolved(found)

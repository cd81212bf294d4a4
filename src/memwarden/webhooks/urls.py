"""Which URLs a subscription may deliver to (pure).

http(s) only, with a host and no credentials in it. A deployment may restrict the hosts
(`MEMWARDEN_WEBHOOK_ALLOWED_HOSTS`: exact names or `*.suffix`); by default any host is
allowed, so an operator who lets tenants subscribe should set it (docs/webhooks.md: SSRF).
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

MAX_URL = 2048


def allowed_hosts(setting: str) -> tuple[str, ...]:
    return tuple(h.strip().lower() for h in setting.split(",") if h.strip())


def host_allowed(host: str, allowed: Sequence[str]) -> bool:
    if not allowed:
        return True
    host = host.lower().rstrip(".")
    for entry in allowed:
        if entry.startswith("*."):
            if host.endswith(entry[1:]) and len(host) > len(entry) - 1:
                return True
        elif host == entry:
            return True
    return False


def problem(url: str, allowed: Sequence[str]) -> str | None:
    """Why `url` is refused, or None when a subscription may use it."""
    if len(url) > MAX_URL:
        return f"url must be at most {MAX_URL} characters"
    if not url.isascii() or any(c.isspace() or ord(c) < 32 for c in url):
        return "url must be plain ASCII without spaces"
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 (raises on a malformed port)
    except ValueError:
        return "url is not a valid URL"
    if parts.scheme not in ("http", "https"):
        return "url must be http or https"
    if not host:
        return "url must name a host"
    if parts.username is not None or parts.password is not None:
        return "url must not carry credentials"
    if not host_allowed(host, allowed):
        return "this deployment does not deliver webhooks to that host"
    return None


def host_of(url: str) -> str:
    return urlsplit(url).hostname or ""

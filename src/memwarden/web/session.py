"""The dashboard's session: the credential a person signed in with, sealed in a cookie.

The cookie is encrypted and authenticated (Fernet: AES + HMAC, with its own timestamp), so
the key inside is neither readable nor forgeable by whoever holds the cookie jar, and it
expires after `SESSION_TTL_S`. Each request re-authenticates the credential through the
same `authenticate` as the API, so a revoked key ends its sessions at once. The session
also carries its CSRF token (compared with every form POST's `csrf` field).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken

COOKIE = "mw_session"
PRE_COOKIE = "mw_signin"  # the sign-in form's double-submit token (no session yet)
SESSION_TTL_S = 8 * 3600


@dataclass(frozen=True)
class Session:
    token: str
    csrf: str


class SessionSealer:
    """Seals and opens sessions with a key derived from the deployment's secret."""

    def __init__(self, secret: str) -> None:
        digest = hashlib.sha256(b"memwarden-ui-session:" + secret.encode()).digest()
        self._fernet = Fernet(base64.urlsafe_b64encode(digest))

    def seal(self, token: str) -> tuple[str, Session]:
        session = Session(token=token, csrf=secrets.token_urlsafe(24))
        payload = json.dumps({"t": session.token, "c": session.csrf}).encode()
        return self._fernet.encrypt(payload).decode(), session

    def open(self, cookie: str | None) -> Session | None:
        """The session, or None when the cookie is missing, forged or expired."""
        if not cookie:
            return None
        try:
            raw = self._fernet.decrypt(cookie.encode(), ttl=SESSION_TTL_S)
            data = json.loads(raw)
            return Session(token=str(data["t"]), csrf=str(data["c"]))
        except (InvalidToken, ValueError, KeyError, TypeError):
            return None


def same_token(expected: str, given: str | None) -> bool:
    """Constant-time comparison of CSRF tokens; a missing one never matches."""
    return bool(given) and hmac.compare_digest(expected.encode(), (given or "").encode())

"""Helpers for the dashboard's tests (HTTP-level and browser): signing in, form tokens."""

from __future__ import annotations

import re

import httpx


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "no CSRF field on the page"
    return found.group(1)


def sign_in(client: httpx.Client, credential: str) -> httpx.Response:
    """The sign-in form's double-submit token, then the credential: a 303 when accepted."""
    form = client.get("/ui/sign-in")
    pre = re.search(r'name="pre" value="([^"]+)"', form.text)
    assert pre, "no sign-in token on the form"
    return client.post("/ui/sign-in", data={"pre": pre.group(1), "credential": credential})

"""Which URLs a subscription may deliver to."""

from __future__ import annotations

import pytest

from memwarden.webhooks.urls import allowed_hosts, host_allowed, problem


def test_any_http_or_https_host_is_allowed_by_default() -> None:
    assert problem("http://127.0.0.1:8080/hook", ()) is None
    assert problem("https://hooks.example.com/x?y=1", ()) is None


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/x",
        "file:///etc/passwd",
        "http://",
        "https://user:pw@example.com/",
        "http://example.com:99999/",
        "http://exa mple.com/",
        "not a url",
    ],
)
def test_other_schemes_credentials_and_malformed_urls_are_refused(url: str) -> None:
    assert problem(url, ()) is not None


def test_an_allow_list_takes_exact_names_and_suffixes() -> None:
    allowed = allowed_hosts(" hooks.example.com, *.example.org ,")
    assert allowed == ("hooks.example.com", "*.example.org")
    assert host_allowed("hooks.example.com", allowed)
    assert host_allowed("a.b.example.org", allowed)
    assert not host_allowed("example.org", allowed)
    assert not host_allowed("evil-example.org", allowed)
    assert not host_allowed("127.0.0.1", allowed)
    assert problem("http://169.254.169.254/latest", allowed) is not None

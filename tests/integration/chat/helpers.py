"""Request builders and an event-stream reader for the chat tests."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.support.replies import EMPTY_EXTRACTION, verdict

PASS = verdict("pass")
INSIGHT = {  # a reflection reply: one insight and one uncertainty
    **EMPTY_EXTRACTION,
    "attributes": [
        {
            "entity": "user",
            "key": "favourite_cuisine",
            "value": "Asian",
            "memoryCategory": "knowledge",
        }
    ],
    "uncertainties": [{"about": "user drink", "reason": "tea and coffee both claimed"}],
}


def chat(client: httpx.Client, cid: str, message: str, **body: Any) -> httpx.Response:
    return client.post(f"/api/v1/{cid}/chat", json={"message": message, **body})


def answered(resp: httpx.Response) -> dict[str, Any]:
    assert resp.status_code == 200, resp.text
    return resp.json()


def remember(client: httpx.Client, cid: str, text: str, **body: Any) -> dict[str, Any]:
    resp = client.post(f"/api/v1/{cid}/facts", json={"text": text, **body})
    assert resp.status_code == 201, resp.text
    return resp.json()


def events(resp: httpx.Response) -> list[tuple[str, dict[str, Any]]]:
    """(event, data) pairs of a text/event-stream body."""
    out = []
    for block in resp.text.split("\n\n"):
        if not block.strip():
            continue
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        out.append((fields["event"], json.loads(fields["data"])))
    return out


__all__ = ["INSIGHT", "PASS", "verdict"]

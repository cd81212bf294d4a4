"""A billed embedder's tokens are booked to the Context under the "embedding" stage."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from memwarden.settings import Settings
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer


@pytest.fixture
def remote(settings: Settings) -> Iterator[tuple[LiveServer, ScriptedModelServer]]:
    """A server whose embedder is an OpenAI-compatible endpoint (scripted, 384 dimensions)."""
    with ScriptedModelServer(embedding_dimensions=384) as model:
        server = LiveServer(
            settings.model_copy(
                update={
                    "openai_base_url": model.base_url,
                    "model_embedding": "openai:emb",
                    "model_max_retries": 0,
                }
            )
        ).start()
        try:
            yield server, model
        finally:
            server.stop()


def _embedding_tokens(client: httpx.Client, context_id: str) -> int:
    usage = client.get(f"/api/v1/{context_id}/usage")
    assert usage.status_code == 200, usage.text
    stage = usage.json()["stages"].get("embedding") or {}
    return int(stage.get("prompt_tokens", 0))


def test_writes_and_queries_book_the_tokens_their_embeddings_used(remote, make_context) -> None:
    server, model = remote
    ctx = make_context(subject="alice")
    with server.client(ctx["key"]) as alice:
        resp = alice.post(
            f"/api/v1/{ctx['id']}/facts", json={"text": "I live in Lisbon.", "infer": "full"}
        )
        assert resp.status_code == 201, resp.text
        after_write = _embedding_tokens(alice, ctx["id"])
        sent = [r for r in model.requests if r.path.endswith("/embeddings")]
        assert sent and after_write > 0
        hits = alice.post(f"/api/v1/{ctx['id']}/query", json={"query": "where is home now"})
        assert hits.status_code == 200 and hits.json()["hits"]
        # the scripted endpoint reports one token per word: the query's four
        assert _embedding_tokens(alice, ctx["id"]) == after_write + 4


def test_the_local_embedder_books_nothing(live, make_context) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as alice:
        resp = alice.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I live in Lisbon."})
        assert resp.status_code == 201
        alice.post(f"/api/v1/{ctx['id']}/query", json={"query": "where is home"})
        assert _embedding_tokens(alice, ctx["id"]) == 0

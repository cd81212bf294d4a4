"""MemwardenStore's puts are memory commands, so the ingest judge sees them: a credential
put raises the client's JudgeRefused with its reason code, and nothing is stored."""

from __future__ import annotations

import pytest
from memwarden_client import JudgeRefused
from memwarden_client.integrations.langgraph import MemwardenStore

from tests.clients.adapters.conftest import CREDENTIAL_TEXT, PERSONAL_TEXT, Ctx
from tests.clients.adapters.test_langgraph_store import fake_embed

SCOPE = {"project_id": "users/alice", "visibility": "shared"}


def test_a_put_of_a_credential_is_refused_with_its_reason_and_stores_nothing(
    judged_ctx: Ctx,
) -> None:
    with judged_ctx.client() as client:
        store = MemwardenStore(client)
        with pytest.raises(JudgeRefused) as refused:
            store.put(("users", "alice"), "deploy", {"note": CREDENTIAL_TEXT})
        assert refused.value.status == 422 and refused.value.reasons == ["credential"]
        assert "ghp_" not in str(refused.value)
        assert store.get(("users", "alice"), "deploy") is None
        assert client.memory.search(scope=SCOPE).hits == []


def test_a_held_put_is_not_served_while_a_benign_put_is(judged_ctx: Ctx) -> None:
    with judged_ctx.client() as client:
        store = MemwardenStore(client)
        store.put(("users", "alice"), "contact", {"note": PERSONAL_TEXT})
        assert store.get(("users", "alice"), "contact") is None
        store.put(("users", "alice"), "food", {"likes": "pizza"})
        item = store.get(("users", "alice"), "food")
        assert item is not None and item.value == {"likes": "pizza"}


def test_a_held_put_with_an_embedding_index_attaches_no_vector_and_raises_nothing(
    judged_ctx: Ctx,
) -> None:
    with judged_ctx.client() as client:
        store = MemwardenStore(client, index={"dims": 384, "embed": fake_embed, "fields": ["note"]})
        store.put(("users", "alice"), "contact", {"note": PERSONAL_TEXT})
        assert store.get(("users", "alice"), "contact") is None

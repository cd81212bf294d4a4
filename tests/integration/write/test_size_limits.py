"""The largest write the service takes, at its edges: a turn of at most MAX_TURN_CHARS
characters, a batch of at most MAX_BATCH_CHARS in all (issue 15, finding 6). A request
past an edge is refused with 400 naming the field, before any work and with nothing written.
"""

from __future__ import annotations

from memwarden.limits import MAX_BATCH_CHARS, MAX_TURN_CHARS
from tests.integration.write.helpers import counts, facts


def test_a_turn_of_the_longest_length_is_written_and_one_character_more_is_400(
    alice, ctx, sql
) -> None:
    # identical 1,000-character chunks: the edge costs one embedding, not 128
    over = facts(alice, ctx["id"], "a" * (MAX_TURN_CHARS + 1), infer="none")
    assert over.status_code == 400
    assert over.json()["error"]["field"] == "text"
    assert f"{MAX_TURN_CHARS}" in over.json()["error"]["message"]
    assert counts(sql)["turn"] == 0
    edge = facts(alice, ctx["id"], "a" * MAX_TURN_CHARS, infer="none")
    assert edge.status_code == 201, edge.text
    assert counts(sql)["turn"] == 1


def test_a_batch_at_the_total_size_is_written_and_one_character_more_is_400(
    alice, ctx, sql
) -> None:
    half = MAX_BATCH_CHARS // 2
    items = [{"text": "b" * half, "infer": "none"}, {"text": "c" * half, "infer": "none"}]
    items_over = [*items, {"text": "d", "infer": "none"}]
    over = alice.post(f"/api/v1/{ctx['id']}/facts/batch", json={"items": items_over})
    assert over.status_code == 400
    assert over.json()["error"]["field"] == "items"
    assert f"{MAX_BATCH_CHARS}" in over.json()["error"]["message"]
    assert counts(sql)["turn"] == 0
    edge = alice.post(f"/api/v1/{ctx['id']}/facts/batch", json={"items": items})
    assert edge.status_code == 200, edge.text
    assert counts(sql)["turn"] == 2


def test_a_batch_item_past_the_turn_length_is_400_naming_the_item() -> None:
    from pydantic import ValidationError

    from memwarden.pipeline.contract import BatchBody

    try:
        BatchBody.model_validate({"items": [{"text": "e" * (MAX_TURN_CHARS + 1)}]})
    except ValidationError as exc:
        assert exc.errors()[0]["loc"] == ("items", 0, "text")
    else:
        raise AssertionError("a batch item longer than a turn was accepted")

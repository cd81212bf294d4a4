"""Vectors per revision through the use cases: attachment behind the gate, exact-scan
candidates, hybrid fusion."""

from __future__ import annotations

import uuid

import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector

from memwarden.store.queries import q
from memwarden.store.search import SearchFilter
from tests.integration.review.helpers import unit_vector
from tests.service.review.memory import Who, attach, command, create, decide, search, search_ids
from tests.service.usecases import refused


def test_a_vector_attaches_to_the_current_revision_once(alice: Who, sql) -> None:
    rid, rev = create(alice, "x")
    out = attach(alice, rid, rev, unit_vector(0))
    assert out == {
        "contract_version": 1,
        "record_id": rid,
        "revision": rev,
        "model": "external",
        "dimensions": 384,
    }
    with refused(409, "embedding_exists"):
        attach(alice, rid, rev, unit_vector(1))
    assert sql("SELECT revision FROM memory_embedding WHERE record_id = %s", (rid,)) == [(rev,)]


def test_a_vector_for_an_old_revision_is_409(alice: Who) -> None:
    rid, rev = create(alice, "x")
    command(alice, "update", record_id=rid, expected_revision=rev, content="y")
    with refused(409, "stale_revision"):
        attach(alice, rid, rev, unit_vector(0))


def test_a_vector_for_an_old_revision_names_the_revision_field_it_was_sent_in(
    alice: Who,
) -> None:
    rid, rev = create(alice, "x")
    command(alice, "update", record_id=rid, expected_revision=rev, content="y")
    with refused(409, "stale_revision", field="revision") as raised:
        attach(alice, rid, rev, unit_vector(0))
    assert "expected_revision" not in raised.value.message
    assert raised.value.extra["current_revision"] == rev + 1


def test_a_vector_cannot_attach_to_an_unservable_record(alice: Who) -> None:
    rid, rev = create(alice, "x")
    rev = decide(alice, rid, rev, disposition="rejected")["receipt"]["revision"]
    with refused(404):
        attach(alice, rid, rev, unit_vector(0))
    gone, grev = create(alice, "y")
    grev = command(alice, "delete", record_id=gone, expected_revision=grev)["revision"]
    with refused(404):
        attach(alice, gone, grev, unit_vector(0))


def test_attaching_a_vector_needs_memory_write(alice: Who, who_for) -> None:
    rid, rev = create(alice, "x")
    reviewer = who_for(["memory_read", "memory_review"])
    with refused(403):
        attach(reviewer, rid, rev, unit_vector(0))


def test_vector_search_is_an_exact_scan_that_skips_rejected_candidates(
    alice: Who,
) -> None:
    ids = []
    for i in range(12):
        rid, rev = create(alice, f"note {i}")
        attach(alice, rid, rev, unit_vector(0, other=i + 1, weight=0.1 * i))
        ids.append((rid, rev))
    query = unit_vector(0)
    body = search(alice, vector=query, limit=5)
    assert body["mode"] == "vector"
    assert [h["record"]["id"] for h in body["hits"]] == [rid for rid, _ in ids[:5]]
    decide(alice, ids[0][0], ids[0][1], disposition="rejected")
    decide(alice, ids[1][0], ids[1][1], disposition="rejected")
    assert search_ids(alice, vector=query, limit=5) == [rid for rid, _ in ids[2:7]]


def test_a_decision_makes_the_old_vector_stale_until_a_new_one_is_attached(
    alice: Who,
) -> None:
    rid, rev = create(alice, "x")
    attach(alice, rid, rev, unit_vector(3))
    assert search_ids(alice, vector=unit_vector(3)) == [rid]
    rev = decide(alice, rid, rev, disposition="approved")["receipt"]["revision"]
    assert search_ids(alice, vector=unit_vector(3)) == []
    attach(alice, rid, rev, unit_vector(3))
    assert search_ids(alice, vector=unit_vector(3)) == [rid]


def test_lexical_search_resumes_without_a_new_vector(alice: Who) -> None:
    rid, rev = create(alice, "walrus migration")
    attach(alice, rid, rev, unit_vector(3))
    decide(alice, rid, rev, disposition="approved")
    assert search_ids(alice, query="walrus") == [rid]


def test_hybrid_search_fuses_text_and_vector_rankings(alice: Who) -> None:
    both, rev = create(alice, "otters hold hands while sleeping")
    attach(alice, both, rev, unit_vector(10, other=11, weight=0.2))
    text_only, _ = create(alice, "otters eat sea urchins")
    vector_only, vrev = create(alice, "unrelated words entirely")
    attach(alice, vector_only, vrev, unit_vector(10))
    body = search(alice, query="otters sleeping", vector=unit_vector(10))
    assert body["mode"] == "hybrid"
    hits = {h["record"]["id"]: h for h in body["hits"]}
    assert body["hits"][0]["record"]["id"] == both
    assert hits[both]["lexical_rank"] == 1 and hits[both]["vector_rank"] == 2
    assert set(hits) == {both, vector_only}  # websearch ANDs the terms
    body = search(alice, query="otters", vector=unit_vector(10))
    assert body["hits"][0]["record"]["id"] == both
    assert {h["record"]["id"] for h in body["hits"]} == {both, text_only, vector_only}


def test_hybrid_search_never_fuses_a_rejected_record(alice: Who) -> None:
    bad, rev = create(alice, "otters otters otters")
    attach(alice, bad, rev, unit_vector(20))
    good, grev = create(alice, "otters")
    attach(alice, good, grev, unit_vector(20, other=21, weight=0.5))
    assert search_ids(alice, query="otters", vector=unit_vector(20))[0] == bad
    decide(alice, bad, rev, disposition="rejected")
    body = search(alice, query="otters", vector=unit_vector(20))
    assert [(h["record"]["id"], h["lexical_rank"], h["vector_rank"]) for h in body["hits"]] == [
        (good, 1, 1)
    ]


def test_vectors_of_another_subjects_private_records_are_not_candidates(
    alice: Who, who_for
) -> None:
    private = {"project_id": "p1", "mission_id": None, "agent_id": "a1", "visibility": "private"}
    rid, rev = create(alice, "x", scope=private)
    attach(alice, rid, rev, unit_vector(5), scope=private)
    bob = who_for(["memory_read"])
    assert search_ids(bob, scope=private, vector=unit_vector(5)) == []
    assert search_ids(alice, scope=private, vector=unit_vector(5)) == [rid]


def test_the_exact_vector_query_scans_eligible_rows_and_never_uses_an_ann_index(
    db_url: str,
) -> None:
    where = SearchFilter(context_id=uuid.uuid4(), prefixes=("",), subject="alice")
    params = {**where.params(), "vector": Vector(unit_vector(0)), "limit": 10}
    with psycopg.connect(db_url) as conn:
        register_vector(conn)
        conn.execute("SET enable_seqscan = off")  # tempt the planner towards any index
        plan = "\n".join(r[0] for r in conn.execute("EXPLAIN " + q("search_vector_exact"), params))
    assert "hnsw" not in plan.casefold() and "memory_embedding" not in plan

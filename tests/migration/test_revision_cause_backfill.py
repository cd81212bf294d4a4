"""0028_revision_cause gives the revisions written before it a cause (what its op implies,
what a supersede's actor or audit event tells, else `unknown`), the validity of their record
and, for a record still superseded, the record that replaced it."""

from __future__ import annotations

import uuid

import psycopg

from memwarden.store.migrate import apply_migrations
from tests.support.pg import PgCluster, database_before

REVISION_CAUSE = 28


def test_the_backfill_infers_each_revisions_cause_and_marks_the_rest_unknown(
    cluster: PgCluster,
) -> None:
    url = database_before(cluster, REVISION_CAUSE)
    cid = uuid.uuid4()
    records = {name: uuid.uuid4() for name in ("declared", "pass", "hygiene", "plan", "noted")}
    survivor = uuid.uuid4()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO context (id, name) VALUES (%s, 'backfill')", (cid,))
        for rid in [*records.values(), survivor]:
            superseded = rid != survivor and rid != records["noted"]
            conn.execute(
                "INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body,"
                " author_subject, serving, valid_to, superseded_by)"
                " VALUES (%s, %s, 'note', 'a', '{}', 'x', 'a', %s, %s, %s)",
                (
                    cid,
                    rid,
                    "superseded" if superseded else "live",
                    "2026-01-02T00:00:00Z" if superseded else None,
                    survivor if superseded else None,
                ),
            )
        actors = {"declared": "alice", "pass": "pass:consolidation", "hygiene": "hygiene"}
        for name, rid in records.items():
            conn.execute(
                "INSERT INTO memory_revision (context_id, record_id, revision, op, actor_subject)"
                " VALUES (%s, %s, 1, 'create', 'alice')",
                (cid, rid),
            )
            second = "review" if name == "noted" else "supersede"
            conn.execute(
                "INSERT INTO memory_revision (context_id, record_id, revision, op, actor_subject)"
                " VALUES (%s, %s, 2, %s, %s)",
                (cid, rid, second, actors.get(name, "bob")),
            )
        conn.execute(
            "INSERT INTO audit_event (context_id, id, actor_subject, action, target_kind,"
            " target_id) VALUES (%s, %s, 'alice', 'memory.declared_supersede', 'record', %s)",
            (cid, uuid.uuid4(), records["declared"]),
        )
    assert [name for name in apply_migrations(url) if name.startswith("0028")]
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT record_id, revision, cause, valid_from IS NOT NULL, valid_to, replaced_by"
            " FROM memory_revision ORDER BY record_id, revision"
        ).fetchall()
    found = {(rid, rev): (cause, has_from, to, by) for rid, rev, cause, has_from, to, by in rows}
    second = {name: found[(rid, 2)][0] for name, rid in records.items()}
    assert second == {
        "declared": "declared_supersede",
        "pass": "consolidation",
        "hygiene": "hygiene_resolution",
        "plan": "unknown",  # a write's correction or a person's decision: not told apart
        "noted": "review_decision",
    }
    assert {found[(rid, 1)][0] for rid in records.values()} == {"write"}
    assert all(has_from for _, has_from, _, _ in found.values())
    assert found[(records["pass"], 2)][3] == survivor and found[(records["pass"], 2)][2]
    assert found[(records["pass"], 1)][2:] == (None, None)  # only the last supersede's
    assert found[(records["noted"], 2)][2:] == (None, None)

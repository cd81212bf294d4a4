"""0029_as_of starts keeping records' past states; for a record changed before it, the
states before its last change were never kept: the backfill marks that span not known, so a
read as of a moment inside it leaves the record out instead of showing its present state."""

from __future__ import annotations

import uuid

import psycopg

from memwarden.store.migrate import apply_migrations
from tests.support.pg import PgCluster, database_before

AS_OF = 29
SERVED_AT = """
SELECT r.id, memory_servable_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                                r.valid_to, r.derived_from, r.known, %(at)s::timestamptz)
FROM memory_as_of(%(ctx)s, %(at)s::timestamptz) r ORDER BY r.id
"""


def test_a_record_changed_before_the_migration_is_not_served_before_its_last_change(
    cluster: PgCluster,
) -> None:
    url = database_before(cluster, AS_OF)
    cid, kept, changed = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO context (id, name) VALUES (%s, 'backfill')", (cid,))
        for rid, modified in ((kept, "2026-01-01T00:00:00Z"), (changed, "2026-03-01T00:00:00Z")):
            conn.execute(
                "INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body,"
                " author_subject, revision, created_at, valid_from, modified_at)"
                " VALUES (%s, %s, 'note', 'a', '{}', 'x', 'a', 2, '2026-01-01T00:00:00Z',"
                " '2026-01-01T00:00:00Z', %s)",
                (cid, rid, modified),
            )
    assert [name for name in apply_migrations(url) if name.startswith("0029")]
    with psycopg.connect(url) as conn:
        past = conn.execute(
            "SELECT record_id, known, sys_to, content, body FROM memory_record_past"
        ).fetchall()
        assert [(r[0], r[1], r[2].isoformat(), r[3], r[4]) for r in past] == [
            (changed, False, "2026-03-01T00:00:00+00:00", None, "")
        ]
        before = conn.execute(SERVED_AT, {"ctx": cid, "at": "2025-12-31T00:00:00Z"}).fetchall()
        between = conn.execute(SERVED_AT, {"ctx": cid, "at": "2026-02-01T00:00:00Z"}).fetchall()
        after = conn.execute(SERVED_AT, {"ctx": cid, "at": "2026-03-02T00:00:00Z"}).fetchall()
    assert before == []
    assert dict(between) == {kept: True, changed: False}
    assert dict(after) == {kept: True, changed: True}

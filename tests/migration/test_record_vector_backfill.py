"""0005_record_vector backfills each record's current-revision vector from memory_embedding."""

from __future__ import annotations

import uuid

import psycopg
from pgvector import Vector
from pgvector.psycopg import register_vector

from memwarden.store.migrate import apply_migrations
from tests.support.pg import PgCluster, database_before

RECORD_VECTOR = 5


def _vector(axis: int) -> Vector:
    values = [0.0] * 384
    values[axis] = 1.0
    return Vector(values)


def test_the_backfill_copies_only_the_current_revisions_vector(cluster: PgCluster) -> None:
    url = database_before(cluster, RECORD_VECTOR)
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        cid, current, stale = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        conn.execute("INSERT INTO context (id, name) VALUES (%s, 'backfill')", (cid,))
        for rid in (current, stale):
            conn.execute(
                "INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body,"
                " author_subject, revision) VALUES (%s, %s, 'note', 'a', '{}', 'x', 'a', 2)",
                (cid, rid),
            )
        for rid, revision, axis in ((current, 1, 0), (current, 2, 1), (stale, 1, 2)):
            conn.execute(
                "INSERT INTO memory_embedding (context_id, record_id, revision, embedding, model)"
                " VALUES (%s, %s, %s, %s, 'm')",
                (cid, rid, revision, _vector(axis)),
            )
    assert [name for name in apply_migrations(url) if name.startswith("0005")]
    with psycopg.connect(url) as conn:
        register_vector(conn)
        found = conn.execute("SELECT id, embedding_revision, embedding FROM memory_record")
        rows = {rid: (rev, vec) for rid, rev, vec in found.fetchall()}
    assert rows[current][0] == 2 and rows[current][1] == _vector(1)
    assert rows[stale] == (None, None)

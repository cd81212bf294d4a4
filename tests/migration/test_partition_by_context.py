"""0022_partition_by_context rebuilds memory_record and chunk as tables partitioned by a hash
of context_id: every row and column survives, the keys and foreign keys still hold."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from pgvector import Vector
from pgvector.psycopg import register_vector

from memwarden.store.migrate import apply_migrations
from tests.support.pg import PgCluster, database_before

PARTITIONED = 22


def _vector(axis: int) -> Vector:
    values = [0.0] * 384
    values[axis] = 1.0
    return Vector(values)


def _rows(conn: psycopg.Connection, table: str) -> list[tuple]:
    return conn.execute(f"SELECT * FROM {table} ORDER BY context_id, id").fetchall()


def test_rows_keys_and_cascades_survive_the_partitioning(cluster: PgCluster) -> None:
    url = database_before(cluster, PARTITIONED)
    contexts = [uuid.uuid4() for _ in range(6)]
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        for n, cid in enumerate(contexts):
            conn.execute("INSERT INTO context (id, name) VALUES (%s, %s)", (cid, f"c{n}"))
            rid = uuid.uuid4()
            conn.execute(
                "INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body,"
                " author_subject, embedding, embedding_revision, derived_from)"
                " VALUES (%s, %s, 'note', 'a', %s, %s, 'a', %s, 1, %s)",
                (cid, rid, f'{{"n": {n}}}', f"the orchard note {n}", _vector(n), [uuid.uuid4()]),
            )
            conn.execute(
                "INSERT INTO memory_revision (context_id, record_id, revision, op, actor_subject)"
                " VALUES (%s, %s, 1, 'create', 'a')",
                (cid, rid),
            )
            conn.execute(
                "INSERT INTO chunk (context_id, id, turn_id, text, embedding, owner_subject)"
                " VALUES (%s, %s, %s, %s, %s, 'a')",
                (cid, uuid.uuid4(), uuid.uuid4(), f"a chunk {n}", _vector(n + 10)),
            )
        before = {t: _rows(conn, t) for t in ("memory_record", "chunk")}

    assert [name for name in apply_migrations(url) if name.startswith("0022")]

    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        assert {t: _rows(conn, t) for t in ("memory_record", "chunk")} == before
        homes = conn.execute(
            "SELECT DISTINCT tableoid::regclass::text FROM memory_record"
        ).fetchall()
        assert homes and all(h.startswith("memory_record_p") for (h,) in homes)
        kind = conn.execute(
            "SELECT relkind FROM pg_class WHERE oid = 'memory_record'::regclass"
        ).fetchone()
        assert kind == ("p",)
        cid, rid = before["memory_record"][0][:2]
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute(
                "INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body,"
                " author_subject) VALUES (%s, %s, 'note', 'a', '{}', 'x', 'a')",
                (cid, rid),
            )
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute(
                "INSERT INTO memory_revision (context_id, record_id, revision, op, actor_subject)"
                " VALUES (%s, %s, 1, 'create', 'a')",
                (cid, uuid.uuid4()),
            )
        conn.execute("DELETE FROM memory_record WHERE context_id = %s AND id = %s", (cid, rid))
        left = conn.execute(
            "SELECT count(*) FROM memory_revision WHERE context_id = %s AND record_id = %s",
            (cid, rid),
        ).fetchone()
        assert left == (0,)
        conn.execute("DELETE FROM context WHERE id = %s", (contexts[1],))
        gone = conn.execute(
            "SELECT count(*) FROM memory_record WHERE context_id = %s", (contexts[1],)
        ).fetchone()
        assert gone == (0,)

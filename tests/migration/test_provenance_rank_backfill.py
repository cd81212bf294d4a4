"""0014_hygiene sets the provenance rank of the records that existed before it."""

from __future__ import annotations

import uuid

import psycopg

from memwarden.store.migrate import apply_migrations
from tests.support.pg import PgCluster, database_before

HYGIENE = 14


def test_the_backfill_ranks_existing_records_by_source_and_approval(cluster: PgCluster) -> None:
    url = database_before(cluster, HYGIENE)
    with psycopg.connect(url, autocommit=True) as conn:
        cid = uuid.uuid4()
        conn.execute("INSERT INTO context (id, name) VALUES (%s, 'backfill')", (cid,))
        rows = {
            "command": ("command", None),
            "turn": ("turn", None),
            "document": ("document", None),
            "reflection": ("reflection", None),
            "approved turn": ("turn", "approved"),
        }
        ids = {}
        for name, (source, disposition) in rows.items():
            ids[name] = uuid.uuid4()
            conn.execute(
                "INSERT INTO memory_record (context_id, id, kind, owner_subject, content, body,"
                " author_subject, source_kind, review_disposition)"
                " VALUES (%s, %s, 'note', 'a', '{}', 'x', 'a', %s, %s)",
                (cid, ids[name], source, disposition),
            )
    assert [name for name in apply_migrations(url) if name.startswith("0014")]
    with psycopg.connect(url) as conn:
        ranks = dict(conn.execute("SELECT id, provenance_rank FROM memory_record").fetchall())
    assert {name: ranks[rid] for name, rid in ids.items()} == {
        "command": 2,
        "turn": 1,
        "document": 1,
        "reflection": 0,
        "approved turn": 2,
    }

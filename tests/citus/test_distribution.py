"""How memwarden's tables lie on the cluster: distributed by Context and co-located, each
Context's rows on one worker, a Context's /query statements planned onto one shard, and
the admin listing of every Context still answering from the coordinator."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import psycopg
import pytest
from pgvector import Vector
from pgvector.psycopg import register_vector

from memwarden.store.migrate import apply_migrations
from memwarden.store.queries import GENERIC, all_queries
from tests.citus.cluster import CitusCluster
from tests.support.live import LiveServer

REFERENCE = {"context", "principal", "principal_grant", "api_key"}
COORDINATOR_ONLY = {"audit_event"}  # context_id may be NULL: a local table
# The statements /query runs on the tables partitioned by Context (store/queries.py) and
# the index walks it chooses for a Context with its own vector index.
QUERY_BLOCKS = sorted(GENERIC | {"search_vector", "recall_chunks_vector"})
TEXTS = [
    "I'm Alice, CTO at Acme. I love jazz.",
    "My name is Bob. I work at Initech and I like hiking.",
    "I'm Carol. I live in Lisbon and I play the cello.",
    "I'm Dan, a nurse in Oslo. I love chess.",
]


@pytest.fixture
def database(db_url: str) -> str:
    return str(psycopg.conninfo.conninfo_to_dict(db_url)["dbname"])


@pytest.fixture
def written(live: LiveServer, make_context: Callable[..., dict[str, Any]]) -> list[dict[str, Any]]:
    """Four Contexts, each with a written turn and its memories."""
    made = []
    for i, text in enumerate(TEXTS):
        ctx = make_context(f"ctx{i}", subject="alice")
        with live.client(ctx["key"]) as alice:
            resp = alice.post(f"/api/v1/{ctx['id']}/facts", json={"text": text})
            assert resp.status_code == 201, resp.text
        made.append(ctx)
    return made


def test_every_context_table_is_distributed_by_context_id_in_one_colocation_group(
    sql: Callable[..., list[tuple]],
) -> None:
    rows = sql(
        "SELECT table_name::text, citus_table_type, distribution_column, colocation_id"
        " FROM citus_tables"
    )
    kinds = {name: kind for name, kind, _, _ in rows}
    assert {n for n, k in kinds.items() if k == "reference"} == REFERENCE
    distributed = [(n, col, group) for n, k, col, group in rows if k == "distributed"]
    assert {"memory_record", "chunk", "turn", "judgement", "change_event"} <= {
        n for n, _, _ in distributed
    }
    assert {col for _, col, _ in distributed} == {"context_id"}
    assert len({group for _, _, group in distributed}) == 1
    with_context = {
        name
        for (name,) in sql(
            "SELECT c.relname::text FROM pg_class c"
            " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'context_id'"
            " WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')"
        )
    }
    assert with_context - set(kinds) == COORDINATOR_ONLY


def test_every_contexts_rows_of_every_table_live_on_one_worker(
    written: list[dict[str, Any]],
    citus_cluster: CitusCluster,
    database: str,
    sql: Callable[..., list[tuple]],
) -> None:
    """Read on the workers themselves: each shard holding any of a Context's rows is on
    the same worker, and that worker is the one Citus places the Context's shard on."""
    tables = [
        name
        for (name,) in sql(
            "SELECT logicalrelid::regclass::text FROM pg_dist_partition p"
            " WHERE partmethod = 'h' AND NOT EXISTS (SELECT 1 FROM pg_inherits i"
            "  WHERE i.inhrelid = p.logicalrelid)"
        )
    ]
    homes: set[int] = set()
    for ctx in written:
        found: dict[str, set[int]] = {}
        for table in tables:
            ((shard, port),) = sql(
                "SELECT s.shard_name::text, s.nodeport FROM citus_shards s"
                " WHERE s.shardid = get_shard_id_for_distribution_column(%s, %s::uuid)",
                (table, ctx["id"]),
            )
            for worker in citus_cluster.workers:
                with citus_cluster.connect(database, worker) as conn:
                    if conn.execute("SELECT to_regclass(%s)", (shard,)).fetchone() == (None,):
                        continue
                    (n,) = conn.execute(
                        f"SELECT count(*) FROM {shard} WHERE context_id = %s", (ctx["id"],)
                    ).fetchone() or (0,)
                    if n:
                        found.setdefault(table, set()).add(worker.port)
                        assert worker.port == port, (table, ctx["id"])
        assert {"memory_record", "turn", "change_event"} <= set(found), found
        ports = set().union(*found.values())
        assert len(ports) == 1, found
        homes |= ports
    assert len(homes) >= 1


def _params(block: str, context_id: str, vector: Vector) -> dict[str, Any]:
    """Values for a block's placeholders, as a reader of `context_id` would send them."""
    values: dict[str, Any] = {
        "context_id": uuid.UUID(context_id),
        "query": "jazz",
        "vector": vector,
        "limit": 10,
        "match_cap": 400,
        "prefixes": [""],
        "subject": "alice",
        "visibility": None,
        "kinds": None,
        "categories": None,
        "ids": [uuid.uuid4()],
        "history": False,
    }
    wanted = set(re.findall(r"%\((\w+)\)s", all_queries()[block]))
    assert wanted <= set(values), wanted - set(values)
    return {k: values[k] for k in wanted}


def test_a_contexts_query_statements_are_each_planned_onto_one_shard(
    written: list[dict[str, Any]], db_url: str
) -> None:
    """EXPLAIN on the coordinator of every statement /query runs on the Context tables:
    Citus routes each to one task (one shard group on one worker), as a prepared
    statement does after its first executions."""
    ctx = written[0]
    with psycopg.connect(db_url, autocommit=True) as conn:
        register_vector(conn)
        (dim,) = conn.execute(
            "SELECT atttypmod FROM pg_attribute"
            " WHERE attrelid = 'memory_record'::regclass AND attname = 'embedding'"
        ).fetchone() or (0,)
        vector = Vector([1.0] + [0.0] * (dim - 1))
        for block in QUERY_BLOCKS:
            for _ in range(7):  # past the plan cache's five custom plans
                conn.execute(all_queries()[block], _params(block, ctx["id"], vector), prepare=True)
            sql = "EXPLAIN (FORMAT JSON) " + all_queries()[block]
            ((plan,),) = conn.execute(sql, _params(block, ctx["id"], vector)).fetchall()
            top = plan[0]["Plan"]
            assert top["Node Type"] == "Custom Scan", (block, top)
            assert top["Custom Plan Provider"] == "Citus Adaptive", block
            job = top["Distributed Query"]["Job"]
            assert job["Task Count"] == 1, (block, job)


def test_the_admin_listing_pages_through_every_context_from_the_coordinator(
    written: list[dict[str, Any]], admin: httpx.Client
) -> None:
    """Contexts are a reference table: the listing of all of them reads the coordinator's
    copy, page by page, whichever worker holds each Context's rows."""
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = admin.get("/api/v1/contexts", params=params)
        assert page.status_code == 200, page.text
        seen += [c["id"] for c in page.json()["contexts"]]
        cursor = page.json().get("next_cursor")
        if not cursor:
            break
    assert seen == [ctx["id"] for ctx in written]


def test_a_database_migrated_on_one_postgresql_is_distributed_when_migrated_on_citus(
    citus_cluster: CitusCluster,
) -> None:
    """As after a pg_dump of one server restored into a coordinator: the Citus migrations
    are recorded as applied (they did nothing there), yet migrating again on the
    coordinator distributes the tables and rewrites the functions."""
    assert citus_cluster.coordinator is not None
    name = f"restored_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(citus_cluster.coordinator.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = citus_cluster.coordinator.url(name)
    try:
        apply_migrations(url)  # plain PostgreSQL: no citus extension yet
        with psycopg.connect(url) as conn:
            versions = {v for (v,) in conn.execute("SELECT version FROM schema_migration")}
            assert {30, 31} <= versions
        citus_cluster.database(name, on_coordinator=True)
        assert apply_migrations(url) == []  # nothing new to record
        with psycopg.connect(url) as conn:
            kinds = dict(
                conn.execute(
                    "SELECT table_name::text, citus_table_type FROM citus_tables"
                ).fetchall()
            )
            (lang,) = conn.execute(
                "SELECT l.lanname::text FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang"
                " WHERE p.proname = 'memory_sources_servable'"
            ).fetchone() or ("",)
        assert kinds["memory_record"] == "distributed" and kinds["context"] == "reference"
        assert lang == "plpgsql"
    finally:
        citus_cluster.drop(name)

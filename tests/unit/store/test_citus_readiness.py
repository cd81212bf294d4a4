"""Citus readiness, checked rather than asserted (docs/scale.md#distribution): a Context is
the unit of distribution, so every table holding Context data can be distributed by
`context_id`. That needs (1) every key and unique index of such a table to include
`context_id` (Citus enforces uniqueness per shard only), and (2) every named query block
to pin the Context with a bound parameter, so Citus routes it to one shard. The blocks
that cannot are listed below, each with its reason.

The schema is read from `store/schema.sql`, which tests/migration/test_schema.py proves
is exactly what the migrations build. (That every primary key *leads* with context_id is
checked on a migrated database by tests/migration/test_migrations.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memwarden.store import queries

SCHEMA = (Path(queries.__file__).parent / "schema.sql").read_text(encoding="utf-8")

# Tables with a context_id column that are not distributed by it, and why (docs/scale.md).
NOT_DISTRIBUTED = {
    "audit_event": "admin actions can precede a Context (context_id NULL); kept on the "
    "coordinator, keyed by its own id",
}

# Blocks that read Context data without pinning one Context, and why each is allowed:
# on Citus they run on every shard (a multi-shard query), which is right for these.
UNPINNED_BLOCKS = {
    "authenticate_key": "the key lookup by key id: the Context is what the key tells us; "
    "key ids are unique uuids (docs/scale.md#what-is-not-pinned-to-one-context)",
    "contexts_with_config": "doctor's listing of every Context's configuration (admin)",
    "list_context_configs": "the admin listing of every Context's configuration",
    "doc_stale_pending": "the maintenance sweep that re-queues lost document jobs of "
    "every Context (one worker, every few minutes)",
    "passes_contexts": "the background passes' trigger tick: every Context's configuration "
    "(the reference table; each one's newest change-feed entry is then read per Context)",
    "passes_stale_runs": "the maintenance sweep that fails pass runs whose job was lost, "
    "in every Context (one worker, once a minute)",
    "hygiene_open_full_runs": "recovery's look for full hygiene cycles a dead worker left "
    "open, in every Context (once a minute and at a worker's start; the partial index of "
    "open full cycles)",
    "contexts_needing_vector_index": "the index job's search for Contexts grown past the "
    "threshold without their own vector index (one worker, every five minutes)",
    "erasure_open": "the minute sweep that queues again erasures whose job was lost, in every "
    "Context (one worker; at most 100 rows of the erasure table)",
    "portability_open_imports": "the minute sweep that queues again imports whose job was lost, "
    "in every Context (one worker; at most 100 rows of the import table's open index)",
    "webhooks_due_contexts": "the webhook sweep's list of Contexts with deliveries due "
    "(one worker, once a minute; the partial index of waiting deliveries), each then "
    "claimed by a statement pinned to it",
    "webhooks_purge_settled": "the webhook sweep that drops deliveries settled more than "
    "`keep_days` ago, in every Context (one worker, a batch at a time)",
}

_TABLE = re.compile(r"CREATE TABLE public\.(\w+) \((.*?)\n\);", re.S)
_REF = re.compile(r"\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)", re.I)
_INSERT = re.compile(r"\bINSERT\s+INTO\s+(\w+)\s*\(([^)]*)\)", re.I)
_PINNED = re.compile(r"\b(?:\w+\.)?context_id\s*=\s*(?:ANY\s*\(\s*)?%\(\w+\)s", re.I)
_INSERTED = re.compile(r"\b(?:VALUES\s*\(|SELECT)\s*%\(context_id\)s", re.I)
_CONTEXT_BY_ID = re.compile(r"\bWHERE\s+id\s*=\s*%\(\w+\)s", re.I)


def context_tables(schema: str) -> set[str]:
    """Tables that hold Context data: ours with a context_id column."""
    return {
        name
        for name, body in _TABLE.findall(schema)
        if re.search(r"^\s+context_id ", body, re.M) and not name.startswith("procrastinate")
    }


def unique_keys(schema: str) -> list[tuple[str, str, list[str]]]:
    """(table, key name, columns) of every primary key, unique constraint and unique index."""
    found = []
    for table, name, cols in re.findall(
        r"ALTER TABLE ONLY public\.(\w+)\s+ADD CONSTRAINT (\w+) (?:PRIMARY KEY|UNIQUE) "
        r"\(([^)]*)\)",
        schema,
    ):
        found.append((table, name, [c.strip() for c in cols.split(",")]))
    for name, table, cols in re.findall(
        r"CREATE UNIQUE INDEX (\w+) ON public\.(\w+) USING \w+ \(([^)]*)\)", schema
    ):
        found.append((table, name, [c.strip() for c in cols.split(",")]))
    return found


def block_is_pinned(sql: str) -> bool:
    """Every insert names context_id, and the statement binds context_id to a parameter
    (or inserts it from one, which routes a CTE's other statements with it)."""
    body = re.sub(r"--[^\n]*", "", sql)
    for _table, cols in _INSERT.findall(body):
        if not re.search(r"\bcontext_id\b", cols):
            return False
    return bool(_PINNED.search(body) or _INSERTED.search(body))


def context_row_pinned(sql: str) -> bool:
    """A statement on `context` alone, pinned by its id (its distribution column)."""
    body = re.sub(r"--[^\n]*", "", sql)
    return bool(_CONTEXT_BY_ID.search(body) or re.match(r"\s*INSERT", body, re.I))


def referenced(sql: str, tables: set[str]) -> set[str]:
    return {t.lower() for t in _REF.findall(re.sub(r"--[^\n]*", "", sql))} & tables


def test_every_key_and_unique_index_of_a_context_table_includes_context_id() -> None:
    tables = context_tables(SCHEMA) - set(NOT_DISTRIBUTED)
    offenders = [
        f"{table}.{name} ({', '.join(cols)})"
        for table, name, cols in unique_keys(SCHEMA)
        if table in tables and "context_id" not in cols
    ]
    assert not offenders, f"unique keys Citus cannot enforce per shard: {offenders}"


def test_every_query_block_pins_one_context_or_is_a_listed_exception() -> None:
    tables = context_tables(SCHEMA) - set(NOT_DISTRIBUTED)
    unpinned = []
    for name, sql in queries.all_queries().items():
        refs = referenced(sql, tables | {"context"})
        if not refs:
            continue
        pinned = context_row_pinned(sql) if refs == {"context"} else block_is_pinned(sql)
        if not pinned:
            unpinned.append(name)
    unexplained = sorted(set(unpinned) - set(UNPINNED_BLOCKS))
    assert not unexplained, f"blocks that do not pin a Context: {unexplained}"
    stale = sorted(set(UNPINNED_BLOCKS) - set(unpinned))
    assert not stale, f"listed as exceptions but pinned now (remove them): {stale}"


def test_the_tables_of_context_data_are_found_in_the_schema() -> None:
    found = context_tables(SCHEMA)
    assert {"memory_record", "turn", "document", "api_key", "change_event"} <= found
    assert "context" not in found and not any(t.startswith("procrastinate") for t in found)


@pytest.mark.parametrize(
    ("sql", "pinned"),
    [
        ("SELECT * FROM turn WHERE context_id = %(context_id)s AND id = %(id)s", True),
        ("SELECT * FROM turn t WHERE t.context_id = ANY(%(ids)s)", True),
        ("SELECT * FROM turn WHERE id = %(id)s", False),
        ("SELECT * FROM turn k JOIN session s ON s.context_id = k.context_id", False),
        ("INSERT INTO usage (context_id, stage) VALUES (%(context_id)s, %(stage)s)", True),
        ("INSERT INTO usage (stage) VALUES (%(stage)s)", False),
        ("INSERT INTO recall_event (context_id, hits) SELECT %(context_id)s, 1", True),
        ("-- context_id = %(x)s in a comment\nSELECT * FROM turn", False),
    ],
)
def test_a_block_is_pinned_only_by_a_bound_context_id(sql: str, pinned: bool) -> None:
    assert block_is_pinned(sql) is pinned

"""0008_memory_readable: the read-access predicate every read shares, as one SQL function.

It must decide exactly what the predicate it replaced decided (a read prefix covers the
path segment by segment, and the row is shared or the caller's own), and its body must
stay inlinable: a function the planner cannot inline runs per row, several times slower.
"""

from __future__ import annotations

import itertools
import random

import psycopg

from memwarden.store.queries import q

# What every read wrote out before 0008.
REPLACED = """
    EXISTS (SELECT 1 FROM unnest(t.prefixes) AS p WHERE scope_covers(p, t.path))
    AND (t.visibility = 'shared' OR t.owner = t.subject)
"""
SEGMENTS = ["a", "ab", "a.b", "a_b", "a%", "b", "acme", "user", "alice"]


def _paths(rng: random.Random, n: int) -> list[str]:
    return ["/".join(rng.choices(SEGMENTS, k=rng.randint(0, 4))) for _ in range(n)]


def _cases() -> list[tuple[str, str, str, list[str], str]]:
    rng = random.Random(8)
    paths = [*_paths(rng, 60), "", "a", "a/b", "ab/c", "a/bc", "a/b/c/d"]
    prefix_sets: list[list[str]] = [[], [""], ["a"], ["a/b"], ["ab"], ["a", "b"], ["a/", "a%"]]
    prefix_sets += [_paths(rng, rng.randint(1, 3)) for _ in range(40)]
    prefix_sets += [[p[: rng.randint(0, len(p))]] for p in _paths(rng, 20)]  # cut mid-segment
    owners = [("shared", "bob"), ("private", "alice"), ("private", "bob")]
    return [
        (path, vis, owner, prefixes, "alice")
        for path, prefixes, (vis, owner) in itertools.product(paths, prefix_sets, owners)
    ]


def test_memory_readable_decides_what_the_replaced_predicate_decided(db_url: str) -> None:
    cases = _cases()
    with psycopg.connect(db_url) as conn, conn.cursor() as cur:
        cur.execute(CASES_TABLE)
        cur.executemany(
            "INSERT INTO readable_case (path, visibility, owner, prefixes, subject)"
            " VALUES (%s, %s, %s, %s::text[], %s)",
            cases,
        )
        rows = cur.execute(
            "SELECT t.path, t.visibility, t.owner, t.prefixes,"
            " memory_readable(t.path, t.visibility, t.owner, t.prefixes, t.subject),"
            f" {REPLACED} FROM readable_case t"
        ).fetchall()
    assert len(rows) == len(cases)
    differ = [r[:4] for r in rows if r[4] is not r[5]]
    assert not differ, f"memory_readable disagrees on {len(differ)} cases, e.g. {differ[:5]}"
    assert any(r[4] for r in rows) and not all(r[4] for r in rows)


def test_every_read_that_uses_it_gets_it_inlined(db_url: str) -> None:
    """EXPLAIN VERBOSE names a function only when the planner could not inline it."""
    params = {
        "context_id": "00000000-0000-0000-0000-000000000001",
        "prefixes": ["org/acme"],
        "subject": "alice",
        # Not empty: `id = ANY('{}')` is false at planning, and a partitioned table with a
        # false filter plans no scan at all, so there would be no predicate to look for.
        "ids": ["00000000-0000-0000-0000-000000000002"],
        "limit": 10,
        "visibility": None,
        "kinds": None,
        "categories": None,
    }
    with psycopg.connect(db_url) as conn:
        for name in ("search_filter", "chat_servable_ids", "recall_state"):
            assert "memory_readable(" in q(name)
            plan = conn.execute(
                f"EXPLAIN (VERBOSE, COSTS OFF) {q(name)}", {**params, "kind": "entity"}
            ).fetchall()
            text = "\n".join(r[0] for r in plan)
            assert "memory_readable" not in text, f"{name} calls memory_readable per row"
            assert "scope_path" in text  # the predicate is there, inlined


CASES_TABLE = """
    CREATE TEMP TABLE readable_case (
        path text NOT NULL, visibility text NOT NULL, owner text NOT NULL,
        prefixes text[] NOT NULL, subject text NOT NULL)
"""

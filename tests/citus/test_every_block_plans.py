"""Every named statement block is planned by Citus
(docs/scale.md#what-had-to-change-to-distribute-and-why; none is an exception today, REFUSED
would list one with its reason). Each block runs on the coordinator, in a transaction rolled
back, with made-up values twice: a Context id, ids and a limit with NULL for the rest, then
values guessed from the parameters' names (a NULL can fold a condition away, and Citus then
plans a statement it would refuse with a value). Only Citus's refusal (`feature not
supported`) counts; an error from the made-up values (a missing row, a wrong type) says
nothing about distribution and is let pass, so a block whose values were all guessed wrong
is not checked. One run of each values, so custom plans: the /query statements' generic
plans are test_distribution.py's."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from typing import Any

import psycopg

from memwarden.store.queries import all_queries

# Blocks Citus refuses today, and what breaks on Citus because of it.
REFUSED: dict[str, str] = {}


ARRAYS_OF_IDS = {"turns", "documents", "entities"}
TIMES = {"at", "since", "now"}
NUMBERS = {"limit", "revision", "expected_revision", "ordinal", "threshold"}


def _value(name: str, context_id: uuid.UUID, *, guess: bool) -> Any:
    if name == "context_id":
        return context_id
    if name.endswith("ids") or (guess and name in ARRAYS_OF_IDS):
        return [uuid.uuid4()]
    if name == "id" or name.endswith("_id") or (guess and name == "after"):
        return uuid.uuid4()
    if name == "limit":
        return 10
    if not guess:
        return None
    if name in TIMES or name.endswith("_at"):
        return dt.datetime.now(dt.UTC)
    if name in NUMBERS or name.endswith("_s"):
        return 10
    return "x"


def _plannable(sql: str) -> bool:
    """Not DDL nor COPY, and no identifiers formatted in (`{name}`)."""
    return not (re.search(r"\{\w+\}", sql) or re.search(r"\b(CONCURRENTLY|COPY)\b", sql))


def test_every_statement_block_is_planned_by_citus_or_is_a_listed_exception(
    db_url: str,
) -> None:
    context_id = uuid.uuid4()
    refused: dict[str, str] = {}
    with psycopg.connect(db_url) as conn:
        for name, sql in sorted(all_queries().items()):
            if not _plannable(sql):
                continue
            names = set(re.findall(r"%\((\w+)\)s", sql))
            left_null = any(_value(p, context_id, guess=False) is None for p in names)
            for guess in (False, True) if left_null else (False,):
                params = {p: _value(p, context_id, guess=guess) for p in names}
                try:
                    conn.execute(sql, params, prepare=False)
                except psycopg.errors.FeatureNotSupported as exc:
                    refused[name] = str(exc).splitlines()[0]
                except psycopg.Error:
                    pass
                conn.rollback()
    unexplained = {k: v for k, v in refused.items() if k not in REFUSED}
    assert not unexplained, f"blocks Citus refuses: {unexplained}"
    stale = sorted(set(REFUSED) - set(refused))
    assert not stale, f"listed as refused but planned now (remove them): {stale}"

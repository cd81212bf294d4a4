"""Small helpers shared by the judge's integration tests."""

from __future__ import annotations

import json
from typing import Any

import psycopg
from psycopg.rows import dict_row

from tests.support.replies import PASS_VERDICT as PASS
from tests.support.replies import rows_reply, verdict

CARD = "4111 1111 1111 1111"
SECRET_MARK = "zq-denied-marker-7f3a"
__all__ = ["PASS", "rows_reply", "verdict"]


def table_texts(db_url: str) -> dict[str, str]:
    """Every table of the database rendered as text, to look for leaked bytes."""
    out: dict[str, str] = {}
    with psycopg.connect(db_url) as conn:
        tables = conn.execute(
            "SELECT schemaname, tablename FROM pg_tables"
            " WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
        ).fetchall()
        for schema, table in tables:
            rows = conn.execute(f'SELECT t::text FROM "{schema}"."{table}" t').fetchall()
            out[f"{schema}.{table}"] = "\n".join(r[0] for r in rows)
    return out


def count(db_url: str, query: str, *params: Any) -> int:
    with psycopg.connect(db_url) as conn:
        row = conn.execute(query, params).fetchone()
    assert row is not None
    return int(row[0])


def usage_rows(db_url: str, context_id: str) -> list[tuple]:
    with psycopg.connect(db_url) as conn:
        return conn.execute(
            "SELECT stage, model, calls, prompt_tokens, completion_tokens FROM usage"
            " WHERE context_id = %s ORDER BY stage, model",
            (context_id,),
        ).fetchall()


def judgements(db_url: str, context_id: str) -> list[dict[str, Any]]:
    with psycopg.connect(db_url, row_factory=dict_row) as conn:
        return conn.execute(
            "SELECT * FROM judgement WHERE context_id = %s ORDER BY id", (context_id,)
        ).fetchall()


def audits(db_url: str, context_id: str) -> list[tuple]:
    with psycopg.connect(db_url) as conn:
        return conn.execute(
            "SELECT action, target_kind, target_id FROM audit_event WHERE context_id = %s"
            " ORDER BY created_at, id",
            (context_id,),
        ).fetchall()


def dumps(value: Any) -> str:
    return json.dumps(value, default=str)

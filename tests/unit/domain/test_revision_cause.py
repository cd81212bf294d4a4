"""The causes a history shows: the Python names and the database's agree (the column's
check and the op-to-cause function migration 0028 fills revisions with)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from memwarden.domain.revision_cause import CAUSES, SupersedeCause, cause_of

SCHEMA = Path(__file__).parents[3] / "src/memwarden/store/schema.sql"


def _schema() -> str:
    return SCHEMA.read_text()


def test_the_cause_column_allows_exactly_the_causes_python_names() -> None:
    check = re.search(
        r"memory_revision_cause_check CHECK \(\(cause = ANY \(ARRAY\[(.*?)\]", _schema()
    )
    assert check is not None
    assert tuple(re.findall(r"'(\w+)'::text", check.group(1))) == CAUSES


def test_each_op_implies_the_same_cause_in_python_and_in_the_database() -> None:
    body = _schema().split("FUNCTION public.memory_revision_cause_of", 1)[1].split("$$;", 1)[0]
    in_sql = dict(re.findall(r"WHEN '(\w+)' THEN '(\w+)'", body))
    ops = re.search(r"memory_revision_op_check CHECK \(\(op = ANY \(ARRAY\[(.*?)\]", _schema())
    assert ops is not None
    for op in re.findall(r"'(\w+)'::text", ops.group(1)):
        assert cause_of(op) == in_sql.get(op), op
    assert cause_of("supersede") is None and cause_of("hold") is None


def test_every_cause_a_supersede_may_give_is_one_the_column_allows() -> None:
    assert set(get_args(SupersedeCause)) <= set(CAUSES) - {"unknown"}

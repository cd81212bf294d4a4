"""Provenance rank by source kind, by table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memwarden.domain.provenance import SOURCE_RANKS, Rank, is_authoritative, rank_for

SCHEMA = Path(__file__).parents[3] / "src/memwarden/store/schema.sql"
"""The schema every migration builds, so a kind a later migration allows is checked too."""


@pytest.mark.parametrize(
    ("source_kind", "approved", "expected"),
    [
        ("command", False, Rank.AUTHORITATIVE),
        ("turn", False, Rank.PROVISIONAL),
        ("document", False, Rank.PROVISIONAL),
        ("import", False, Rank.PROVISIONAL),
        ("import", True, Rank.AUTHORITATIVE),
        ("reflection", False, Rank.DERIVED),
        ("consolidation", False, Rank.DERIVED),
        ("elaboration", False, Rank.DERIVED),
        ("rollup", False, Rank.DERIVED),
        ("gist", False, Rank.DERIVED),
        ("judge", False, Rank.DERIVED),
        ("turn", True, Rank.AUTHORITATIVE),
        ("document", True, Rank.AUTHORITATIVE),
        ("reflection", True, Rank.AUTHORITATIVE),
        ("command", True, Rank.AUTHORITATIVE),
    ],
)
def test_a_records_rank_follows_its_source_and_a_reviewers_approval(
    source_kind: str, approved: bool, expected: Rank
) -> None:
    assert rank_for(source_kind, approved=approved) is expected


def test_every_source_kind_the_schema_allows_has_a_rank() -> None:
    sql = SCHEMA.read_text()
    pattern = r"memory_record_source_kind_check CHECK \(\(source_kind = ANY \(ARRAY\[(.*?)\]"
    block = re.search(pattern, sql)
    assert block is not None
    kinds = set(re.findall(r"'(\w+)'", block.group(1)))
    assert kinds == set(SOURCE_RANKS)


def test_an_unknown_source_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown source kind"):
        rank_for("gossip")


def test_ranks_are_ordered_and_only_the_top_one_is_authoritative() -> None:
    assert Rank.DERIVED < Rank.PROVISIONAL < Rank.AUTHORITATIVE
    assert [is_authoritative(r) for r in Rank] == [False, False, True]

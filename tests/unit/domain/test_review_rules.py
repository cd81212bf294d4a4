"""Pure pieces of the review contract: evidence rules, fusion, scope rendering."""

from __future__ import annotations

import uuid

import pytest

from memwarden.retrieval.search import fuse
from memwarden.review.render import scope_object
from memwarden.review.validation import check_content, check_evidence_ref


def test_evidence_ref_accepts_up_to_2048_utf8_bytes() -> None:
    assert check_evidence_ref("é" * 1024) == "é" * 1024
    with pytest.raises(ValueError, match="2048"):
        check_evidence_ref("é" * 1024 + "x")


@pytest.mark.parametrize("value", ["", "   ", "case\n42", "case\x00", "tab\there", "del\x7f"])
def test_evidence_ref_refuses_blank_values_and_control_characters(value: str) -> None:
    with pytest.raises(ValueError):
        check_evidence_ref(value)


def test_note_content_allows_newlines_but_not_other_control_characters() -> None:
    assert check_content("line one\nline two\ttab") == "line one\nline two\ttab"
    with pytest.raises(ValueError):
        check_content("bell\x07")
    with pytest.raises(ValueError):
        check_content("x" * 16_001)


def test_reciprocal_rank_fusion_rewards_agreement_between_lists() -> None:
    a, b, c = (uuid.UUID(int=i) for i in (1, 2, 3))
    fused = fuse([[a, b, c], [b, c]])
    assert [rid for rid, _ in fused] == [b, c, a]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_fusion_of_one_list_keeps_its_order() -> None:
    ids = [uuid.UUID(int=i) for i in range(1, 6)]
    assert [rid for rid, _ in fuse([ids])] == ids


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("project/p/agent/a", ("p", None, "a")),
        ("project/p/mission/m/agent/a", ("p", "m", "a")),
        ("", (None, None, None)),
        ("org/acme", (None, None, None)),
        ("agent/a/project/p", (None, None, None)),
    ],
)
def test_a_scope_path_renders_as_the_object_form_when_it_fits(
    path: str, expected: tuple[str | None, ...]
) -> None:
    out = scope_object(path, "shared")
    assert (out["project_id"], out["mission_id"], out["agent_id"]) == expected
    assert out["path"] == path

"""The memory-poisoning rows written by others (`evals/judge/external_poisoning.jsonl`) and the
parts of their build script that decide what a row is."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import defaultdict
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memwarden.detectors.evaluate import scored_classes

_JUDGE = Path(__file__).resolve().parents[3] / "evals" / "judge"
_ROWS = [
    json.loads(line)
    for line in (_JUDGE / "external_poisoning.jsonl").read_text(encoding="utf-8").splitlines()
]


def _build() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_external_poisoning", _JUDGE / "build_external_poisoning.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


build = _build()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=4))
def test_a_literal_split_over_lines_is_read_as_python_joins_it(
    tmp_path_factory: pytest.TempPathFactory, parts: list[str]
) -> None:
    source = "VALUE = (\n" + "".join(f"    {part!r}\n" for part in parts) + ")\n"
    path = tmp_path_factory.mktemp("src") / "m.py"
    path.write_text(source, encoding="utf-8")
    assert "".join(parts) in build.literals(path)


def test_only_free_text_fields_of_an_environment_become_rows() -> None:
    tree = {
        "inbox": [{"id_": "7", "subject": "Lunch", "body": "See you at noon, Emma."}],
        "reviews": ["Great stay", "Noisy at night"],
        "balance": 12.5,
    }
    assert sorted(build._strings(tree)) == [
        ("body", "See you at noon, Emma."),
        ("reviews", "Great stay"),
        ("reviews", "Noisy at night"),
        ("subject", "Lunch"),
    ]


def test_every_row_is_a_memory_poisoning_row_the_evaluation_accepts() -> None:
    for row in _ROWS:
        assert row["class"] == "memory_poisoning" and row["split"] in {"train", "test"}
        assert scored_classes(row) == (("memory_poisoning", row["label"] != "none"),)
        assert row["cited"]


def test_no_source_is_in_both_splits() -> None:
    splits: dict[str, set[str]] = defaultdict(set)
    for row in _ROWS:
        splits[row["source"]].add(row["split"])
    assert all(len(s) == 1 for s in splits.values()), splits


def test_no_text_appears_twice() -> None:
    keys = [" ".join(row["text"].split()).lower() for row in _ROWS]
    assert len(keys) == len(set(keys))

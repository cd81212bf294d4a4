"""`memwarden eval hygiene`: labelled pairs through filter, adjudicator and routing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memwarden.cli.evaluate import eval_app
from memwarden.settings import get_settings
from tests.support.scripted_model import Reply, ScriptedModelServer

runner = CliRunner()


def pair(id: str, a: str, b: str, label: str, **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": id,
        "a": a,
        "b": b,
        "a_time": "2026-01-01T10:00:00Z",
        "b_time": "2026-02-01T10:00:00+00:00",
        "a_project": None,
        "b_project": None,
        "label": label,
        "superseding": None,
        "split": "test",
    }
    row.update(extra)
    return row


ROWS = [
    # the newer b replaces a; the offline rules find it
    pair("s1", "I work at Acme.", "I work at Globex now.", "supersedes", superseding="b"),
    # labelled the other way round: a wrong direction
    pair("s2", "I live in Oslo.", "I live in Rome.", "supersedes", superseding="a"),
    # complementary judged complementary (multi-valued key), linked
    pair("c1", "I love jazz.", "I love tea.", "complementary"),
    # complementary the rules take for a supersede: the spec's failure, counted
    pair("c2", "My favourite food is ramen.", "My favourite food is pho.", "complementary"),
    # cross-project, skipped by provenance before any judging
    pair("x1", "Use pnpm.", "Use npm.", "cross_project", a_project="acme/a", b_project="acme/b"),
    # cross-project that provenance cannot prove: judged (left alone here)
    pair("x2", "Use tox.", "Use nox.", "cross_project", a_project="acme/a"),
    # same project on both sides is never skipped; authoritative pairs queue
    pair(
        "d1",
        "I live in Oslo.",
        "I live in Oslo",
        "duplicate",
        a_project="acme/a",
        b_project="acme/a",
        a_rank="authoritative",
        b_rank="authoritative",
        split="train",
    ),
    pair("u1", "A man plays a guitar.", "A cat sleeps on a mat.", "unrelated", split="train"),
]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n\n", encoding="utf-8")
    return path


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[pytest.MonkeyPatch]:
    for name in (
        "MEMWARDEN_MODEL_ADJUDICATION",
        "MEMWARDEN_MODEL_HYGIENE",
        "MEMWARDEN_CONFIG_FILE",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMWARDEN_DATA_DIR", str(tmp_path / "data"))
    get_settings.cache_clear()
    yield monkeypatch
    get_settings.cache_clear()


def run(*args: str) -> Any:
    result = runner.invoke(eval_app, ["hygiene", *args])
    assert result.exit_code == 0, result.output
    return result


def test_offline_evaluation_reports_confusion_false_supersedes_directions_skips_and_routing(
    data: Path, environment: pytest.MonkeyPatch
) -> None:
    report = json.loads(run("--data", str(data), "--json").stdout)
    assert report["pairs"] == 8
    assert report["confusion"]["supersedes"]["supersedes"] == 2
    assert report["confusion"]["complementary"] == {
        "cross_project": 0,
        "duplicate": 0,
        "supersedes": 1,
        "contradiction": 0,
        "complementary": 1,
        "unrelated": 0,
        "undecided": 0,
    }
    assert report["confusion"]["cross_project"]["cross_project"] == 1
    assert report["confusion"]["cross_project"]["undecided"] == 1
    assert report["confusion"]["duplicate"]["duplicate"] == 1
    assert report["confusion"]["unrelated"]["unrelated"] == 1  # no word in common
    assert report["false_supersede_rate_complementary"] == 0.5
    assert (report["wrong_direction_supersedes"], report["supersedes_judged_supersedes"]) == (1, 2)
    assert report["cross_project_skipped_share"] == 0.5
    assert report["false_cross_project_skips"] == 0
    assert report["routing"] == {
        "skipped_cross_project": 1,
        "kept_both": 1,  # x2, left alone
        "linked": 1,  # c1
        "queued": 1,  # d1: authoritative on both sides
        "auto_resolved": 3,  # s1, s2 and c2 (provisional, confident)
        "dismissed": 1,  # u1
    }
    assert report["model_calls"] == 0
    assert report["accuracy"] == pytest.approx(6 / 8)  # s1, s2 (verdict only), c1, x1, d1, u1


def test_one_split_is_scored_and_the_tables_render(
    data: Path, environment: pytest.MonkeyPatch
) -> None:
    report = json.loads(run("--data", str(data), "--split", "train", "--json").stdout)
    assert report["pairs"] == 2
    table = run("--data", str(data), "--split", "test")
    assert "false-supersede rate on complementary" in table.stdout
    assert "auto_resolved" in table.stdout
    assert "skipped 2 pairs outside split 'test'" in table.stderr


def test_the_configured_models_judge_by_path_and_a_bad_reply_leaves_the_pair_alone(
    data: Path, environment: pytest.MonkeyPatch, scripted: ScriptedModelServer
) -> None:
    environment.setenv("MEMWARDEN_OPENAI_BASE_URL", scripted.base_url)
    environment.setenv("MEMWARDEN_OPENAI_API_KEY", "k")
    environment.setenv("MEMWARDEN_MODEL_MAX_RETRIES", "0")
    environment.setenv("MEMWARDEN_MODEL_ADJUDICATION", "openai:strong")
    environment.setenv("MEMWARDEN_MODEL_HYGIENE", "openai:cheap")
    complementary = {"verdict": "complementary", "superseding": None, "confidence": 0.9}
    scripted.script("hygiene", *[Reply.json(complementary)] * 5, Reply.text("not json"))
    scripted.script("adjudication", Reply.json({"verdict": "duplicate", "confidence": 0.97}))
    report = json.loads(run("--data", str(data), "--json").stdout)
    assert report["model_calls"] == 7  # every pair but the one the filter skipped
    assert report["model_errors"] == 1
    assert len(scripted.requests_for("hygiene")) == 6
    assert [r.model for r in scripted.requests_for("adjudication")] == ["strong"]
    assert report["confusion"]["duplicate"]["duplicate"] == 1
    assert report["routing"]["queued"] == 1 and report["routing"]["linked"] == 5
    offline = json.loads(run("--data", str(data), "--offline", "--json").stdout)
    assert offline["model_calls"] == 0
    assert len(scripted.requests_for("hygiene")) == 6


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"label": "same"}, "label must be one of"),
        ({"superseding": "a"}, "superseding is set for supersedes rows"),
        ({"label": "supersedes"}, "superseding is set for supersedes rows"),
        ({"a_time": "yesterday"}, "a_time is not ISO 8601"),
        ({"b_time": 5}, "b_time must be an ISO 8601 string"),
        ({"a_project": "falcon"}, "a_project must look like owner/slug"),
        ({"b_rank": "boss"}, "b_rank must be one of"),
        ({"a": ""}, "a must be a non-empty string"),
    ],
)
def test_a_bad_row_is_refused_naming_its_line_and_field(
    tmp_path: Path, environment: pytest.MonkeyPatch, change: dict[str, Any], message: str
) -> None:
    row = pair("p", "I live in Oslo.", "I live in Rome.", "complementary")
    row.update(change)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(pair("ok", "x", "y", "unrelated")) + "\n" + json.dumps(row) + "\n")
    result = runner.invoke(eval_app, ["hygiene", "--data", str(bad)])
    assert result.exit_code == 2
    assert "bad.jsonl line 2" in result.stderr and message in result.stderr
    assert "Oslo" not in result.stderr


def test_a_row_without_a_required_field_or_not_json_is_refused(
    tmp_path: Path, environment: pytest.MonkeyPatch
) -> None:
    row = pair("p", "a", "b", "unrelated")
    del row["b_time"]
    missing = tmp_path / "missing.jsonl"
    missing.write_text(json.dumps(row) + "\n")
    result = runner.invoke(eval_app, ["hygiene", "--data", str(missing)])
    assert result.exit_code == 2 and "missing field b_time" in result.stderr
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("{not json\n")
    result = runner.invoke(eval_app, ["hygiene", "--data", str(garbage)])
    assert result.exit_code == 2 and "line 1 is not JSON" in result.stderr

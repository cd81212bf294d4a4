"""The LoCoMo QA harness end to end, as a plumbing check (issue 27): two conversations
ingested through /facts, each question answered from its /query context by an
OpenAI-compatible server (a scripted one on 127.0.0.1), then judged. The scores are not
asserted; where the answers came from, and the table's shape, are."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.scripted_model import RecordedRequest, Reply, ScriptedModelServer

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "bench_locomo_qa.py"
DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json"
SESSIONS, QUESTIONS = 2, 3

pytestmark = pytest.mark.skipif(not DATA.exists(), reason="../shared/data/locomo is not here")


def context_of(prompt: str) -> list[str]:
    return [line[2:] for line in prompt.split("\n") if line.startswith("- ")]


def first_context_line(request: RecordedRequest) -> Reply:
    """Answer with the first memory the prompt gave: an answer only /query could supply."""
    lines = context_of(request.user)
    return Reply.text(lines[0] if lines else "not mentioned")


def run_bench(server: ScriptedModelServer, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMWARDEN_OPENAI_BASE_URL": server.base_url}
    argv = [sys.executable, str(BENCH), "--model", "scripted", "--limit-conversations", "2"]
    argv += ["--limit-sessions", str(SESSIONS), "--limit-questions", str(QUESTIONS), *extra]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900, cwd=ROOT)


def turn_texts(limit: int) -> dict[str, set[str]]:
    """What each of the first conversations wrote, turn by turn, as the harness writes it."""
    sys.path.insert(0, str(BENCH.parent))
    import bench_locomo_qa as bench

    data = json.loads(DATA.read_text())[:limit]
    return {
        s["sample_id"]: {
            bench.turn_text(date, t)
            for _n, date, turns in bench.sessions(s["conversation"])[:SESSIONS]
            for t in turns
        }
        for s in data
    }


@pytest.fixture(scope="module")
def run() -> tuple[dict[str, Any], list[RecordedRequest], list[RecordedRequest], int]:
    labels = itertools.cycle(["CORRECT", "WRONG", "WRONG"])
    sent_correct = 0

    def judge(_request: RecordedRequest) -> Reply:
        nonlocal sent_correct
        label = next(labels)
        sent_correct += label == "CORRECT"
        return Reply.json({"reason": "scripted", "label": label})

    with ScriptedModelServer() as server:
        server.respond_with("qa_answer", first_context_line)
        server.respond_with("qa_judge", judge)
        done = run_bench(server, "--json")
        assert done.returncode == 0, done.stderr[-3000:]
        answers = server.requests_for("qa_answer")
        judged = server.requests_for("qa_judge")
    return json.loads(done.stdout), answers, judged, sent_correct


def test_each_answer_comes_from_the_query_context_of_its_own_conversation(
    run: tuple[dict[str, Any], list[RecordedRequest], list[RecordedRequest], int],
) -> None:
    result, answer_requests, _, _ = run
    written = turn_texts(2)
    asked = result["answers"]
    assert asked and len(answer_requests) == len(asked)
    assert {a["sample"] for a in asked} == set(written)
    # Category 1-4 questions only, whose evidence lies in the sessions written.
    sys.path.insert(0, str(BENCH.parent))
    import bench_locomo_qa as bench

    data = json.loads(DATA.read_text())[:2]
    expected = [
        (s["sample_id"], question)
        for s in data
        for _c, question, _g in bench.questions(
            s,
            {n for n, _d, _t in bench.sessions(s["conversation"])[:SESSIONS]},
            QUESTIONS,
        )
    ]
    assert [(a["sample"], a["question"]) for a in asked] == expected
    for row, request in zip(asked, answer_requests, strict=True):
        assert row["question"] in request.user
        assert context_of(request.user) == row["context"] and row["context"]
        assert len(row["hitIds"]) == len(row["context"])
        assert row["answer"] == row["context"][0]
        # Every memory in the prompt is a turn this conversation wrote, or a record /query
        # returned (no transcript prefix); none is another conversation's turn.
        others = set().union(*(t for s, t in written.items() if s != row["sample"]))
        assert not others & set(row["context"])
        assert set(row["context"]) & written[row["sample"]], row["context"]
        assert row["category"] in (1, 2, 3, 4)


def test_the_judge_sees_each_generated_answer_and_its_labels_are_counted(
    run: tuple[dict[str, Any], list[RecordedRequest], list[RecordedRequest], int],
) -> None:
    result, _, judged, sent_correct = run
    assert len(judged) == len(result["answers"])
    for row, request in zip(result["answers"], judged, strict=True):
        assert row["answer"] in request.user and row["question"] in request.user
    assert sum(a["correct"] for a in result["answers"]) == sent_correct
    assert result["overall"]["questions"] == len(result["answers"])


def test_the_result_has_a_row_per_category_tokens_and_latencies(
    run: tuple[dict[str, Any], list[RecordedRequest], list[RecordedRequest], int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    result, _, _, _ = run
    assert list(result["by_category"]) == ["multi-hop", "temporal", "open-domain", "single-hop"]
    assert sum(c["questions"] for c in result["by_category"].values()) == len(result["answers"])
    for row in [*result["by_category"].values(), result["overall"]]:
        assert set(row) == {"questions", "j", "f1"}
    assert result["tokens_per_question"]["answer"] > 0
    assert result["tokens_per_question"]["judge"] > 0
    for stage in ("write", "query", "answer", "judge"):
        assert set(result["latency_ms"][stage]) == {"p50", "p95"}
    sys.path.insert(0, str(BENCH.parent))
    import bench_locomo_qa as bench

    bench.print_table(result)
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if "J (LLM judge)" in line)
    assert [c.strip() for c in header.strip("┃").split("┃")] == [
        "category",
        "questions",
        "J (LLM judge)",
        "F1",
    ]
    rows = [[c.strip() for c in line.strip("│").split("│")] for line in lines if line[:1] == "│"]
    want = [*result["by_category"].items(), ("overall", result["overall"])]
    assert rows == [[name, str(r["questions"]), str(r["j"]), str(r["f1"])] for name, r in want]
    assert any(line.startswith("tokens per question") for line in lines)

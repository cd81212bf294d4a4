"""The LoCoMo QA harness against a real OpenAI-compatible server (llama-cpp-python serving
SmolLM2-135M), on two conversations: the plumbing check of issue 27 with a real model. The
tiny model's answers are near chance, so the score is not asserted; that every question is
answered from a /query context and judged, and that the result has its shape, are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.llama_server import LlamaServer

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
BENCH = ROOT / "benchmarks" / "bench_locomo_qa.py"
DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json"


def expected_questions(conversations: int, sessions: int, per_conversation: int) -> list:
    """The (sample, question) pairs the harness should ask, by its own selection rule."""
    sys.path.insert(0, str(BENCH.parent))
    import bench_locomo_qa as bench

    out = []
    for sample in json.loads(DATA.read_text())[:conversations]:
        written = {n for n, _d, _t in bench.sessions(sample["conversation"])[:sessions]}
        chosen = bench.questions(sample, written, per_conversation)
        out += [(sample["sample_id"], question) for _c, question, _g in chosen]
    return out


# About 2 minutes on a quiet 2-core machine; a slower CI machine takes several times that.
@pytest.mark.timeout(900)
@pytest.mark.skipif(not DATA.exists(), reason="../shared/data/locomo is not here")
def test_two_conversations_are_answered_from_query_context_and_judged_by_a_real_model(
    llama: LlamaServer,
) -> None:
    env = {**os.environ, "MEMWARDEN_OPENAI_BASE_URL": llama.url, "MEMWARDEN_QA_TIMEOUT_S": "400"}
    argv = [sys.executable, str(BENCH), "--model", "smollm2", "--limit-conversations", "2"]
    argv += ["--limit-sessions", "1", "--limit-questions", "2", "--json"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=840, cwd=ROOT)
    llama.process.check_alive()
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    answers = result["answers"]
    expected = expected_questions(2, sessions=1, per_conversation=2)
    assert [(a["sample"], a["question"]) for a in answers] == expected and expected
    for row in answers:
        assert row["context"] and len(row["hitIds"]) == len(row["context"])
        assert isinstance(row["answer"], str) and isinstance(row["correct"], bool)
    assert list(result["by_category"]) == ["multi-hop", "temporal", "open-domain", "single-hop"]
    assert result["overall"]["questions"] == len(answers)
    assert result["tokens_per_question"]["answer"] > 0

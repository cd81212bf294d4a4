"""Each framework's quick start (clients/python/examples/*_quickstart.py) runs unchanged
against a live memwarden, an LLM where it needs one played by the scripted model server."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
from agents import set_tracing_disabled

from tests.clients.adapters.conftest import Ctx, tool_call
from tests.support.scripted_model import Reply, ScriptedModelServer

EXAMPLES = Path(__file__).resolve().parents[3] / "clients" / "python" / "examples"
MODEL = "quickstart-model"


def run_example(
    name: str,
    ctx: Ctx,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    scripted: ScriptedModelServer | None = None,
) -> list[str]:
    monkeypatch.setenv("MEMWARDEN_URL", ctx.url)
    monkeypatch.setenv("MEMWARDEN_KEY", ctx.key)
    monkeypatch.delenv("MEMWARDEN_CONTEXT", raising=False)  # the client asks /whoami
    if scripted is not None:
        monkeypatch.setenv("OPENAI_BASE_URL", scripted.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "scripted")
        monkeypatch.setenv("AGENT_MODEL", MODEL)
    capsys.readouterr()
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    return capsys.readouterr().out.splitlines()


def test_the_langgraph_quickstart_runs_unchanged(
    ctx: Ctx, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_example("langgraph_quickstart.py", ctx, monkeypatch, capsys)
    assert out[0] == "recalled in another thread: Alice is vegetarian"
    assert out[1].startswith("tool remember: Remembered: ")
    assert out[2].startswith("tool recall: - ") and "Lisbon" in out[2]


def test_the_langchain_quickstart_runs_unchanged(
    ctx: Ctx, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_example("langchain_quickstart.py", ctx, monkeypatch, capsys)
    assert out[0].startswith("remember: Remembered: ")
    assert out[1].startswith("recall: - ") and "Acme" in out[1]
    assert any(line.startswith("document: ") and "Acme" in line for line in out)
    assert out[-2].startswith("history: 2 messages in session ")
    assert out[-1] == "held: [False, False]"


def test_the_llamaindex_quickstart_runs_unchanged(
    ctx: Ctx, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_example("llamaindex_quickstart.py", ctx, monkeypatch, capsys)
    assert (
        out[0].startswith("written to memwarden: ") and out[0] != "written to memwarden: 0 messages"
    )
    assert out[1].startswith("system message: ") and "bees" in out[1]


def test_the_openai_agents_quickstart_runs_unchanged(
    ctx: Ctx,
    scripted: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    set_tracing_disabled(True)
    scripted.script(
        MODEL,
        tool_call(MODEL, "remember", {"text": "I'm allergic to peanuts."}),
        Reply.text("Noted: no peanuts."),
        tool_call(MODEL, "recall", {"query": "allergy"}),
        Reply.text("Avoid peanuts."),
    )
    out = run_example("openai_agents_quickstart.py", ctx, monkeypatch, capsys, scripted)
    assert out[:2] == ["agent: Noted: no peanuts.", "agent: Avoid peanuts."]
    assert out[2].startswith("turns written: 4 in session ")
    assert out[3].startswith("memwarden recalls: ") and "peanuts" in out[3]


def test_the_pydantic_ai_quickstart_runs_unchanged(
    ctx: Ctx,
    scripted: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    scripted.script(
        MODEL,
        tool_call(MODEL, "remember", {"text": "I drive a green Volvo."}),
        Reply.text("Noted."),
        tool_call(MODEL, "recall", {"query": "car"}),
        Reply.text("A green Volvo."),
    )
    out = run_example("pydantic_ai_quickstart.py", ctx, monkeypatch, capsys, scripted)
    assert out == ["agent: Noted.", "agent: A green Volvo."]
    recalled = [m for r in scripted.requests_for(MODEL) for m in r.messages if m["role"] == "tool"]
    assert "Volvo" in str(recalled[-1]["content"])


@pytest.mark.parametrize(
    ("page", "example"),
    [
        ("langgraph.md", "langgraph_quickstart.py"),
        ("langchain.md", "langchain_quickstart.py"),
        ("openai-agents.md", "openai_agents_quickstart.py"),
        ("llamaindex.md", "llamaindex_quickstart.py"),
        ("pydantic-ai.md", "pydantic_ai_quickstart.py"),
    ],
)
def test_each_framework_page_shows_its_quickstart_as_the_test_runs_it(
    page: str, example: str
) -> None:
    docs = EXAMPLES.parents[2] / "docs" / "clients"
    code = (EXAMPLES / example).read_text()
    assert f"```python\n{code}```" in (docs / page).read_text()

"""`memwarden reprocess turn|document` against a live server on a scripted model."""

from __future__ import annotations

from typer.testing import CliRunner

from memwarden.cli.reprocess import reprocess_app
from tests.support.live import LiveServer
from tests.support.scripted_model import Reply

LISTS = ("attributes", "relations", "actions", "instructions", "uncertainties", "corrections")
runner = CliRunner()


def test_reprocess_turn_retries_once_then_exits_2(settings, scripted, make_context) -> None:
    ctx = make_context(subject="alice")
    modelled = settings.model_copy(
        update={
            "openai_base_url": scripted.base_url,
            "model_extraction": "openai:test-model",
            "model_max_retries": 0,
        }
    )
    found = {"name": "Marguerite", "entityType": "person", "memoryCategory": "identity"}
    scripted.script(
        "extraction",
        Reply.text("not JSON"),
        Reply.json({"entities": [found], **{k: [] for k in LISTS}}),
    )
    server = LiveServer(modelled).start()
    try:
        with server.client(ctx["key"]) as c:
            resp = c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "Marguerite keeps bees."})
        turn = resp.json()["turnId"]

        def cli(*args: str):
            return runner.invoke(
                reprocess_app,
                [*args, "--url", server.url, "--context", ctx["id"]],
                env={"MEMWARDEN_API_KEY": ctx["key"]},
            )

        first = cli("turn", turn)
        second = cli("turn", turn, "--json")
        missing = cli("document", turn)
    finally:
        server.stop()
    assert first.exit_code == 0, first.output
    assert "retried 1 windows, 0 still failing; 1 new facts" in first.output
    assert second.exit_code == 2 and "409 nothing_to_reprocess" in second.output
    assert missing.exit_code == 2 and "404" in missing.output

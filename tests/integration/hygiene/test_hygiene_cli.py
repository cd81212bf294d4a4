"""`memwarden hygiene` verbs against a live server with a worker."""

from __future__ import annotations

import json
from typing import Any

import httpx
from typer.testing import CliRunner

from memwarden.cli.hygiene import hygiene_app
from tests.integration.hygiene.conftest import SUPERSEDES_B, near_pair
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer

runner = CliRunner()


def printed_json(output: str) -> dict:
    """The indented JSON document the CLI printed (the in-process server logs lines too)."""
    start = 0 if output.startswith("{\n") else output.rindex("\n{\n") + 1
    return json.loads(output[start:])


def invoke(live: LiveServer, ctx: dict[str, Any], *args: str):
    extra = ["--context", ctx["id"], "--url", live.url, "--key", ctx["key"]]
    return runner.invoke(hygiene_app, [*args, *extra], env={"MEMWARDEN_API_KEY": ""})


def test_scan_queue_resolve_restore_and_challenge_from_the_command_line(
    live: LiveServer, alice: httpx.Client, ctx: dict[str, Any], scripted: ScriptedModelServer
) -> None:
    a, _b = near_pair(alice)
    scripted.respond_with("adjudication", SUPERSEDES_B)
    scanned = invoke(live, ctx, "scan", "--json")
    assert scanned.exit_code == 0, scanned.output
    run = printed_json(scanned.output)
    assert run["status"] == "done" and run["counts"]["queued"] == 1
    listed = invoke(live, ctx, "queue", "--json")
    assert listed.exit_code == 0, listed.output
    [item] = printed_json(listed.output)["items"]
    table = invoke(live, ctx, "queue")
    assert table.exit_code == 0 and "Hygiene queue" in table.output and "week" in table.output
    resolved = invoke(live, ctx, "resolve", item["id"], "--resolution", "keep_both")
    assert resolved.exit_code == 0 and "keep_both" in resolved.output
    twice = invoke(live, ctx, "resolve", item["id"], "--resolution", "keep_a")
    assert twice.exit_code != 0 and "already_decided" in twice.output
    nothing = invoke(live, ctx, "restore", a)
    assert nothing.exit_code != 0 and "nothing_to_restore" in nothing.output
    flagged = invoke(live, ctx, "challenge", a, "--reason", "we moved")
    assert flagged.exit_code == 0 and "queue item" in flagged.output

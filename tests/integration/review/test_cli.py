"""`memwarden review` verbs against a live server."""

from __future__ import annotations

import json

import httpx
from typer.testing import CliRunner

from memwarden.cli.review import review_app
from tests.integration.review.helpers import create

runner = CliRunner()
SCOPE_ARGS = ["--project", "p1", "--agent", "a1"]


def printed_json(output: str) -> dict:
    """The indented JSON document the CLI printed (the in-process server logs lines too)."""
    start = 0 if output.startswith("{\n") else output.rindex("\n{\n") + 1
    return json.loads(output[start:])


def invoke(live, key: str | None, *args: str):
    extra = ["--url", live.url] + (["--key", key] if key else [])
    return runner.invoke(review_app, [*args, *SCOPE_ARGS, *extra], env={"MEMWARDEN_API_KEY": ""})


def test_decide_state_read_and_eligibility_work_end_to_end(
    live, alice: httpx.Client, ctx: dict
) -> None:
    rid, rev = create(alice, "cli note")
    decided = invoke(
        live,
        ctx["key"],
        "decide",
        rid,
        "-r",
        str(rev),
        "--disposition",
        "rejected",
        "--evidence",
        "case://cli/1",
        "--idempotency-key",
        "cli-1",
        "--json",
    )
    assert decided.exit_code == 0, decided.output
    receipt = printed_json(decided.output)["receipt"]
    assert receipt["revision"] == rev + 1 and receipt["disposition"] == "rejected"
    shown = invoke(live, ctx["key"], "state", rid)
    assert shown.exit_code == 0 and "rejected" in shown.output
    again = invoke(live, ctx["key"], "read", rid, "-r", str(rev + 1))
    assert again.exit_code == 0 and receipt["receipt_id"] in again.output
    diag = invoke(live, ctx["key"], "eligibility", rid, "--json")
    assert printed_json(diag.output)["blocking"]["reason"] == "rejected"


def test_errors_are_one_line_with_the_code_and_no_traceback(
    live, alice: httpx.Client, ctx: dict
) -> None:
    rid, rev = create(alice, "x")
    stale = invoke(
        live,
        ctx["key"],
        "decide",
        rid,
        "-r",
        str(rev + 3),
        "--disposition",
        "approved",
        "--evidence",
        "e",
    )
    assert stale.exit_code == 2
    assert "409 stale_revision" in stale.output and "Traceback" not in stale.output
    missing = invoke(live, None, "state", rid)
    assert missing.exit_code == 2 and "MEMWARDEN_API_KEY" in missing.output
    result = runner.invoke(review_app, ["state", rid, "--url", "http://127.0.0.1:9", "--key", "k"])
    assert result.exit_code == 3 and "cannot reach" in result.output

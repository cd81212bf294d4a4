"""`memwarden passes run STAGE` against a live server whose worker runs the pass."""

from __future__ import annotations

from typer.testing import CliRunner

from memwarden.cli.passes import passes_app

runner = CliRunner()


def test_passes_run_follows_the_run_to_its_end_and_refuses_an_unknown_pass(
    live, make_context
) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as c:
        text = "My name is Alice. I work at Acme. I like hiking on weekends."
        assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": text}).status_code == 201

    def cli(*args: str):
        return runner.invoke(
            passes_app,
            ["run", *args, "--url", live.url, "--context", ctx["id"]],
            env={"MEMWARDEN_API_KEY": ctx["key"]},
        )

    done = cli("rollup")
    queued = cli("gist", "--no-wait")
    unknown = cli("summarise")
    assert done.exit_code == 0, done.output
    assert "rollup done:" in done.output and "written" in done.output
    assert queued.exit_code == 0 and len(queued.output.strip().splitlines()[-1]) == 36
    assert unknown.exit_code == 2 and "404 unknown_pass" in unknown.output

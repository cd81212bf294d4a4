"""Everything a user can call or set is documented in README.md or docs/*.md.

The items come from the code itself (the OpenAPI document, the typer app, the MCP
server's tool list, `Settings`, `ContextConfig`), so a new route, command, option,
tool, variable or field fails here until it is written down. Each check is also shown
to fail on a text that leaves one item out.
"""

from __future__ import annotations

import asyncio
import re
from functools import cache

import pytest

from memwarden.config import INACTIVE_CONFIG_FIELDS, ContextConfig, ModelChoice
from memwarden.settings import INACTIVE_SETTINGS, OTHER_VARIABLES, Settings
from tests.unit.docs import doccheck
from tests.unit.docs.doccheck import CliCommand


@cache
def text() -> str:
    return doccheck.docs_text()


@cache
def routes() -> list[str]:
    from memwarden.api.app import create_app

    return doccheck.openapi_routes(create_app().openapi())  # no server, no database


@cache
def commands() -> list[CliCommand]:
    from typer.main import get_command

    from memwarden.cli.main import app

    return doccheck.cli_commands(get_command(app))


@cache
def tools() -> list[str]:
    from memwarden.mcp.server import build_server

    server = build_server(lambda: None, None)  # type: ignore[arg-type,return-value]
    return [tool.name for tool in asyncio.run(server.list_tools())]


def env_names() -> list[str]:
    names = [f"MEMWARDEN_{name.upper()}" for name in Settings.model_fields]
    names += [env for command in commands() for env in command.envvars]
    return list(dict.fromkeys([*names, *OTHER_VARIABLES]))


def test_every_variable_the_cli_reads_is_known_to_the_settings_module() -> None:
    """`settings.OTHER_VARIABLES` is what doctor treats as read; the CLI must not read more."""
    cli_vars = {env for command in commands() for env in command.envvars}
    assert cli_vars <= set(OTHER_VARIABLES)


def config_paths() -> list[str]:
    return doccheck.config_paths(ContextConfig, leaf_types=(ModelChoice,))


def test_every_http_route_is_documented() -> None:
    assert len(routes()) > 30  # the app really was enumerated
    missing = doccheck.missing_routes(routes(), text())
    assert not missing, f"routes in /openapi.json missing from README.md and docs/*.md: {missing}"


def test_every_cli_command_and_option_is_documented() -> None:
    assert any(c.path == "memwarden judgements dry-run" for c in commands())
    missing = doccheck.missing_cli(commands(), text())
    assert not missing, f"CLI commands or options missing from README.md and docs/*.md: {missing}"


def test_every_mcp_tool_is_documented() -> None:
    assert "recall" in tools()
    missing = doccheck.missing_mcp_tools(tools(), text())
    assert not missing, f"MCP tools without a row in a docs table: {missing}"


def test_every_environment_variable_is_documented() -> None:
    missing = doccheck.missing_env(env_names(), text())
    assert not missing, f"environment variables missing from README.md and docs/*.md: {missing}"


def test_every_context_configuration_field_is_documented() -> None:
    assert "judge.retention_days" in config_paths()
    missing = doccheck.missing_config(config_paths(), text())
    assert not missing, f"Context configuration fields missing from the docs: {missing}"


def _rows(doc: str) -> dict[str, str]:
    """Table rows of a doc, by the backticked name in their first cell."""
    out: dict[str, str] = {}
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells and cells[0].startswith("`"):
            out[cells[0].strip("`")] = line
    return out


def test_every_inactive_setting_is_marked_not_yet_active_in_its_table() -> None:
    config_rows = _rows((doccheck.ROOT / "docs" / "configuration.md").read_text())
    readme_rows = _rows((doccheck.ROOT / "README.md").read_text())
    unmarked = [p for p in INACTIVE_CONFIG_FIELDS if "not yet active" not in config_rows.get(p, "")]
    unmarked += [
        f"MEMWARDEN_{name.upper()}"
        for name in INACTIVE_SETTINGS
        if "not yet active" not in readme_rows.get(f"MEMWARDEN_{name.upper()}", "")
    ]
    assert not unmarked, (
        f"inactive settings whose docs row does not say 'not yet active': {unmarked}"
    )


# --- each check can fail: a text that documents everything but one item -----------------


def test_the_route_check_names_a_route_the_text_leaves_out() -> None:
    spec = {"paths": {"/api/v1/{context_id}/facts": {"post": {}}, "/health": {"get": {}}}}
    found = doccheck.openapi_routes(spec)
    assert doccheck.missing_routes(found, "`POST /api/v1/{c}/facts` and `GET /health`") == []
    assert doccheck.missing_routes(found, "`POST /api/v1/{c}/facts`, `POST /health`") == [
        "GET /health"
    ]
    assert (
        doccheck.missing_routes(["GET /api/v1/{context_id}/query"], "`POST|GET /api/v1/{id}/query`")
        == []
    )
    assert doccheck.missing_routes(["GET /api/v1/{x}/query"], "GET /{context}/query") == [
        "GET /api/v1/{x}/query"
    ]


def test_the_cli_check_matches_exact_command_paths_and_options() -> None:
    listing = CliCommand("memwarden judgements list", ("--verdict", "--limit"), ())
    dry_run = CliCommand("memwarden judgements dry-run", ("--compare-current",), ())
    full = "`memwarden judgements list|dry-run --verdict --limit --compare-current`"
    assert doccheck.missing_cli([listing, dry_run], full) == []
    # a common word is not a command path: "list" alone does not name `judgements list`
    assert doccheck.missing_cli([listing], "judgements can list --verdict --limit") == [
        "memwarden judgements list"
    ]
    # an option must be an exact token, in a paragraph or row that names its command
    assert doccheck.missing_cli([dry_run], "`memwarden judgements dry-run --compare`") == [
        "memwarden judgements dry-run --compare-current"
    ]
    apart = "`memwarden judgements dry-run`\n\nthe option `--compare-current`"
    assert doccheck.missing_cli([dry_run], apart) == [
        "memwarden judgements dry-run --compare-current"
    ]
    rows = (
        "| `memwarden judgements list` | `--verdict` |\n"
        "| `memwarden judgements dry-run` | `--limit` |"
    )
    assert doccheck.missing_cli([listing], rows) == ["memwarden judgements list --limit"]


def test_the_mcp_check_wants_a_table_row_not_a_word() -> None:
    assert (
        doccheck.missing_mcp_tools(["recall", "state"], "| `recall` | x |\n| `state` | y |") == []
    )
    assert doccheck.missing_mcp_tools(["recall", "state"], "| `recall` | the state |") == ["state"]


def test_the_environment_check_matches_whole_names() -> None:
    names = ["MEMWARDEN_LOG", "MEMWARDEN_LOG_LEVEL"]
    assert doccheck.missing_env(names, "`MEMWARDEN_LOG_LEVEL`") == ["MEMWARDEN_LOG"]
    assert doccheck.missing_env(names, "`MEMWARDEN_LOG`, `MEMWARDEN_LOG_LEVEL`") == []


def test_the_configuration_check_walks_every_dotted_path() -> None:
    paths = config_paths()
    assert {"judge.on_warn", "models.chat", "token_budget.period"} <= set(paths)
    doc = " ".join(f"`{p}`" for p in paths)
    assert doccheck.missing_config(paths, doc) == []
    assert doccheck.missing_config(paths, doc.replace("`judge.on_warn`", "")) == ["judge.on_warn"]


@pytest.mark.parametrize("check", ["routes", "cli", "tools", "env", "config"])
def test_each_check_fails_on_the_real_docs_minus_one_item(check: str) -> None:
    """Remove every mention of one real item from the real docs: its check must name it."""
    real = text()
    if check == "routes":
        item = "DELETE /api/v1/contexts/{context_id}/keys/{key_id}"
        cut = re.sub(r"DELETE /api/v1/contexts/\{[^}]*\}/keys/\{[^}]*\}", "", real)
        assert doccheck.missing_routes(routes(), cut) == [item]
    elif check == "cli":
        cut = real.replace("--compare-current", "")
        assert doccheck.missing_cli(commands(), cut) == [
            "memwarden judgements dry-run --compare-current"
        ]
    elif check == "tools":
        cut = real.replace("| `judgements_dry_run` |", "|")
        assert doccheck.missing_mcp_tools(tools(), cut) == ["judgements_dry_run"]
    elif check == "env":
        cut = real.replace("MEMWARDEN_POOL_MAX_SIZE", "")
        assert doccheck.missing_env(env_names(), cut) == ["MEMWARDEN_POOL_MAX_SIZE"]
    else:
        cut = real.replace("`token_budget.period`", "")
        assert doccheck.missing_config(config_paths(), cut) == ["token_budget.period"]

"""What the docs must name, and pure checks of a docs text against it.

Each `missing_*` function takes the items the code has (routes from `/openapi.json`,
command paths and options from the typer app, MCP tool names, environment variables,
Context configuration paths) and the text of README.md plus docs/*.md, and returns
exactly the items the text does not document, so a failure names what to write.
Matching is by exact token, never by substring, so a common word cannot stand in for
a command or a tool.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[3]
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
_ROUTE = re.compile(
    r"\b((?:GET|POST|PUT|PATCH|DELETE)(?:\|(?:GET|POST|PUT|PATCH|DELETE))*) (/[^\s`|)?#]*)"
)
_PARAM = re.compile(r"\{[^}/]*\}")
_COMMAND = re.compile(r"\bmemwarden((?: [a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)*)+)")


def docs_text(root: Path = ROOT) -> str:
    """README.md and every docs/*.md, the corpus every check reads."""
    files = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    return "\n\n".join(f.read_text() for f in files)


def units(text: str) -> list[str]:
    """Paragraphs, with each table row a unit of its own: what "in the same place" means."""
    out: list[str] = []
    block: list[str] = []
    for line in text.splitlines():
        if line.lstrip().startswith("|"):
            out.append(line)
        elif line.strip():
            block.append(line)
            continue
        if block:
            out.append("\n".join(block))
            block = []
    if block:
        out.append("\n".join(block))
    return out


# --- routes -------------------------------------------------------------------------


def openapi_routes(spec: Mapping[str, Any]) -> list[str]:
    """`METHOD /path` for every operation in an OpenAPI document."""
    return [
        f"{method.upper()} {path}"
        for path, item in spec["paths"].items()
        for method in item
        if method.upper() in METHODS
    ]


def _route_key(method: str, path: str) -> tuple[str, str]:
    return method, _PARAM.sub("{}", path.rstrip(".,;:"))


def documented_routes(text: str) -> set[tuple[str, str]]:
    """`GET /a/{x}` and `GET|POST /a/{y}` forms; path parameters match whatever their name."""
    found: set[tuple[str, str]] = set()
    for methods, path in _ROUTE.findall(text):
        for method in methods.split("|"):
            found.add(_route_key(method, path))
    return found


def missing_routes(routes: Iterable[str], text: str) -> list[str]:
    documented = documented_routes(text)
    return [r for r in routes if _route_key(*r.split(" ", 1)) not in documented]


# --- CLI ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CliCommand:
    path: str  # "memwarden judgements list"
    options: tuple[str, ...]  # ("--verdict", "--limit")
    envvars: tuple[str, ...]


def cli_commands(group: Any, prefix: str = "memwarden") -> list[CliCommand]:
    """Every command path (groups included) and the long options each one takes.

    `group` is the click command typer builds (`typer.main.get_command(app)`); typer
    vendors its own click, so this reads it by attribute rather than by class.
    """
    options: list[str] = []
    envvars: list[str] = []
    for param in group.params:
        if param.param_type_name == "option":
            options.extend(o for o in param.opts if o.startswith("--") and o != "--help")
            env = param.envvar
            envvars.extend([env] if isinstance(env, str) else list(env or ()))
    out = [CliCommand(prefix, tuple(options), tuple(envvars))]
    for name, sub in (getattr(group, "commands", None) or {}).items():
        if not sub.hidden:
            out.extend(cli_commands(sub, f"{prefix} {name}"))
    return out


def documented_command_paths(unit: str) -> set[str]:
    """`memwarden judgements list|show --limit` names `memwarden judgements list` and `... show`."""
    paths: set[str] = set()
    for match in _COMMAND.findall(unit):
        words = [w.split("|") for w in match.split()]
        for n in range(1, len(words) + 1):
            for combo in itertools.product(*words[:n]):
                paths.add("memwarden " + " ".join(combo))
    return paths


def _has_token(token: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text) is not None


def missing_cli(commands: Iterable[CliCommand], text: str) -> list[str]:
    """A command path must be named exactly; each option in a paragraph or row naming it."""
    blocks = [(unit, documented_command_paths(unit)) for unit in units(text)]
    everywhere = set().union(*(paths for _, paths in blocks)) if blocks else set()
    missing: list[str] = []
    for command in commands:
        if command.path == "memwarden":
            named_with = [unit for unit, _ in blocks if _has_token("memwarden", unit)]
        elif command.path not in everywhere:
            missing.append(command.path)
            continue
        else:
            named_with = [unit for unit, paths in blocks if command.path in paths]
        for option in command.options:
            if not any(_has_token(option, unit) for unit in named_with):
                missing.append(f"{command.path} {option}")
    return missing


# --- MCP, environment, Context configuration ---------------------------------------------


def missing_mcp_tools(tools: Iterable[str], text: str) -> list[str]:
    """A tool is documented by a table row whose first cell is its name in backticks."""
    rows = {m.group(1) for m in re.finditer(r"^\|\s*`([^`]+)`\s*\|", text, re.MULTILINE)}
    return [t for t in tools if t not in rows]


def missing_env(names: Iterable[str], text: str) -> list[str]:
    return [n for n in names if re.search(rf"\b{re.escape(n)}\b", text) is None]


def config_paths(
    model: type[BaseModel], prefix: str = "", *, leaf_types: tuple[type, ...] = ()
) -> list[str]:
    """Every dotted field path of a pydantic model; `leaf_types` are single values."""
    out: list[str] = []
    for name, info in model.model_fields.items():
        annotation = info.annotation
        inner = getattr(annotation, "__args__", (annotation,))
        nested = [a for a in inner if isinstance(a, type) and issubclass(a, BaseModel)]
        path = f"{prefix}{name}"
        if nested and nested[0] not in leaf_types:
            out.extend(config_paths(nested[0], f"{path}.", leaf_types=leaf_types))
        else:
            out.append(path)
    return out


def missing_config(paths: Iterable[str], text: str) -> list[str]:
    return [p for p in paths if f"`{p}`" not in text]

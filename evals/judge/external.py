"""Shared parts of the `build_external_*.py` scripts: fetching the pinned source
distributions, reading python-stdnum's doctests, splitting by source, writing rows.

The evaluation rows come from other projects' own test suites. Source distributions are
fetched with pip at pinned versions (the test files ship inside them), so a rebuild reads
exactly the files the committed rows were taken from. Rows copied by hand from suites that
ship no source distribution with their tests live in `external_sources/transcribed.jsonl`,
each with its repository, path and commit.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TRANSCRIBED = HERE / "external_sources" / "transcribed.jsonl"

# Project -> (pinned requirement, GitHub repository its files are cited under).
SDISTS: dict[str, tuple[str, str]] = {
    "stdnum": ("python-stdnum==2.2", "arthurdejong/python-stdnum"),
    "schwifty": ("schwifty==2026.10.1", "mdomke/schwifty"),
    "email_validator": ("email-validator==2.4.0", "JoshData/python-email-validator"),
    "validators": ("validators==0.35.0", "python-validators/validators"),
}


@dataclass(frozen=True, slots=True)
class Value:
    """One number a suite states valid or invalid, and where it says so."""

    module: str  # e.g. "nl.bsn"
    value: str
    valid: bool
    path: str  # path inside the repository


def fetch_sdists(into: Path | None) -> dict[str, Path]:
    """Unpacked source trees per project; downloaded with pip when `into` lacks them."""
    root = into or Path(tempfile.mkdtemp(prefix="memwarden-external-"))
    trees: dict[str, Path] = {}
    for name, (requirement, _) in SDISTS.items():
        dist, version = requirement.split("==")
        stem = f"{dist.replace('-', '_')}-{version}"
        tree = next((p for p in root.glob("*") if p.is_dir() and p.name.lower() == stem), None)
        if tree is None:
            archive = next(root.glob(f"{stem}.tar.gz"), None) or next(
                root.glob(f"{dist}-{version}.tar.gz"), None
            )
            if archive is None:
                subprocess.run(
                    [sys.executable, "-m", "pip", "download", requirement, "--no-binary",
                     ":all:", "--no-deps", "-d", str(root)],
                    check=True,
                )  # fmt: skip
                archive = next(root.glob(f"{stem}.tar.gz"))
            with tarfile.open(archive) as tar:
                tar.extractall(root, filter="data")
            tree = next(p for p in root.glob("*") if p.is_dir() and p.name.lower() == stem)
        trees[name] = tree
    return trees


_CALL = re.compile(
    r"^>>> (?:(?P<alias>\w+)\.)?(?P<fn>validate|is_valid)\('(?P<value>[^'\\]*)'\)\s*$"
)
_IMPORT = re.compile(r"^>>> from stdnum(?:\.(?P<pkg>\w+))? import (?P<names>[\w, ]+)$")
_BLOCK_END = re.compile(
    r"^>>> \[ ?x for x in numbers\.splitlines\(\) if x and "
    r"(?P<neg>not )?(?P<alias>\w+)\.is_valid\(x\) ?\]"
)


def doctest_values(text: str, path: str, own_module: str | None = None) -> Iterator[Value]:
    """Values a stdnum doctest states valid or invalid (checksum errors only for invalid).

    `own_module` names the module whose docstring this is, for its unqualified calls.
    """
    aliases: dict[str, str] = {}
    lines = text.splitlines()
    block: list[str] | None = None
    for i, line in enumerate(lines):
        if (m := _IMPORT.match(line)) is not None:
            for name in (n.strip() for n in m.group("names").split(",")):
                aliases[name] = f"{m.group('pkg')}.{name}" if m.group("pkg") else name
            continue
        if line.startswith(">>> numbers = '''"):
            block = []
            continue
        if block is not None:
            if line.startswith("... '''") or line.startswith("...'''"):
                end = lines[i + 1] if i + 1 < len(lines) else ""
                if (b := _BLOCK_END.match(end)) is not None and b.group("alias") in aliases:
                    module = aliases[b.group("alias")]
                    for value in block:
                        yield Value(module, value, b.group("neg") is not None, path)
                block = None
            elif line.startswith("... "):
                value = line[4:].strip()
                if value and not value.startswith("#"):
                    block.append(value)
            continue
        if (m := _CALL.match(line)) is None:
            continue
        alias = m.group("alias")
        module = aliases.get(alias) if alias else own_module
        if module is None:
            continue
        following = lines[i + 1 : i + 6]
        if not following:
            continue
        if m.group("fn") == "is_valid":
            if following[0].strip() == "True":
                yield Value(module, m.group("value"), True, path)
            continue
        if following[0].startswith("Traceback"):
            error = next((f for f in following[1:] if not f.startswith((" ", "."))), "")
            if error.startswith("InvalidChecksum"):
                yield Value(module, m.group("value"), False, path)
        elif following[0].strip() and not following[0].startswith(">>>"):
            yield Value(module, m.group("value"), True, path)


def stdnum_values(tree: Path) -> list[Value]:
    """Every stated value in stdnum's tests/*.doctest and in its modules' docstrings."""
    values: list[Value] = []
    for doctest in sorted((tree / "tests").glob("*.doctest")):
        values.extend(doctest_values(doctest.read_text(encoding="utf-8"), f"tests/{doctest.name}"))
    package = tree / "stdnum"
    for source in sorted(package.rglob("*.py")):
        relative = source.relative_to(tree).as_posix()
        module = ".".join(source.relative_to(package).with_suffix("").parts)
        if module.endswith("__init__"):
            continue
        values.extend(doctest_values(source.read_text(encoding="utf-8"), relative, module))
    return values


def parametrized(path: Path) -> dict[str, list[str]]:
    """Test function -> the first argument of each of its `pytest.mark.parametrize` cases.

    Case lists may be literals or sums of module-level list names (`visa_cards + ...`).
    """
    module = ast.parse(path.read_text(encoding="utf-8"))
    names: dict[str, list[str]] = {}
    for node in module.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    value = ast.literal_eval(node.value)
                except ValueError:
                    continue
                if isinstance(value, list):
                    names[target.id] = [str(v) for v in value]

    def cases(node: ast.expr) -> list[str]:
        if isinstance(node, ast.BinOp):
            return cases(node.left) + cases(node.right)
        if isinstance(node, ast.Name):
            return names.get(node.id, [])
        if isinstance(node, ast.List):
            out: list[str] = []
            for element in node.elts:
                first = element.elts[0] if isinstance(element, ast.Tuple) else element
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    out.append(first.value)
            return out
        return []

    found: dict[str, list[str]] = {}
    for node in ast.walk(module):
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call) and len(decorator.args) == 2:
                found.setdefault(node.name, []).extend(cases(decorator.args[1]))
    return found


def split_of(source: str) -> str:
    """Train or test by the source's SHA-256, so that no source lands in both."""
    return "train" if hashlib.sha256(source.encode()).digest()[0] % 2 == 0 else "test"


def capped(values: Iterable[Value], per_key: int) -> list[Value]:
    """At most `per_key` distinct values per (module, valid, path), in suite order."""
    seen: dict[tuple[str, bool, str], list[str]] = {}
    kept: list[Value] = []
    for v in values:
        bucket = seen.setdefault((v.module, v.valid, v.path), [])
        if v.value in bucket or len(bucket) >= per_key:
            continue
        bucket.append(v.value)
        kept.append(v)
    return kept


def transcribed(cls: str) -> list[dict[str, Any]]:
    with TRANSCRIBED.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [r for r in rows if r["class"] == cls]


def write_rows(rows: list[dict[str, Any]], path: Path) -> None:
    """Rows in the evals/judge format, exact duplicates dropped, split by source."""
    seen: set[tuple[str, str]] = set()
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            key = (row["text"], row["label"])
            if key in seen:
                continue
            seen.add(key)
            out = {
                "text": row["text"],
                "label": row["label"],
                "class": row["class"],
                "split": split_of(row["source"]),
                "source": row["source"],
                "kind": row["kind"],
            }
            for extra in ("detail", "commit"):
                if row.get(extra):
                    out[extra] = row[extra]
            handle.write(json.dumps(out, ensure_ascii=False) + "\n")
    print(f"wrote {len(seen)} rows to {path.relative_to(HERE.parent.parent)}")

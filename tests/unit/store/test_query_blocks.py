"""Every named SQL block is used by store/, and every block store/ names exists.

Block names are read from store/*.py by where they stand (the argument of `q(...)`, the
name argument of a store helper, a `(name, params)` statement, a chosen `name = a if c
else b`, an UPPER_CASE tuple of names), so an unused block or a misspelt name fails here
instead of at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memwarden.store import queries

STORE = Path(queries.__file__).parent
ROW_HELPERS = {"fetch_one", "fetch_all"}  # store/rows.py: (conn, name, row type, params)


def _str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _call_name(node: ast.Call) -> str:
    func = node.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )


def named_in_source(source: str) -> tuple[set[str], list[str]]:
    """(block names the code names, q() arguments that cannot be read statically)."""
    names: set[str] = set()
    opaque: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = _call_name(node)
            if func == "q" and node.args:
                arg = node.args[0]
                if (s := _str(arg)) is not None:
                    names.add(s)
                elif not isinstance(arg, ast.Name | ast.Subscript):
                    opaque.append(ast.unparse(arg))
            elif (
                (func.startswith("_") or func in ROW_HELPERS)
                and len(node.args) > 1
                and (s := _str(node.args[1])) is not None
            ):
                names.add(s)
        elif isinstance(node, ast.Tuple) and len(node.elts) == 2 and (s := _str(node.elts[0])):
            if not isinstance(node.elts[1], ast.Constant):
                names.add(s)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if not isinstance(target, ast.Name):
                continue
            if isinstance(value, ast.IfExp) and target.id == "name":
                names.update(s for s in (_str(value.body), _str(value.orelse)) if s)
            elif isinstance(value, ast.Tuple) and target.id.lstrip("_").isupper():
                names.update(s for s in map(_str, value.elts) if s)
    return names, opaque


def _store_names() -> tuple[set[str], list[str]]:
    names: set[str] = set()
    opaque: list[str] = []
    for path in sorted(STORE.glob("*.py")):
        found, bad = named_in_source(path.read_text(encoding="utf-8"))
        names |= found
        opaque += [f"{path.name}: q({b})" for b in bad]
    return names, opaque


def test_every_named_block_is_used_by_the_store() -> None:
    used, _ = _store_names()
    unused = sorted(set(queries.all_queries()) - used)
    assert not unused, f"named SQL blocks no store module runs: {unused}"


def test_every_block_the_store_names_exists() -> None:
    used, _ = _store_names()
    missing = sorted(used - set(queries.all_queries()))
    assert not missing, f"store/ names SQL blocks that no queries/*.sql defines: {missing}"


def test_block_names_are_written_out_not_computed() -> None:
    _, opaque = _store_names()
    assert not opaque, f"block names built at run time cannot be checked: {opaque}"


@pytest.mark.parametrize(
    ("source", "expected", "opaque"),
    [
        ('q("a_block")', {"a_block"}, []),
        ('await _one(conn, "b_block", {})', {"b_block"}, []),
        ('await fetch_one(conn, "g_block", Row, {})', {"g_block"}, []),
        ('def f():\n    return "c_block", params', {"c_block"}, []),
        ('name = "d_one" if x else "d_two"', {"d_one", "d_two"}, []),
        ('_NAMES = ("e_one", "e_two")', {"e_one", "e_two"}, []),
        ('q(f"{prefix}_turns")', set(), ["f'{prefix}_turns'"]),
        ('q(prefix + "_turns")', set(), ["prefix + '_turns'"]),
    ],
)
def test_the_reader_finds_names_where_the_store_writes_them(
    source: str, expected: set[str], opaque: list[str]
) -> None:
    assert named_in_source(source) == (expected, opaque)

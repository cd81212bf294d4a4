"""Store modules that hand rows to services return typed rows (dataclasses), never bare dicts.

Issue 9: a service reading `row["subjcet"]` fails at run time; `row.subjcet` fails in mypy.
The check reads each public function's return annotation in the converted modules.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import typing

import pytest

CONVERTED = ["retention", "chat", "search", "recall", "memory"]
STILL_DICT: dict[str, set[str]] = {}  # module: functions not converted yet (shrink only)


def _mentions_dict(tp: object) -> bool:
    """A bare `dict` or a `dict[str, ...]` (a row by column name); a dict keyed by id is
    an index of typed rows, and fine."""
    if tp is dict:
        return True
    args = typing.get_args(tp)
    if typing.get_origin(tp) is dict and (not args or args[0] is str):
        return True
    return any(_mentions_dict(arg) for arg in args)


def _public_functions(module_name: str) -> list[tuple[str, object]]:
    module = importlib.import_module(f"memwarden.store.{module_name}")
    return [
        (name, fn)
        for name, fn in inspect.getmembers(module, inspect.iscoroutinefunction)
        if not name.startswith("_") and fn.__module__ == module.__name__
    ]


@pytest.mark.parametrize("module_name", CONVERTED)
def test_store_functions_return_typed_rows_not_dicts(module_name: str) -> None:
    bad = []
    for name, fn in _public_functions(module_name):
        hints = typing.get_type_hints(fn)
        if _mentions_dict(hints.get("return")) and name not in STILL_DICT.get(module_name, ()):
            bad.append(name)
    assert not bad, f"store.{module_name} returns dict rows from: {bad}"


@pytest.mark.parametrize("module_name", CONVERTED)
def test_row_types_are_frozen_dataclasses(module_name: str) -> None:
    module = importlib.import_module(f"memwarden.store.{module_name}")
    rows = [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if cls.__module__ == module.__name__ and dataclasses.is_dataclass(cls)
    ]
    assert rows, f"store.{module_name} defines no row types"
    assert all(cls.__dataclass_params__.frozen for cls in rows)  # type: ignore[attr-defined]

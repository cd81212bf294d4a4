"""Every answer model names its fields' real shapes: no `Any`, no loose lists or dicts
(a use case's answer is what the OpenAPI document and the generated clients promise)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing
from typing import Any

import pytest
from pydantic import BaseModel

import memwarden
from memwarden.answers import Answer
from memwarden.erasure.responses import COUNT_KINDS, ErasureCounts
from memwarden.hygiene.responses import HygieneCounts
from memwarden.hygiene.scan import COUNT_KEYS
from memwarden.passes.contract import COUNTS
from memwarden.passes.responses import PassCounts

# Fields whose values are free-form by design; each says why.
FREE_FORM: dict[str, str] = {}


def _answer_modules() -> list[str]:
    names = ["memwarden.answers", "memwarden.health"]
    for info in pkgutil.iter_modules(memwarden.__path__):
        if info.ispkg and importlib.util.find_spec(f"memwarden.{info.name}.responses"):
            names.append(f"memwarden.{info.name}.responses")
    return names


def _answers() -> list[type[BaseModel]]:
    found: dict[str, type[BaseModel]] = {}
    for name in _answer_modules():
        module = importlib.import_module(name)
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Answer) and obj.__module__ == name:
                found[f"{name}.{obj.__name__}"] = obj
    return list(found.values())


def _loose(annotation: Any) -> bool:
    """Any anywhere in the annotation (a bare Any, list[Any], dict[str, Any] ...)."""
    if annotation is Any:
        return True
    return any(_loose(arg) for arg in typing.get_args(annotation))


def test_the_answer_modules_are_found() -> None:
    names = {m.__name__ for m in _answers()}
    assert {"CommandResult", "FactsResponse", "HealthReport", "Erasure"} <= names


@pytest.mark.parametrize("model", _answers(), ids=lambda m: f"{m.__module__}.{m.__name__}")
def test_no_answer_field_is_typed_any(model: type[BaseModel]) -> None:
    loose = [
        name
        for name, field in model.model_fields.items()
        if _loose(field.annotation) and f"{model.__name__}.{name}" not in FREE_FORM
    ]
    assert loose == []


@pytest.mark.parametrize(
    ("model", "keys"),
    [(ErasureCounts, COUNT_KINDS), (HygieneCounts, COUNT_KEYS), (PassCounts, COUNTS)],
)
def test_each_counts_model_has_exactly_the_keys_its_use_case_counts(
    model: type[BaseModel], keys: tuple[str, ...]
) -> None:
    assert list(model.model_fields) == list(keys)

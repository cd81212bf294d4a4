"""Constraints for tool parameters taken from the request models, so a schema cannot drift.

A tool writes `Annotated[int, rules(QueryBody, "limit")]`: the type is spelled out (type
checkers and readers see it), the bounds and lengths come from the model the HTTP route
validates with, and the model validates again when the tool builds its request.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import annotated_types
from pydantic import BaseModel


@dataclass(frozen=True)
class Rules(annotated_types.GroupedMetadata):
    items: tuple[Any, ...]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.items)


def rules(model: type[BaseModel], name: str) -> Rules:
    """The field's constraints (min/max, lengths), unpacked by pydantic inside Annotated."""
    return Rules(tuple(model.model_fields[name].metadata))


def default(model: type[BaseModel], name: str) -> Any:
    return model.model_fields[name].default

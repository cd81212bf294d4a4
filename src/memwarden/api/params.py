"""Query parameters whose bounds come from a request model, so GET and POST forms agree."""

from __future__ import annotations

import dataclasses
from typing import Any

from annotated_types import BaseMetadata
from fastapi import Query
from pydantic import BaseModel


def query_param(model: type[BaseModel], name: str, **overrides: Any) -> Any:
    """`Query(...)` with the model field's default, alias and constraints (ge, le, lengths).

    The constraints are the field's annotated-types metadata (`Ge(1)`, `MaxLen(4000)`), turned
    into the keyword arguments `Query` takes; `overrides` wins (e.g. a GET-only default).
    """
    field = model.model_fields[name]
    kwargs: dict[str, Any] = {}
    for item in field.metadata:
        # bounds only: a validator (the field's type, e.g. StorableText) is not a Query keyword
        if isinstance(item, BaseMetadata) and dataclasses.is_dataclass(item):
            kwargs.update(
                {k: v for k, v in dataclasses.asdict(item).items() if v is not None}  # type: ignore[arg-type]
            )
    if field.alias:
        kwargs["alias"] = field.alias
    kwargs.update(overrides)
    default = kwargs.pop("default", field.default)
    return Query(default, **kwargs)

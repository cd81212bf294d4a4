"""Text PostgreSQL can store, checked once for every interface (issue 15, item 10).

PostgreSQL `text` holds neither NUL nor unpaired surrogates (not valid UTF-8): such input is a
400 naming the field, never a database error. Names and subjects, which people read in lists
and logs, also refuse control characters and the invisible format characters (bidi overrides,
zero-width) that make one name look like another. Request models use the annotated types;
use cases called without one (the CLI, jobs) call `require_storable` / `require_plain`.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

from memwarden.errors import InvalidInput

BINARY_CONTENT = "binary_content"  # the error code (and pydantic error type) of unstorable text
# Validation error types the interfaces render as `binary_content`: ours, and pydantic's own
# refusal of a lone surrogate where a field is a plain `str`.
UNSTORABLE_ERRORS = frozenset({BINARY_CONTENT, "string_unicode"})


def storable_problem(value: str) -> str | None:
    """Why PostgreSQL cannot store `value`, or None when it can."""
    if "\x00" in value:
        return "must not contain NUL characters"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "must be valid Unicode (no unpaired surrogates)"
    return None


def plain_problem(value: str) -> str | None:
    """Why `value` is no good as a name or subject: unstorable, control or format characters."""
    problem = storable_problem(value)
    if problem:
        return problem
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in value):
        return "must not contain control or invisible format characters"
    return None


def _storable(value: str) -> str:
    problem = storable_problem(value)
    if problem:  # the interfaces render this type as code `binary_content`, like /facts did
        raise PydanticCustomError(BINARY_CONTENT, problem)
    return value


def _plain(value: str) -> str:
    _storable(value)
    problem = plain_problem(value)
    if problem:
        raise ValueError(problem)
    return value


StorableText = Annotated[str, AfterValidator(_storable)]
"""Any request text that may reach the database (queries, notes, messages, scope parts)."""

PlainName = Annotated[str, AfterValidator(_plain)]
"""A Context name or a key's subject."""


def require_storable(value: str, field: str) -> str:
    """The use case's own check, for callers that bypass the request models."""
    problem = storable_problem(value)
    if problem:
        raise InvalidInput(f"{field} {problem}", field=field, code=BINARY_CONTENT)
    return value


def require_plain(value: str, field: str) -> str:
    require_storable(value, field)
    problem = plain_problem(value)
    if problem:
        raise InvalidInput(f"{field} {problem}", field=field)
    return value

"""One page convention for every list: ask with `cursor` and `limit`, answer `next_cursor`.

A use case fetches `limit + 1` rows; the extra row only says whether another page exists, so
`next_cursor` is null exactly when there is no more (never an empty last page). Cursors are
opaque strings to clients: the last row's key on this page.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import TypeVar

from memwarden.errors import InvalidInput

T = TypeVar("T")


def split_page(
    rows: Sequence[T], limit: int, cursor_of: Callable[[T], str]
) -> tuple[list[T], str | None]:
    """The page's rows and the cursor of the next page (None on the last page)."""
    page = list(rows[:limit])
    more = len(rows) > limit
    return page, (cursor_of(page[-1]) if more and page else None)


def id_cursor(value: str | None) -> uuid.UUID | None:
    """An id cursor (audit, contexts, keys); a malformed one is a 400, not an empty page."""
    if value is None or value == "":
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        raise InvalidInput("cursor is not a valid page cursor", field="cursor") from None

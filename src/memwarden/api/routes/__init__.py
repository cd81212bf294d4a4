"""One module per area; each exposes `router`, made with `route_class=AnswerRoute`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.routing import APIRoute


class AnswerRoute(APIRoute):
    """A route whose use case returns its answer model (the return annotation, FastAPI's
    response model): the JSON carries the fields the use case set and no others, as MCP and
    the CLI render it (`answers.wire`)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, endpoint, **{**kwargs, "response_model_exclude_unset": True})

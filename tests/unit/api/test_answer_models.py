"""Every JSON route answers its documented model (issue 24): the handler's return annotation
is the route's response model, that model is the 2xx schema of /openapi.json, and an answer
model's JSON carries exactly the fields its use case set, on HTTP as in MCP and the CLI
(`answers.wire`). With one definition per answer, a use case that built another shape would
fail mypy (the route's return type) or FastAPI's response validation, not drift."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel

from memwarden.answers import Answer, wire
from memwarden.api.app import create_app
from memwarden.api.routes import AnswerRoute
from memwarden.passes.responses import PassCounts, PassRun
from memwarden.retrieval.responses import HitScope, HitSource, MemoryHit

# Routes whose 2xx answer is not one model returned by the handler, and why.
NOT_A_MODEL = {
    ("GET", "/metrics"): "Prometheus text",
    ("POST", "/api/v1/{context_id}/chat/stream"): "server-sent events, each from its model",
    ("GET", "/api/v1/{context_id}/export"): "JSON Lines, each line from portability/lines.py",
}


def _routes() -> Iterator[APIRoute]:
    for included in create_app().routes:
        router = getattr(included, "original_router", None)
        for route in getattr(router, "routes", ()):
            if isinstance(route, APIRoute) and route.include_in_schema:
                yield route


ROUTES = [(next(iter(sorted(r.methods))), r) for r in _routes()]


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_app().openapi()


def test_the_app_has_answer_routes_and_the_exceptions_are_real_routes() -> None:
    keys = {(m, r.path) for m, r in ROUTES}
    assert len(keys) > 40
    assert set(NOT_A_MODEL) <= keys


@pytest.mark.parametrize(("method", "route"), ROUTES, ids=[f"{m} {r.path}" for m, r in ROUTES])
def test_a_route_returns_its_response_model(method: str, route: APIRoute) -> None:
    if (method, route.path) in NOT_A_MODEL:
        return
    model = route.response_model
    assert isinstance(model, type) and issubclass(model, BaseModel), (method, route.path, model)
    returned = typing.get_type_hints(route.endpoint)["return"]
    assert returned is model, (method, route.path, returned)
    if issubclass(model, Answer):  # the fields the use case set, no defaults added
        assert isinstance(route, AnswerRoute) and route.response_model_exclude_unset


@pytest.mark.parametrize(("method", "route"), ROUTES, ids=[f"{m} {r.path}" for m, r in ROUTES])
def test_the_documented_answer_is_the_route_model_and_its_fields(
    spec: dict[str, Any], method: str, route: APIRoute
) -> None:
    if (method, route.path) in NOT_A_MODEL:
        return
    model = route.response_model
    assert isinstance(model, type) and issubclass(model, BaseModel)
    responses = spec["paths"][route.path][method.lower()]["responses"]
    status = str(route.status_code or 200)
    schema = responses[status]["content"]["application/json"]["schema"]
    assert schema == {"$ref": f"#/components/schemas/{model.__name__}"}, (route.path, schema)
    documented = spec["components"]["schemas"][model.__name__]
    own = model.model_json_schema(mode="serialization", by_alias=True)
    assert list(documented["properties"]) == list(own["properties"]), route.path
    assert documented.get("required", []) == own.get("required", []), route.path


def test_an_answer_leaves_out_what_its_use_case_did_not_set_and_keeps_a_set_null() -> None:
    hit = MemoryHit(
        id="r1",
        kind="chunk",
        text="Bees hum.",
        score=None,
        scope=HitScope(path=None, visibility="shared"),
        source=HitSource(kind="turn", ref="t1", gist="A note."),
    )
    body = wire(hit)
    assert body == {
        "id": "r1",
        "kind": "chunk",
        "text": "Bees hum.",
        "score": None,
        "scope": {"path": None, "visibility": "shared"},
        "source": {"kind": "turn", "ref": "t1", "gist": "A note."},
    }
    hit.superseded = True  # set after construction: on the wire too
    assert wire(hit)["superseded"] is True and "validTo" not in wire(hit)


def test_a_time_is_rendered_as_the_use_case_gave_it() -> None:
    from datetime import UTC, datetime

    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    run = PassRun(
        runId="p1",
        stage="gist",
        trigger="manual",
        status="done",
        counts=PassCounts(inputs=0, written=0, dropped=0, held=0),
        errorCode=None,
        createdAt=at,
        startedAt="2026-01-02T03:04:05+00:00",
        finishedAt=None,
    )
    body = wire(run)
    assert body["createdAt"] == "2026-01-02T03:04:05Z"  # pydantic's form, as HTTP sent it
    assert body["startedAt"] == "2026-01-02T03:04:05+00:00"  # a rendered string, kept

"""One error format for every failure, body limits, request ids."""

from __future__ import annotations

import httpx


def test_malformed_json_is_400_in_the_common_error_format(admin: httpx.Client) -> None:
    resp = admin.post(
        "/api/v1/contexts", content=b'{"name": ', headers={"Content-Type": "application/json"}
    )
    assert resp.status_code == 400
    assert resp.json() == {
        "error": {"code": "malformed_json", "message": "request body is not valid JSON"}
    }


def test_a_wrong_type_is_400_naming_the_field(admin: httpx.Client) -> None:
    resp = admin.post("/api/v1/contexts", json={"name": 5})
    assert resp.status_code == 400
    assert resp.json()["error"]["field"] == "name"


def test_an_unknown_field_is_400(admin: httpx.Client) -> None:
    resp = admin.post("/api/v1/contexts", json={"name": "a", "owner": "b"})
    assert resp.status_code == 400
    assert resp.json()["error"] == {
        "code": "unknown_field",
        "message": "unknown field 'owner'",
        "field": "owner",
    }


def test_a_missing_field_is_400(admin: httpx.Client) -> None:
    resp = admin.post("/api/v1/contexts", json={})
    assert resp.status_code == 400 and resp.json()["error"]["code"] == "missing_field"


def test_a_body_of_exactly_64_kib_is_read_and_one_byte_more_is_413(admin: httpx.Client) -> None:
    prefix, suffix = b'{"name": "', b'"}'
    fill = 64 * 1024 - len(prefix) - len(suffix)
    exact = prefix + b"a" * fill + suffix
    resp = admin.post(
        "/api/v1/contexts", content=exact, headers={"Content-Type": "application/json"}
    )
    assert resp.status_code == 400  # read and validated: the name is too long
    over = prefix + b"a" * (fill + 1) + suffix
    resp = admin.post(
        "/api/v1/contexts", content=over, headers={"Content-Type": "application/json"}
    )
    assert resp.status_code == 413
    assert resp.json()["error"]["code"] == "payload_too_large"


def test_a_chunked_body_over_the_limit_is_413(admin: httpx.Client) -> None:
    def chunks():
        yield b'{"name": "'
        for _ in range(70):
            yield b"a" * 1024
        yield b'"}'

    resp = admin.post(
        "/api/v1/contexts", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert resp.status_code == 413


def test_an_unknown_route_is_404_in_the_common_format(admin: httpx.Client) -> None:
    resp = admin.get("/api/v1/nothing/here/at/all")
    assert resp.status_code == 404 and resp.json()["error"]["code"] == "not_found"


def test_every_response_carries_a_request_id_and_echoes_a_given_one(admin: httpx.Client) -> None:
    assert len(admin.get("/health").headers["x-request-id"]) == 32
    resp = admin.get("/health", headers={"X-Request-ID": "abc-123"})
    assert resp.headers["x-request-id"] == "abc-123"


def test_api_responses_are_not_cached(admin: httpx.Client) -> None:
    resp = admin.get("/api/v1/contexts")
    assert resp.headers["cache-control"] == "no-store"


def test_an_invalid_context_id_in_the_path_is_400(admin: httpx.Client) -> None:
    resp = admin.get("/api/v1/contexts/not-a-uuid/config")
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "context_id"


def test_health_reports_database_worker_and_models(admin: httpx.Client) -> None:
    # The detail is the operator's (issue 15, finding 4); anonymous callers get states.
    body = admin.get("/health").json()
    assert body["database"]["status"] == "ok"
    assert body["database"]["pgvector"]
    assert "worker" in body and "models" in body


def test_openapi_is_served(anon: httpx.Client) -> None:
    spec = anon.get("/openapi.json").json()
    assert "/api/v1/contexts" in spec["paths"]

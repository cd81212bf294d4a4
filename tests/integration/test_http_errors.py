"""One error format for every failure, body limits, request ids."""

from __future__ import annotations

import json

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


_MARKER = "row-data-marker-7f3a"


class _BrokenGate:
    """A gate that fails the way a database error does: its message quotes row data."""

    async def input_gate(self, request):
        raise RuntimeError(f'DETAIL:  Failing row contains ({_MARKER}, "secret").')

    async def row_gate(self, request, rows):
        raise RuntimeError(_MARKER)

    async def record(self, *args, **kwargs):
        raise RuntimeError(_MARKER)


def test_an_unhandled_error_is_one_json_500_and_one_json_log_line(
    live_with, make_context, capfd
) -> None:
    """No message or DETAIL text in any log, JSON lines only, and the pooled connection
    still serves the next request (finding 11 of issue 15)."""
    ctx = make_context()
    server = live_with(gatekeeper=_BrokenGate())
    capfd.readouterr()
    with server.client(ctx["key"]) as c:
        resp = c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "Ada likes tea."})
        assert resp.status_code == 500
        body = resp.json()
        assert body["error"]["code"] == "internal_error"
        assert body["error"]["requestId"] == resp.headers["x-request-id"]
        assert _MARKER not in resp.text
        again = c.get("/openapi.json")  # the same pooled connection
        assert again.status_code == 200
    out, err = capfd.readouterr()
    logged = out + err
    assert _MARKER not in logged and "DETAIL" not in logged
    lines = [line for line in logged.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is JSON
    errors = [r for r in records if r.get("event") == "unhandled_error"]
    assert len(errors) == 1
    assert errors[0]["error_type"] == "RuntimeError"
    assert errors[0]["request_id"] == resp.headers["x-request-id"]
    assert "input_gate" in errors[0]["traceback"]

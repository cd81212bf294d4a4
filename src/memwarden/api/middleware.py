"""Pure ASGI middleware: request ids and access logs, body-size limits, no-store caching."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memwarden.admission import BODY_BYTES_KEY
from memwarden.api.errors import internal_error_body, log_unhandled
from memwarden.limits import (
    BATCH_BODY_LIMIT,
    DEFAULT_BODY_LIMIT,
    DOCUMENT_BODY_LIMIT,
    FACTS_BODY_LIMIT,
    IMPORT_BODY_LIMIT,
    MCP_TRANSPORT_LIMIT,
)
from memwarden.request_trace import open_trace

log = structlog.get_logger("memwarden.access")

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._\-]{1,64}$")


@dataclass(frozen=True)
class BodyLimit:
    method: str
    path: re.Pattern[str]
    limit: int


def route_limits() -> list[BodyLimit]:
    """Routes that need more than the 64 KiB default: /facts carries a turn of up to
    128,000 characters, each up to 12 bytes once JSON-escaped."""
    ctx = r"/api/v1/[^/]+"
    return [
        BodyLimit("POST", re.compile(rf"^{ctx}/facts$"), FACTS_BODY_LIMIT),
        BodyLimit("POST", re.compile(rf"^{ctx}/facts/batch$"), BATCH_BODY_LIMIT),
        BodyLimit("POST", re.compile(rf"^{ctx}/documents$"), DOCUMENT_BODY_LIMIT),
        BodyLimit("POST", re.compile(rf"^{ctx}/imports$"), IMPORT_BODY_LIMIT),
        BodyLimit("POST", re.compile(r"^/mcp"), MCP_TRANSPORT_LIMIT),
        BodyLimit("POST", re.compile(r"^/ui/c/[^/]+/documents$"), DOCUMENT_BODY_LIMIT),
    ]


def limit_for(method: str, path: str, limits: Sequence[BodyLimit]) -> int:
    for rule in limits:
        if rule.method == method and rule.path.match(path):
            return rule.limit
    return DEFAULT_BODY_LIMIT


def _error(status: int, code: str, message: str, request_id: str) -> tuple[bytes, list]:
    return _encoded({"error": {"code": code, "message": message}}, request_id)


def _encoded(payload: dict, request_id: str) -> tuple[bytes, list]:
    body = json.dumps(payload).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        (b"x-request-id", request_id.encode()),
    ]
    return body, headers


class ServiceMiddleware:
    """Request id, body limits with 413, Cache-Control: no-store on API routes, access log."""

    def __init__(self, app: ASGIApp, limits: Sequence[BodyLimit] | None = None) -> None:
        self.app = app
        self.limits = list(limits) if limits is not None else route_limits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        incoming = headers.get(b"x-request-id", b"").decode("latin-1")
        request_id = incoming if _REQUEST_ID.match(incoming) else uuid.uuid4().hex
        structlog.contextvars.bind_contextvars(request_id=request_id)
        trace = open_trace()
        method, path = scope["method"], scope["path"]
        limit = limit_for(method, path, self.limits)
        started = time.perf_counter()
        status_holder = {"status": 500}

        async def reply(status: int, code: str, message: str) -> None:
            body, hdrs = _error(status, code, message, request_id)
            status_holder["status"] = status
            await send({"type": "http.response.start", "status": status, "headers": hdrs})
            await send({"type": "http.response.body", "body": body})

        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > limit
            except ValueError:
                await reply(400, "invalid_request", "invalid Content-Length")
                return
            if too_big:
                await reply(413, "payload_too_large", f"request body exceeds {limit} bytes")
                self._log(method, path, 413, started)
                return

        downstream_receive = receive
        if declared is None and method in ("POST", "PUT", "PATCH"):
            # Chunked body: read it up to the limit here, so an oversize body is a 413
            # before any route (or body parser) sees it.
            body = bytearray()
            more = True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    break
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > limit:
                    await reply(413, "payload_too_large", f"request body exceeds {limit} bytes")
                    self._log(method, path, 413, started)
                    return
            scope[BODY_BYTES_KEY] = len(body)  # for the Context byte budget (body_budget.py)
            buffered = [{"type": "http.request", "body": bytes(body), "more_body": False}]

            async def replay() -> Message:
                return buffered.pop() if buffered else await receive()

            downstream_receive = replay

        response_started = False

        async def send_wrapper(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
                status_holder["status"] = message["status"]
                hdrs = [h for h in message.get("headers", []) if h[0].lower() != b"x-request-id"]
                hdrs.append((b"x-request-id", request_id.encode()))
                if path.startswith("/api/") and not any(
                    h[0].lower() == b"cache-control" for h in hdrs
                ):
                    hdrs.append((b"cache-control", b"no-store"))
                message = {**message, "headers": hdrs}
            await send(message)

        try:
            await self.app(scope, downstream_receive, send_wrapper)
        except Exception as exc:
            # Answered here, not re-raised: a re-raised error reaches uvicorn, which prints
            # the whole traceback (messages included) and drops the keep-alive connection.
            log_unhandled(exc, path)
            status_holder["status"] = 500
            if response_started:
                raise  # half a response cannot be mended; the server closes the connection
            payload, hdrs = _encoded(internal_error_body(request_id), request_id)
            await send({"type": "http.response.start", "status": 500, "headers": hdrs})
            await send({"type": "http.response.body", "body": payload})
        finally:
            if not trace.silent:  # a deny leaves no line (request_trace.py)
                self._log(method, path, status_holder["status"], started)
            structlog.contextvars.unbind_contextvars("request_id")

    @staticmethod
    def _log(method: str, path: str, status: int, started: float) -> None:
        log.info(
            "request",
            method=method,
            path=path,
            status=status,
            ms=round((time.perf_counter() - started) * 1000, 2),
        )

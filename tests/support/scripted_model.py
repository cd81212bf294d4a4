"""A scripted OpenAI-compatible model server on 127.0.0.1 for tests.

A real HTTP server (stdlib, one thread per connection) that speaks enough of the
chat-completions (plain and SSE streaming), embeddings and models API for the
official `openai` SDK, so tests drive the real client instead of a monkeypatch.
Tests script replies per stage (the `X-Memwarden-Stage` header the provider
sends, else the model name): queued canned replies, a callable, error statuses,
delays; every request received is recorded for assertions.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

STAGE_HEADER = "x-memwarden-stage"
ANY = "*"


@dataclass(frozen=True)
class Reply:
    """One scripted answer: a chat message, an embeddings list, or an error status."""

    status: int = 200
    content: str | None = None
    embeddings: list[list[float]] | None = None
    raw_body: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    trickle_s: float = 0.0
    prompt_tokens: int | None = 11
    completion_tokens: int | None = 7
    finish_reason: str = "stop"
    model: str | None = None

    @classmethod
    def json(cls, obj: Any, **kwargs: Any) -> Reply:
        return cls(content=json.dumps(obj), **kwargs)

    @classmethod
    def text(cls, content: str, **kwargs: Any) -> Reply:
        return cls(content=content, **kwargs)

    @classmethod
    def raw(cls, body: str, **kwargs: Any) -> Reply:
        """A 200 whose body is sent as is (an HTML error page, a cut or hostile envelope)."""
        return cls(raw_body=body, **kwargs)

    @classmethod
    def vectors(cls, embeddings: list[list[float]], **kwargs: Any) -> Reply:
        return cls(embeddings=embeddings, **kwargs)

    @classmethod
    def error(cls, status: int, message: str = "scripted failure", **kwargs: Any) -> Reply:
        """An error body; retryable statuses carry `retry-after-ms: 1` so SDK retries are fast."""
        headers = {"retry-after-ms": "1"} if status in (408, 409, 429) or status >= 500 else {}
        headers.update(kwargs.pop("headers", {}))
        body = json.dumps({"error": {"message": message, "type": "scripted", "code": status}})
        return cls(status=status, raw_body=body, headers=headers, **kwargs)

    def after(self, seconds: float) -> Reply:
        """The same reply, sent only after `seconds` (to provoke client timeouts)."""
        return replace(self, delay_s=seconds)

    def trickled(self, seconds_per_byte: float) -> Reply:
        """The same reply, its body sent one byte every `seconds_per_byte` (a streamed one:
        one event every `seconds_per_byte`); each byte restarts an HTTP read timeout, so
        only a total deadline cuts it."""
        return replace(self, trickle_s=seconds_per_byte)

    def without_usage(self) -> Reply:
        return replace(self, prompt_tokens=None, completion_tokens=None)


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def stage(self) -> str | None:
        return self.headers.get(STAGE_HEADER)

    @property
    def model(self) -> str | None:
        return self.body.get("model")

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    def _role(self, role: str) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.messages if m.get("role") == role)

    @property
    def system(self) -> str:
        return self._role("system")

    @property
    def user(self) -> str:
        return self._role("user")

    @property
    def max_tokens(self) -> int | None:
        return self.body.get("max_tokens")

    @property
    def response_format(self) -> dict[str, Any] | None:
        return self.body.get("response_format")

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))


Script = Reply | dict[str, Any] | Callable[[RecordedRequest], "Reply | dict[str, Any]"]


def fake_embedding(text: str, dimensions: int) -> list[float]:
    """A deterministic unit vector per text, so identical texts embed identically."""
    seed = hashlib.sha256(text.encode()).digest()
    raw = [((seed[i % len(seed)] + i * 31) % 251) / 125.0 - 1.0 for i in range(dimensions)]
    norm = math.sqrt(sum(x * x for x in raw)) or 1.0
    return [x / norm for x in raw]


class ScriptedModelServer:
    """Start with `with ScriptedModelServer() as server:`; point clients at `base_url`."""

    def __init__(self, *, embedding_dimensions: int = 8, stream_chunk_chars: int = 8) -> None:
        self.embedding_dimensions = embedding_dimensions
        self.stream_chunk_chars = stream_chunk_chars
        self._queues: dict[str, deque[Script]] = defaultdict(deque)
        self._defaults: dict[str, Script] = {}
        self._requests: list[RecordedRequest] = []
        # GET /models (a provider's reachability check): counted apart from the
        # stage requests so per-stage assertions do not see them.
        self.model_listings = 0
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # lifecycle

    def start(self) -> ScriptedModelServer:
        handler = _handler_for(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._closing.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> ScriptedModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # scripting

    def script(self, stage: str, *replies: Script) -> None:
        """Queue replies for a stage (or model name); `"*"` serves any stage."""
        with self._lock:
            self._queues[stage].extend(replies)

    def respond_with(self, stage: str, reply: Script) -> None:
        """The reply (or callable) used for a stage whenever its queue is empty."""
        with self._lock:
            self._defaults[stage] = reply

    def pending(self, stage: str) -> int:
        with self._lock:
            return len(self._queues[stage])

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def requests_for(self, stage: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.stage == stage or r.model == stage]

    # serving

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next(self, request: RecordedRequest) -> Reply | None:
        keys = [k for k in (request.stage, request.model, ANY) if k]
        with self._lock:
            script: Script | None = None
            for key in keys:
                if self._queues[key]:
                    script = self._queues[key].popleft()
                    break
            else:
                script = next((self._defaults[k] for k in keys if k in self._defaults), None)
        if script is None:
            return None
        if callable(script):
            script = script(request)
        return Reply.json(script) if isinstance(script, dict) else script

    def _sleep(self, seconds: float) -> bool:
        """Wait, but wake at shutdown; False when the server is closing."""
        return not self._closing.wait(seconds) if seconds > 0 else True


def _handler_for(server: ScriptedModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            request = self._recorded({})
            if self.path.rstrip("/").endswith("/models"):
                with server._lock:
                    server.model_listings += 1
                models = sorted({r.model for r in server.requests if r.model} | {"scripted"})
                data = [{"id": m, "object": "model", "created": 0, "owned_by": "t"} for m in models]
                self._send_json(200, {"object": "list", "data": data})
                return
            server._record(request)
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {"_unparsed": raw.decode("utf-8", "replace")}
            request = self._recorded(body if isinstance(body, dict) else {"_body": body})
            server._record(request)
            path = self.path.rstrip("/")
            if path.endswith("/chat/completions"):
                self._chat(request)
            elif path.endswith("/embeddings"):
                self._embeddings(request)
            else:
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})

        def _recorded(self, body: dict[str, Any]) -> RecordedRequest:
            headers = {k.lower(): v for k, v in self.headers.items()}
            return RecordedRequest(self.command, self.path, headers, body)

        def _chat(self, request: RecordedRequest) -> None:
            reply = server._next(request)
            if reply is None:
                message = f"no scripted reply for stage {request.stage!r} model {request.model!r}"
                self._send_json(418, {"error": {"message": message}})
                return
            if not server._sleep(reply.delay_s):
                return
            if reply.status != 200 or reply.raw_body is not None:
                self._send_raw(reply.status, reply.raw_body or "", reply.headers, reply.trickle_s)
                return
            model = reply.model or request.model or "scripted"
            content = reply.content or ""
            if request.stream:
                self._stream(request, reply, model, content)
                return
            body: dict[str, Any] = {
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": reply.finish_reason,
                    }
                ],
            }
            usage = _usage(reply)
            if usage is not None:
                body["usage"] = usage
            self._send_json(200, body, reply.headers, reply.trickle_s)

        def _stream(self, request: RecordedRequest, reply: Reply, model: str, content: str) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.close_connection = True

            def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
                return {
                    "id": "chatcmpl-scripted",
                    "object": "chat.completion.chunk",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                }

            events: list[dict[str, Any]] = [chunk({"role": "assistant", "content": ""}, None)]
            events += [chunk({"content": part}, None) for part in _parts(content, server)]
            events.append(chunk({}, reply.finish_reason))
            options = request.body.get("stream_options") or {}
            usage = _usage(reply)
            if options.get("include_usage") and usage is not None:
                events.append({**chunk({}, None), "choices": [], "usage": usage})
            try:
                for event in events:
                    self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                    self.wfile.flush()
                    if not server._sleep(reply.trickle_s):
                        return
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

        def _embeddings(self, request: RecordedRequest) -> None:
            inputs = request.body.get("input")
            texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
            reply = server._next(request)
            if reply is not None:
                if not server._sleep(reply.delay_s):
                    return
                if reply.status != 200 or reply.raw_body is not None:
                    self._send_raw(
                        reply.status, reply.raw_body or "", reply.headers, reply.trickle_s
                    )
                    return
            if reply is not None and reply.embeddings is not None:
                vectors = reply.embeddings
            else:
                vectors = [fake_embedding(str(t), server.embedding_dimensions) for t in texts]
            tokens = sum(len(str(t).split()) for t in texts)
            body = {
                "object": "list",
                "model": request.model or "scripted",
                "data": [
                    {"object": "embedding", "index": i, "embedding": v}
                    for i, v in enumerate(vectors)
                ],
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
            self._send_json(200, body, None, reply.trickle_s if reply is not None else 0.0)

        def _send_json(
            self,
            status: int,
            body: dict[str, Any],
            headers: dict[str, str] | None = None,
            trickle_s: float = 0.0,
        ) -> None:
            self._send_raw(status, json.dumps(body), headers or {}, trickle_s)

        def _send_raw(
            self, status: int, text: str, headers: dict[str, str], trickle_s: float = 0.0
        ) -> None:
            data = text.encode()
            try:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("connection", "close")
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                if trickle_s > 0:
                    for byte in data:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        if not server._sleep(trickle_s):
                            break
                else:
                    self.wfile.write(data)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True

    return Handler


def _usage(reply: Reply) -> dict[str, int] | None:
    if reply.prompt_tokens is None or reply.completion_tokens is None:
        return None
    return {
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "total_tokens": reply.prompt_tokens + reply.completion_tokens,
    }


def _parts(content: str, server: ScriptedModelServer) -> Iterator[str]:
    size = max(1, server.stream_chunk_chars)
    for start in range(0, len(content), size):
        yield content[start : start + size]


@dataclass
class Booking:
    stage: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    estimated: bool


@dataclass
class RecordingSink:
    """A UsageSink that keeps every booking."""

    bookings: list[Booking] = field(default_factory=list)

    async def book(self, stage: str, model: str, usage: Any) -> None:
        self.bookings.append(
            Booking(
                stage,
                model,
                usage.prompt_tokens,
                usage.completion_tokens,
                bool(getattr(usage, "estimated", False)),
            )
        )

    @property
    def total_tokens(self) -> int:
        return sum(b.prompt_tokens + b.completion_tokens for b in self.bookings)


# Faults a misbehaving provider (or a proxy in front of one) shows, by name: the standing
# campaign's model-fault table (tests/integration/campaign/test_model_faults.py) runs every
# stage against each. `fault(name, ok)` builds the reply; `ok` is what a healthy model
# would have said (a hang or a trickle delays or slows exactly that answer).
FAULT_DEPTH = 5000
FAULTS = (
    "hang",
    "trickle",
    "status_500",
    "status_429",
    "garbage",
    "truncated",
    "deeply_nested",
    "huge",
    "wrong_schema",
)


def fault(name: str, ok: Reply, *, hang_s: float = 30.0, trickle_s: float = 0.25) -> Reply:
    """The reply of a provider that misbehaves in the named way (one of FAULTS).

    For an embeddings request (`ok.embeddings` set) the body faults are embeddings-shaped:
    `wrong_schema` is vectors of the wrong width, `huge` a vector of a million floats."""
    deep = '{"a":' * FAULT_DEPTH + "1" + "}" * FAULT_DEPTH
    embedding = ok.embeddings is not None
    if name == "hang":
        return ok.after(hang_s)
    if name == "trickle":
        return ok.trickled(trickle_s)
    if name == "status_500":
        return Reply.error(500)
    if name == "status_429":
        return Reply.error(429, "rate limited")
    if name == "garbage":
        return Reply.raw("<html><body><h1>502 Bad Gateway</h1></body></html>")
    if name == "truncated":
        return Reply.raw('{"id":"chatcmpl-x","object":"chat.completion","choices":[{"inde')
    if name == "deeply_nested":
        return Reply.raw(deep) if embedding else Reply.text(deep)
    if name == "huge":
        if embedding:
            return Reply.vectors([[0.001] * 1_000_000])
        return Reply.text('{"verdict":"pass","reasons":[],"pad":"' + "x" * 3_000_000 + '"}')
    if name == "wrong_schema":
        if embedding:
            return Reply.vectors([[0.5] * 7])
        return Reply.json({"unexpected": ["shape"], "verdict": 17})
    raise ValueError(f"unknown fault {name!r}; one of {FAULTS}")


def scripted_models(server: ScriptedModelServer, **changes: Any) -> dict[str, Any]:
    """Settings changes that point the stages named in `changes` (for example
    `model_judge="openai:judge-model"`) at the scripted server, failing fast: a short
    timeout and no retries unless `changes` says otherwise."""
    return {
        "openai_base_url": server.base_url,
        "model_timeout_s": 5.0,
        "model_max_retries": 0,
        **changes,
    }

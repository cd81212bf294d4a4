"""OpenAI-compatible chat and embedding providers (OpenAI, vLLM, Ollama, llama.cpp, LM Studio).

One client per provider, built with an explicit base_url and key so the SDK never
picks up OPENAI_* variables from the environment behind the operator's back.
Retries are the SDK's own (connection errors, timeouts, 408/409/429/5xx, with
backoff that honours Retry-After); content problems are never retried. Under a request
deadline (models/deadline.py) each attempt's timeout is the smaller of the per-call one
and the time left, and the whole call (retries and a trickled body) is cut at the deadline.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit

import httpx
import openai
from openai import AsyncOpenAI, OpenAI
from pydantic import BaseModel

from memwarden.models.base import (
    MAX_REPLY_BYTES,
    JsonResult,
    ModelOutputError,
    ModelRequestRejected,
    ModelTransportError,
    SchemaLike,
    StructuredOutputMode,
    TextResult,
    Usage,
    UsageSink,
    check_reply_bounds,
)
from memwarden.models.contracts import (
    contract_name,
    first_json_object,
    json_schema,
    validate_output,
)
from memwarden.models.deadline import time_left

DEFAULT_BASE_URL = "https://api.openai.com/v1"
NO_KEY = "not-needed"
STAGE_HEADER = "X-Memwarden-Stage"

T = TypeVar("T")
Client = TypeVar("Client", AsyncOpenAI, OpenAI)
UNREADABLE = (ValueError, RecursionError, TypeError)
MAX_EMBEDDING_REPLY_BYTES = 64 * 1024 * 1024
"""The largest embeddings reply read: 128 texts of 4,096 floats in decimal fit well inside."""
"""What parsing a broken body raises (JSONDecodeError is a ValueError)."""


def _raise_transport(exc: Exception) -> NoReturn:
    """Map SDK errors onto ours; called only after the SDK's retries are spent."""
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        if status in (408, 409, 429) or status >= 500:
            raise ModelTransportError(f"model endpoint failed with HTTP {status}") from exc
        raise ModelRequestRejected(f"model endpoint rejected the request: HTTP {status}", status)
    if isinstance(exc, openai.APITimeoutError):
        raise ModelTransportError("model endpoint timed out") from exc
    if isinstance(exc, openai.APIConnectionError):
        raise ModelTransportError("model endpoint unreachable") from exc
    raise ModelTransportError(f"model call failed: {type(exc).__name__}") from exc


def _estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def _usage(raw: Any, prompt_text: str, completion_text: str) -> Usage:
    """The reported usage, or a chars/4 estimate so budgets still move when it is missing."""
    if raw is not None:
        prompt = getattr(raw, "prompt_tokens", None)
        completion = getattr(raw, "completion_tokens", None)
        if isinstance(prompt, int) and isinstance(completion, int):
            return Usage(prompt, completion)
    return Usage(_estimate_tokens(prompt_text), _estimate_tokens(completion_text), estimated=True)


def _embedding_usage(raw: Any, batch: list[str]) -> Usage:
    prompt = raw.get("prompt_tokens") if isinstance(raw, dict) else None
    if isinstance(prompt, int):
        return Usage(prompt, 0)
    return Usage(sum(_estimate_tokens(t) for t in batch), 0, estimated=True)


def _sdk_client(
    sdk: type[Client], base_url: str, api_key: str | None, timeout_s: float, max_retries: int
) -> Client:
    """An SDK client with every setting given (a placeholder key where none is needed), so
    it never falls back on OPENAI_* variables from the environment."""
    return sdk(
        base_url=base_url, api_key=api_key or NO_KEY, timeout=timeout_s, max_retries=max_retries
    )


def _host(base_url: str) -> str:
    parts = urlsplit(base_url)
    return parts.netloc or base_url


GRAMMAR_MAX_STRING = 256


def grammar_safe(schema: Any) -> Any:
    """llama.cpp compiles the schema into a grammar and refuses (and its Python server
    drops the connection) when a string's maxLength repeats a rule thousands of times.
    Strings are capped lower for that mode; the answer is still validated against the
    full contract, and maxItems stays."""
    if isinstance(schema, dict):
        out = {k: grammar_safe(v) for k, v in schema.items()}
        if isinstance(out.get("maxLength"), int):
            out["maxLength"] = min(out["maxLength"], GRAMMAR_MAX_STRING)
        return out
    if isinstance(schema, list):
        return [grammar_safe(v) for v in schema]
    return schema


class OpenAICompatProvider:
    """A ChatProvider over one model of one OpenAI-compatible endpoint."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        mode: StructuredOutputMode | str = StructuredOutputMode.JSON_SCHEMA,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        json_temperature: float | None = 0.0,
        stream_usage: bool = True,
        client: AsyncOpenAI | None = None,
    ) -> None:
        self.model = model
        self.base_url = base_url or DEFAULT_BASE_URL
        self.mode = StructuredOutputMode(mode)
        self.json_temperature = json_temperature
        self.stream_usage = stream_usage
        self.timeout_s = timeout_s
        self._client = client or _sdk_client(
            AsyncOpenAI, self.base_url, api_key, timeout_s, max_retries
        )

    @property
    def description(self) -> str:
        return f"openai:{self.model} at {_host(self.base_url)} ({self.mode.value})"

    async def aclose(self) -> None:
        await self._client.close()

    async def __aenter__(self) -> OpenAICompatProvider:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def ping(self) -> bool:
        """Whether the endpoint answers `GET /models`; used by health, never on a request path."""
        try:
            await self._client.models.list()
        except openai.APIError:
            return False
        return True

    async def complete_json(
        self,
        stage: str,
        system: str,
        user: str,
        schema: SchemaLike,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> JsonResult:
        """One structured call; usage is booked before validation because tokens were spent."""
        schema_dict, name = _schema_and_name(schema, stage)
        if self.mode is StructuredOutputMode.PROMPT_JSON:
            system = f"{system}\n\n{_reply_format(schema_dict)}"
        kwargs: dict[str, Any] = {}
        if self.mode is StructuredOutputMode.JSON_SCHEMA:
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema_dict, "strict": False},
            }
        elif self.mode is StructuredOutputMode.JSON_OBJECT_SCHEMA:
            kwargs["response_format"] = {"type": "json_object", "schema": grammar_safe(schema_dict)}
        if self.json_temperature is not None:
            kwargs["temperature"] = self.json_temperature
        content, finish_reason, usage, model = await self._complete(
            stage, system, user, max_tokens, usage_sink, **kwargs
        )
        check_reply_bounds(content, "model answer")
        try:
            data = first_json_object(content)
        except ModelOutputError:
            if finish_reason == "length":
                raise ModelOutputError(
                    "reply was cut at max_tokens before the JSON closed"
                ) from None
            raise
        return JsonResult(data=validate_output(schema, data), usage=usage, model=model)

    async def complete_text(
        self,
        stage: str,
        system: str,
        user: str,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> TextResult:
        content, _, usage, model = await self._complete(stage, system, user, max_tokens, usage_sink)
        return TextResult(text=content, usage=usage, model=model)

    async def _complete(
        self,
        stage: str,
        system: str,
        user: str,
        max_tokens: int,
        usage_sink: UsageSink | None,
        **kwargs: Any,
    ) -> tuple[str, str | None, Usage, str]:
        """One chat completion; usage is booked before the caller reads the content,
        because the tokens were spent whatever the reply holds."""
        raw = await self._call(
            lambda bound: self._client.chat.completions.with_raw_response.create(
                model=self.model,
                messages=_messages(system, user),
                max_tokens=max_tokens,
                extra_headers={STAGE_HEADER: stage},
                **kwargs,
                **bound,
            )
        )
        check_reply_bounds(raw.content, "model reply")
        try:
            response = raw.parse()
        except UNREADABLE as exc:
            reason = type(exc).__name__
            raise ModelOutputError(f"model reply is not a completion: {reason}") from None
        content, finish_reason = _first_choice(response)
        usage = _usage(getattr(response, "usage", None), system + user, content)
        model = getattr(response, "model", None) or self.model
        if usage_sink is not None:
            await usage_sink.book(stage, model, usage)
        return content, finish_reason, usage, model

    async def stream_text(
        self,
        stage: str,
        system: str,
        user: str,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> AsyncIterator[str]:
        """Yield text deltas; book usage once the stream ends (or is abandoned)."""
        extra: dict[str, Any] = {}
        if self.stream_usage:
            extra["stream_options"] = {"include_usage": True}
        stream = await self._call(
            lambda bound: self._client.chat.completions.create(
                model=self.model,
                messages=_messages(system, user),
                max_tokens=max_tokens,
                stream=True,
                extra_headers={STAGE_HEADER: stage},
                **extra,
                **bound,
            )
        )
        left = time_left()
        until = None if left is None else asyncio.get_running_loop().time() + left
        chunks = stream.__aiter__()
        parts: list[str] = []
        size = 0
        raw_usage: Any = None
        model = self.model
        try:
            while (chunk := await _next_within(chunks, until)) is not None:
                model = getattr(chunk, "model", None) or model
                if getattr(chunk, "usage", None) is not None:
                    raw_usage = chunk.usage
                for choice in chunk.choices or []:
                    delta = getattr(choice.delta, "content", None)
                    if delta:
                        size += len(delta)
                        if size > MAX_REPLY_BYTES:
                            raise ModelOutputError("streamed reply is larger than the bound")
                        parts.append(delta)
                        yield delta
        except openai.APIError as exc:
            _raise_transport(exc)
        except UNREADABLE as exc:
            raise ModelOutputError(f"streamed reply is unreadable: {type(exc).__name__}") from None
        finally:
            await stream.close()
            if usage_sink is not None:
                usage = _usage(raw_usage, system + user, "".join(parts))
                await usage_sink.book(stage, model, usage)

    async def _call(self, make: Callable[[dict[str, Any]], Awaitable[T]]) -> T:
        """Run one SDK call (with its retries) inside the request deadline, if any.

        httpx's read timeout restarts on every byte, so only a timer around the whole
        call bounds a model that trickles its body; no retry starts once it has fired."""
        left = time_left()
        try:
            if left is None:
                return await make({})
            if left <= 0:
                raise ModelTransportError("model call skipped: the request deadline has passed")
            async with asyncio.timeout(left):
                return await make({"timeout": min(self.timeout_s, left)})
        except TimeoutError:
            raise ModelTransportError("model call ran past the request deadline") from None
        except openai.APIError as exc:
            _raise_transport(exc)


async def _next_within(chunks: AsyncIterator[T], until: float | None) -> T | None:
    """The next chunk of a stream, or None at its end; past the request deadline
    (`until`, loop time) a trickling stream is a transport error."""
    try:
        if until is None:
            return await anext(chunks)
        async with asyncio.timeout_at(until):
            return await anext(chunks)
    except StopAsyncIteration:
        return None
    except TimeoutError:
        raise ModelTransportError("streamed reply ran past the request deadline") from None


def _messages(system: str, user: str) -> list[Any]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def _first_choice(response: Any) -> tuple[str, str | None]:
    choices = getattr(response, "choices", None)
    if not choices:
        raise ModelOutputError("reply has no choices")
    message = getattr(choices[0], "message", None)
    refusal = getattr(message, "refusal", None)
    if refusal:
        raise ModelOutputError("model refused to answer")
    content = getattr(message, "content", None)
    if not isinstance(content, str):
        raise ModelOutputError("reply has no text content")
    return content, getattr(choices[0], "finish_reason", None)


def _schema_and_name(schema: SchemaLike, stage: str) -> tuple[dict[str, Any], str]:
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return json_schema(schema), contract_name(schema)
    title = schema.get("title") if isinstance(schema, Mapping) else None
    name = title if isinstance(title, str) and title.isidentifier() else stage
    return dict(schema), name[:64]


def _reply_format(schema: dict[str, Any]) -> str:
    return (
        "# Reply format\n\nReply with one JSON object only, with no prose before or after it, "
        "matching this JSON schema:\n\n" + json.dumps(schema, separators=(",", ":"))
    )


class OpenAICompatEmbedder:
    """An Embedder over an OpenAI-compatible `/embeddings` endpoint (sync, like the local one)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        dimensions: int | None = None,
        timeout_s: float = 30.0,
        max_retries: int = 2,
        batch_size: int = 128,
        client: OpenAI | None = None,
    ) -> None:
        self.model = model
        self.base_url = base_url or DEFAULT_BASE_URL
        self.batch_size = batch_size
        self.timeout_s = timeout_s
        self._dimensions = dimensions
        self.max_retries = max_retries
        self._client = client or _sdk_client(OpenAI, self.base_url, api_key, timeout_s, max_retries)
        # Under a request deadline the retries are ours (_embed_batch).
        self._once = self._client.with_options(max_retries=0)

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    @property
    def description(self) -> str:
        return f"openai:{self.model} at {_host(self.base_url)}"

    @property
    def dimensions(self) -> int:
        """Configured, or learned from one probe call the first time it is asked."""
        if self._dimensions is None:
            self._dimensions = len(self.embed(["dimension probe"])[0])
        return self._dimensions

    def close(self) -> None:
        self._client.close()

    def embed(self, texts: list[str]) -> list[list[float]]:
        return self.embed_counted(texts)[0]

    def embed_counted(self, texts: list[str]) -> tuple[list[list[float]], Usage]:
        """Vectors, and the tokens the endpoint reports (chars/4 when it reports none)."""
        out: list[list[float]] = []
        used = Usage()
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start : start + self.batch_size]
            vectors, usage = self._embed_batch(batch)
            used = used + usage
            out.extend(vectors)
        if out and self._dimensions is None:
            self._dimensions = len(out[0])
        return out, used

    def _embed_batch(self, batch: list[str]) -> tuple[list[list[float]], Usage]:
        """One batch; under a request deadline the whole call (attempts, pauses, a body
        that trickles in byte by byte) ends at the deadline: the SDK's retries cannot see
        it, so they are done here, and the body is read against the clock."""
        left = time_left()
        if left is None:
            return self._request(self._client, batch, self.timeout_s, None)
        until = time.monotonic() + left
        attempt = 0
        while True:
            left = until - time.monotonic()
            if left <= 0:
                raise ModelTransportError("embedding skipped: the request deadline has passed")
            try:
                return self._request(self._once, batch, min(self.timeout_s, left), until)
            except ModelRequestRejected:
                raise
            except ModelTransportError:
                attempt += 1
                if attempt > self.max_retries or until - time.monotonic() <= 0:
                    raise
                time.sleep(min(0.25 * 2 ** (attempt - 1), max(0.0, until - time.monotonic())))

    def _request(
        self, client: OpenAI, batch: list[str], timeout: float, until: float | None
    ) -> tuple[list[list[float]], Usage]:
        try:
            with client.embeddings.with_streaming_response.create(
                model=self.model, input=batch, encoding_format="float", timeout=timeout
            ) as response:
                body = bytearray()
                for part in response.iter_bytes():
                    body += part
                    if until is not None and time.monotonic() > until:
                        raise ModelTransportError("embedding reply ran past the request deadline")
                    if len(body) > MAX_EMBEDDING_REPLY_BYTES:
                        raise ModelOutputError("embedding reply is larger than the bound")
        except openai.APIError as exc:
            _raise_transport(exc)
        except httpx.HTTPError as exc:
            raise ModelTransportError(f"embedding reply failed: {type(exc).__name__}") from None
        try:
            payload = json.loads(bytes(body))
            rows = sorted(payload["data"], key=lambda item: item["index"])
            vectors = [[float(x) for x in row["embedding"]] for row in rows]
        except (*UNREADABLE, KeyError, IndexError, AttributeError) as exc:
            reason = type(exc).__name__
            raise ModelOutputError(f"embedding reply is unreadable: {reason}") from None
        if len(vectors) != len(batch):
            raise ModelOutputError("embedding reply has the wrong number of vectors")
        return vectors, _embedding_usage(payload.get("usage"), batch)

"""Rerankers: a second opinion on /query's fused candidates, behind one protocol.

Two kinds serve it:

- `RerankApi`: the `/rerank` endpoint embedding servers serve. Cohere, Jina, vLLM,
  Infinity, the llama.cpp server and OpenVINO Model Server take `{model, query, documents,
  top_n}` and answer `{results: [{index, relevance_score}]}`; Hugging Face's
  text-embeddings-inference (TEI) takes `{query, texts}` and answers `[{index, score}]`.
  The request shape is chosen by the provider name; either answer shape is read.
- `ChatReranker`: a chat model ranking the numbered candidates in one structured call
  (listwise: one call per query, not one per candidate), its rules in `prompts/rerank.md`.

A reranker answers with candidate indexes, best first; it may leave some out (a `top_n`
cut, or a model that listed only the relevant ones). What it leaves out keeps the order
the caller gave. Every call is bounded by the request deadline (models/deadline.py) and
books its usage (stage `rerank`) like the other model calls.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Protocol, runtime_checkable

import httpx
from pydantic import BaseModel, ConfigDict, Field

from memwarden.models.base import (
    MAX_REPLY_BYTES,
    JsonProvider,
    ModelOutputError,
    ModelRequestRejected,
    ModelSpec,
    ModelTransportError,
    Usage,
    UsageSink,
    check_reply_bounds,
)
from memwarden.models.deadline import time_left

STAGE = "rerank"
STAGE_HEADER = "X-Memwarden-Stage"
API_PROVIDERS = frozenset({"rerank", "cohere", "jina", "infinity"})
"""Providers whose `/rerank` takes `{model, query, documents, top_n}`."""
TEI_PROVIDERS = frozenset({"tei"})
"""Providers whose `/rerank` takes `{query, texts}` (text-embeddings-inference)."""
API_DOCUMENT_CHARS = 2000
"""A candidate's text as sent to a `/rerank` endpoint (servers truncate to their window too)."""
CHAT_DOCUMENT_CHARS = 500
"""A candidate's text as a chat model reads it: 50 of them stay within a small context."""
MAX_CANDIDATES = 200


@dataclass(frozen=True, slots=True)
class RerankResult:
    """Candidate indexes with their relevance, best first; `usage` is what the call cost."""

    order: list[tuple[int, float]]
    usage: Usage
    model: str


@runtime_checkable
class Reranker(Protocol):
    """What the query path needs from a reranker."""

    @property
    def description(self) -> str: ...

    async def rerank(
        self, query: str, documents: Sequence[str], *, usage_sink: UsageSink | None = None
    ) -> RerankResult: ...

    async def aclose(self) -> None: ...


def _estimate(texts: Sequence[str]) -> int:
    return sum(math.ceil(len(t) / 4) for t in texts)


def _score(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ModelOutputError("rerank reply has a score that is not a finite number")
    return float(value)


def parse_rerank_reply(payload: Any, count: int) -> list[tuple[int, float]]:
    """(index, score) pairs, best first, from either answer shape.

    `{results: [{index, relevance_score}]}` (Cohere, Jina, vLLM, Infinity, llama.cpp) or a
    list of `{index, score}` (TEI). An index out of range or given twice is an unreadable
    reply, not something to guess around; a reply may leave candidates out."""
    rows = payload.get("results") if isinstance(payload, dict) else payload
    if not isinstance(rows, list):
        raise ModelOutputError("rerank reply has no results list")
    out: list[tuple[int, float]] = []
    seen: set[int] = set()
    for row in rows:
        if not isinstance(row, dict):
            raise ModelOutputError("rerank reply has a result that is not an object")
        index = row.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise ModelOutputError("rerank reply names a candidate that was not sent")
        if index in seen:
            raise ModelOutputError("rerank reply names a candidate twice")
        seen.add(index)
        raw = row["relevance_score"] if "relevance_score" in row else row.get("score")
        out.append((index, _score(raw)))
    out.sort(key=lambda pair: -pair[1])  # stable: ties keep the reply's order
    return out


def _api_usage(payload: Any, sent: Sequence[str]) -> Usage:
    """Tokens as the server reports them (`usage.prompt_tokens` or `total_tokens`), else
    chars/4, so a Context's budget still moves (Cohere bills search units, not tokens)."""
    usage = payload.get("usage") if isinstance(payload, dict) else None
    if isinstance(usage, dict):
        for key in ("prompt_tokens", "total_tokens"):
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                return Usage(value, 0)
    return Usage(_estimate(sent), 0, estimated=True)


class RerankApi:
    """A Reranker over a `/rerank` endpoint (`{base_url}/rerank`)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | None = None,
        tei: bool = False,
        timeout_s: float = 5.0,
        max_retries: int = 1,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self.model = model
        self.url = base_url.rstrip("/") + "/rerank"
        self.tei = tei
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.AsyncClient(headers=headers, follow_redirects=False)

    @property
    def description(self) -> str:
        shape = "tei" if self.tei else "rerank"
        return f"{shape}:{self.model} at {httpx.URL(self.url).host}"

    async def aclose(self) -> None:
        await self._client.aclose()

    def body(self, query: str, documents: Sequence[str]) -> dict[str, Any]:
        """The request: TEI's own shape, or the one the others share."""
        if self.tei:
            return {"query": query, "texts": list(documents), "truncate": True}
        return {
            "model": self.model,
            "query": query,
            "documents": list(documents),
            "top_n": len(documents),
        }

    async def rerank(
        self, query: str, documents: Sequence[str], *, usage_sink: UsageSink | None = None
    ) -> RerankResult:
        sent = [d[:API_DOCUMENT_CHARS] for d in documents]
        if not sent:
            return RerankResult([], Usage(), self.model)
        payload = await self._post(self.body(query, sent))
        order = parse_rerank_reply(payload, len(sent))
        usage = _api_usage(payload, [query, *sent])
        model = payload.get("model") if isinstance(payload, dict) else None
        model = model if isinstance(model, str) and model else self.model
        if usage_sink is not None:
            await usage_sink.book(STAGE, model, usage)
        return RerankResult(order, usage, model)

    async def _post(self, body: dict[str, Any]) -> Any:
        """One call with bounded retries (connection errors, timeouts, 429, 5xx), all of it
        inside the request deadline; a body larger than the reply bound is refused."""
        attempt = 0
        while True:
            left = time_left()
            if left is not None and left <= 0:
                raise ModelTransportError("rerank skipped: the request deadline has passed")
            budget = self.timeout_s if left is None else min(self.timeout_s, left)
            try:
                async with asyncio.timeout(budget):
                    return await self._once(body, budget)
            except ModelRequestRejected:
                raise
            except (ModelTransportError, TimeoutError) as exc:
                attempt += 1
                if attempt > self.max_retries:
                    if isinstance(exc, TimeoutError):
                        raise ModelTransportError("rerank endpoint timed out") from None
                    raise
                await asyncio.sleep(0.1 * 2 ** (attempt - 1))

    async def _once(self, body: dict[str, Any], timeout: float) -> Any:
        try:
            async with self._client.stream(
                "POST", self.url, json=body, headers={STAGE_HEADER: STAGE}, timeout=timeout
            ) as response:
                raw = bytearray()
                async for part in response.aiter_bytes():
                    raw += part
                    if len(raw) > MAX_REPLY_BYTES:
                        raise ModelOutputError("rerank reply is larger than the bound")
                status = response.status_code
        except httpx.HTTPError as exc:
            raise ModelTransportError(f"rerank endpoint failed: {type(exc).__name__}") from None
        if status in (408, 409, 429) or status >= 500:
            raise ModelTransportError(f"rerank endpoint failed with HTTP {status}")
        if status >= 400:
            message = f"rerank endpoint rejected the request: HTTP {status}"
            raise ModelRequestRejected(message, status)
        check_reply_bounds(bytes(raw), "rerank reply")
        try:
            return json.loads(bytes(raw))
        except (ValueError, RecursionError) as exc:
            raise ModelOutputError(f"rerank reply is not JSON: {type(exc).__name__}") from None


class RerankOutput(BaseModel):
    """The chat scorer's contract: candidate numbers, most relevant first."""

    model_config = ConfigDict(extra="ignore")

    ranking: list[int] = Field(max_length=MAX_CANDIDATES)


@lru_cache(maxsize=1)
def rerank_prompt() -> str:
    """The chat scorer's rules (prompts/rerank.md), versioned with the code."""
    source = resources.files("memwarden").joinpath("prompts", "rerank.md")
    return source.read_text(encoding="utf-8").strip()


def chat_user_message(query: str, documents: Sequence[str]) -> str:
    """The question and the numbered candidates, as untrusted text in delimited blocks."""
    lines = [f"<<<QUESTION\n{query.strip()}\nQUESTION>>>", "", "<<<CANDIDATES"]
    for n, text in enumerate(documents, start=1):
        flat = " ".join(text.split())[:CHAT_DOCUMENT_CHARS]
        lines.append(f"[{n}] {flat}")
    lines.append("CANDIDATES>>>")
    return "\n".join(lines)


def order_from_ranking(ranking: Sequence[int], count: int) -> list[tuple[int, float]]:
    """The model's numbers (1-based) as (index, score) pairs, best first.

    Numbers out of range and repeats are dropped (a small model repeats itself); the
    score falls from 1 with the place given, so it says rank, not calibrated relevance."""
    seen: list[int] = []
    for number in ranking:
        index = number - 1
        if 0 <= index < count and index not in seen:
            seen.append(index)
    return [(index, 1.0 - place / count) for place, index in enumerate(seen)]


class ChatReranker:
    """A Reranker over a chat model: one listwise structured call per query."""

    def __init__(self, provider: JsonProvider, *, max_candidates: int = 50) -> None:
        self.provider = provider
        self.max_candidates = max_candidates

    @property
    def description(self) -> str:
        return f"listwise chat scorer, {self.provider.description}"

    async def aclose(self) -> None:
        return None  # the chat provider belongs to the model registry, which closes it

    async def rerank(
        self, query: str, documents: Sequence[str], *, usage_sink: UsageSink | None = None
    ) -> RerankResult:
        docs = list(documents)[: self.max_candidates]
        if not docs:
            return RerankResult([], Usage(), "")
        schema = RerankOutput.model_json_schema()
        schema["properties"]["ranking"]["maxItems"] = len(docs)
        schema["title"] = "rerank"
        result = await self.provider.complete_json(
            STAGE,
            rerank_prompt(),
            chat_user_message(query, docs),
            schema,
            16 + 4 * len(docs),
            usage_sink=usage_sink,
        )
        ranking = RerankOutput.model_validate(result.data).ranking
        return RerankResult(order_from_ranking(ranking, len(docs)), result.usage, result.model)


ChatProviderFor = Callable[[ModelSpec], JsonProvider]


def build_reranker(
    spec: str | None,
    *,
    base_url: str | None,
    api_key: str | None,
    timeout_s: float,
    max_retries: int,
    max_candidates: int,
    chat_provider: ChatProviderFor,
    chat_providers: frozenset[str],
) -> Reranker | None:
    """The reranker a `provider:model` names, or None (no reranking) when none is set.

    `rerank:`, `cohere:`, `jina:`, `infinity:` and `tei:` are `/rerank` endpoints; an
    OpenAI-compatible provider (`openai:`, `vllm:`, `ollama:` ...) is a chat model scoring
    listwise. Anything else is a deployment error raised at start-up."""
    if not spec or not spec.strip():
        return None
    parsed = ModelSpec.parse(spec)
    if parsed.provider in API_PROVIDERS or parsed.provider in TEI_PROVIDERS:
        if not base_url:
            raise ValueError(
                "MEMWARDEN_MODEL_RERANK names a /rerank endpoint but no base URL is set "
                "(MEMWARDEN_RERANK_BASE_URL or MEMWARDEN_OPENAI_BASE_URL)"
            )
        return RerankApi(
            parsed.model,
            base_url=base_url,
            api_key=api_key,
            tei=parsed.provider in TEI_PROVIDERS,
            timeout_s=timeout_s,
            max_retries=max_retries,
        )
    if parsed.provider in chat_providers:
        return ChatReranker(chat_provider(parsed), max_candidates=max_candidates)
    raise ValueError(f"stage rerank: unknown provider {parsed.provider!r}")

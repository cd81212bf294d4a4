"""Bootstrap: build each stage's provider from plain deployment values.

Takes plain values (not the settings object) so tests and the CLI can wire models
without the environment. Fallbacks are explicit: no extraction model means the
rule extractor, no embedding model means the local embedder, and no judge, chat,
adjudication or hygiene model means `None`, which the caller must handle.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memwarden.models.base import (
    ChatProvider,
    Embedder,
    JsonProvider,
    ModelSpec,
    Stage,
    StructuredOutputMode,
)
from memwarden.models.local_embedder import (
    EmbedderUnavailable,
    LocalEmbedder,
    default_model_path,
    default_tokenizer_path,
)
from memwarden.models.openai_compat import OpenAICompatEmbedder, OpenAICompatProvider
from memwarden.models.rule_extractor import RuleExtractor

OPENAI_PROVIDERS = frozenset({"openai", "openai-compatible", "vllm", "ollama", "llamacpp"})
LOCAL_EMBEDDER_MODELS = frozenset({"minilm", "all-minilm-l6-v2", "all-minilm-l6-v2-int8"})
RULE_MODELS = frozenset({"rules", "rule", "rule-based"})


@dataclass(frozen=True, slots=True)
class ModelSettings:
    """The deployment's model choices, as plain values."""

    base_url: str | None = None
    api_key: str | None = None
    stages: Mapping[str, str | None] = field(default_factory=dict)
    structured_output: str = StructuredOutputMode.JSON_SCHEMA.value
    timeout_s: float = 30.0
    max_retries: int = 2
    embed_threads: int | None = None
    embedding_dimensions: int | None = None


@dataclass(frozen=True, slots=True)
class StageHealth:
    stage: str
    provider: str
    configured: bool
    ok: bool | None
    detail: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "provider": self.provider,
            "configured": self.configured,
            "ok": self.ok,
            "detail": self.detail,
        }


def _spec(settings: ModelSettings, stage: Stage) -> ModelSpec | None:
    raw = settings.stages.get(stage.value)
    return ModelSpec.parse(raw) if raw and raw.strip() else None


class Models:
    """The providers of one deployment; shared by every request of the process."""

    def __init__(self, settings: ModelSettings) -> None:
        self.settings = settings
        self.mode = StructuredOutputMode(settings.structured_output)
        self.specs: dict[str, ModelSpec | None] = {s.value: _spec(settings, s) for s in Stage}
        self._chat_cache: dict[str, OpenAICompatProvider] = {}
        self.judge: ChatProvider | None = self._optional_chat(Stage.JUDGE)
        self.adjudication: ChatProvider | None = self._optional_chat(Stage.ADJUDICATION)
        self.hygiene: ChatProvider | None = self._optional_chat(Stage.HYGIENE)
        self.chat: ChatProvider | None = self._optional_chat(Stage.CHAT)
        self.extraction: JsonProvider = self._extraction()
        self.embedder: Embedder = self._embedder()

    def _optional_chat(self, stage: Stage) -> ChatProvider | None:
        spec = self.specs[stage.value]
        return None if spec is None else self.chat_provider(spec, stage)

    def _extraction(self) -> JsonProvider:
        spec = self.specs[Stage.EXTRACTION.value]
        if spec is None or _is_rules(spec):
            return RuleExtractor()
        return self.chat_provider(spec, Stage.EXTRACTION)

    def _embedder(self) -> Embedder:
        spec = self.specs[Stage.EMBEDDING.value]
        if spec is None or spec.provider == "local":
            if spec is not None and spec.model.lower() not in LOCAL_EMBEDDER_MODELS:
                raise ValueError(f"unknown local embedding model {spec.model!r}")
            return LocalEmbedder(threads=self.settings.embed_threads)
        if spec.provider in OPENAI_PROVIDERS:
            return OpenAICompatEmbedder(
                spec.model,
                base_url=self.settings.base_url,
                api_key=self.settings.api_key,
                dimensions=self.settings.embedding_dimensions,
                timeout_s=self.settings.timeout_s,
                max_retries=self.settings.max_retries,
            )
        raise ValueError(f"unknown embedding provider {spec.provider!r}")

    def chat_provider(self, spec: ModelSpec | str, stage: Stage | str = "") -> OpenAICompatProvider:
        """The provider for a `provider:model` (e.g. a Context's choice); one client per model."""
        spec = ModelSpec.parse(spec) if isinstance(spec, str) else spec
        if spec.provider not in OPENAI_PROVIDERS:
            raise ValueError(f"stage {str(stage) or '?'}: unknown model provider {spec.provider!r}")
        provider = self._chat_cache.get(spec.model)
        if provider is None:
            provider = OpenAICompatProvider(
                spec.model,
                base_url=self.settings.base_url,
                api_key=self.settings.api_key,
                mode=self.mode,
                timeout_s=self.settings.timeout_s,
                max_retries=self.settings.max_retries,
            )
            self._chat_cache[spec.model] = provider
        return provider

    def extraction_provider(self, spec: str | None) -> JsonProvider:
        """A Context's extraction choice for background work, or the deployment default."""
        if not spec:
            return self.extraction
        parsed = ModelSpec.parse(spec)
        if _is_rules(parsed):
            return RuleExtractor()
        return self.chat_provider(parsed, Stage.EXTRACTION)

    async def health(
        self, *, check_remote: bool = True, timeout_s: float = 5.0
    ) -> list[StageHealth]:
        """Per stage: what serves it and whether it answers (remote) or is loadable (local)."""
        pings: dict[str, bool | None] = {}
        if check_remote:
            models = list(self._chat_cache)
            results = await asyncio.gather(*(_ping(self._chat_cache[m], timeout_s) for m in models))
            pings = dict(zip(models, results, strict=True))
        out: list[StageHealth] = []
        for stage in (Stage.JUDGE, Stage.EXTRACTION, Stage.ADJUDICATION, Stage.HYGIENE, Stage.CHAT):
            provider = getattr(self, stage.value)
            spec = self.specs[stage.value]
            if provider is None:
                out.append(StageHealth(stage.value, "none", False, None, "no model configured"))
            elif isinstance(provider, OpenAICompatProvider):
                ok = pings.get(provider.model)
                detail = "not checked" if ok is None else ("reachable" if ok else "unreachable")
                out.append(StageHealth(stage.value, provider.description, True, ok, detail))
            else:
                out.append(
                    StageHealth(
                        stage.value, provider.description, spec is not None, True, "built in"
                    )
                )
        out.append(self._embedder_health())
        return out

    def _embedder_health(self) -> StageHealth:
        configured = self.specs[Stage.EMBEDDING.value] is not None
        embedder = self.embedder
        if isinstance(embedder, LocalEmbedder):
            if embedder.loaded:
                return StageHealth("embedding", embedder.description, configured, True, "loaded")
            try:
                found = default_model_path().is_file() and default_tokenizer_path().is_file()
            except EmbedderUnavailable as exc:
                return StageHealth("embedding", embedder.description, configured, False, str(exc))
            detail = "files present, loads on first use" if found else "model files missing"
            return StageHealth("embedding", embedder.description, configured, found, detail)
        description = getattr(embedder, "description", embedder.name)
        return StageHealth("embedding", description, configured, None, "remote, not checked")

    async def aclose(self) -> None:
        for provider in self._chat_cache.values():
            await provider.aclose()
        if isinstance(self.embedder, OpenAICompatEmbedder):
            self.embedder.close()


def _is_rules(spec: ModelSpec) -> bool:
    return spec.provider == "rules" or (spec.provider == "local" and spec.model in RULE_MODELS)


async def _ping(provider: OpenAICompatProvider, timeout_s: float) -> bool:
    try:
        return await asyncio.wait_for(provider.ping(), timeout_s)
    except TimeoutError:
        return False


def build_models(settings: ModelSettings) -> Models:
    """Validate the choices and build every stage's provider (no network, no model load)."""
    return Models(settings)

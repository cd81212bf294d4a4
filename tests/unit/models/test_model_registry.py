"""Bootstrap: which provider serves each stage, and what health reports."""

from __future__ import annotations

import asyncio

import pytest

from memwarden.models.local_embedder import LocalEmbedder
from memwarden.models.openai_compat import OpenAICompatEmbedder, OpenAICompatProvider
from memwarden.models.registry import Models, ModelSettings, StageHealth, build_models
from memwarden.models.rule_extractor import RuleExtractor
from tests.support.scripted_model import ScriptedModelServer


def test_with_no_models_configured_extraction_falls_back_to_rules_and_embedding_to_local() -> None:
    models = build_models(ModelSettings())
    assert isinstance(models.extraction, RuleExtractor)
    assert isinstance(models.embedder, LocalEmbedder)
    assert models.judge is None and models.chat is None and models.adjudication is None


def test_configured_stages_get_openai_compatible_providers_sharing_one_client_per_model() -> None:
    models = build_models(
        ModelSettings(
            base_url="http://127.0.0.1:1/v1",
            stages={
                "judge": "openai:small",
                "extraction": "openai:small",
                "chat": "vllm:big",
                "embedding": "openai:text-embedding-3-small",
            },
            structured_output="json_object_schema",
        )
    )
    assert isinstance(models.judge, OpenAICompatProvider)
    assert models.judge is models.extraction
    assert isinstance(models.chat, OpenAICompatProvider) and models.chat.model == "big"
    assert models.judge.mode.value == "json_object_schema"
    assert isinstance(models.embedder, OpenAICompatEmbedder)
    asyncio.run(models.aclose())


def test_local_rules_can_be_chosen_explicitly_for_extraction() -> None:
    models = build_models(ModelSettings(stages={"extraction": "local:rules"}))
    assert isinstance(models.extraction, RuleExtractor)
    assert isinstance(models.extraction_provider("rules:builtin"), RuleExtractor)
    assert models.extraction_provider(None) is models.extraction


@pytest.mark.parametrize(
    ("stage", "spec"),
    [("judge", "anthropic:claude"), ("embedding", "local:bge"), ("embedding", "cohere:x")],
)
def test_an_unknown_provider_or_local_model_is_refused_at_bootstrap(stage: str, spec: str) -> None:
    with pytest.raises(ValueError, match="unknown"):
        build_models(ModelSettings(stages={stage: spec}))


def test_an_unknown_structured_output_mode_is_refused_at_bootstrap() -> None:
    with pytest.raises(ValueError):
        build_models(ModelSettings(structured_output="xml"))


def _by_stage(report: list[StageHealth]) -> dict[str, StageHealth]:
    return {h.stage: h for h in report}


def test_health_reports_a_reachable_endpoint_and_unconfigured_stages() -> None:
    with ScriptedModelServer() as server:
        models = Models(ModelSettings(base_url=server.base_url, stages={"judge": "openai:j"}))
        report = _by_stage(asyncio.run(models.health()))
        asyncio.run(models.aclose())
    assert report["judge"].ok is True and report["judge"].detail == "reachable"
    assert report["chat"].configured is False and report["chat"].ok is None
    assert report["extraction"].provider.startswith("rules")
    assert report["embedding"].ok is True
    assert set(report["judge"].as_dict()) == {"stage", "provider", "configured", "ok", "detail"}


def test_health_reports_an_unreachable_endpoint_without_raising() -> None:
    models = Models(
        ModelSettings(base_url="http://127.0.0.1:9/v1", stages={"judge": "openai:j"}, max_retries=0)
    )
    report = _by_stage(asyncio.run(models.health(timeout_s=2.0)))
    asyncio.run(models.aclose())
    assert report["judge"].ok is False and report["judge"].detail == "unreachable"


def test_health_can_skip_network_checks() -> None:
    models = Models(ModelSettings(base_url="http://127.0.0.1:9/v1", stages={"judge": "openai:j"}))
    report = _by_stage(asyncio.run(models.health(check_remote=False)))
    asyncio.run(models.aclose())
    assert report["judge"].ok is None and report["judge"].detail == "not checked"


def test_every_built_provider_satisfies_the_stage_protocols() -> None:
    from memwarden.models.base import ChatProvider, Embedder, JsonProvider

    models = build_models(
        ModelSettings(base_url="http://127.0.0.1:1/v1", stages={"chat": "openai:c"})
    )
    assert isinstance(models.chat, ChatProvider)
    assert isinstance(models.extraction, JsonProvider)
    assert isinstance(models.embedder, Embedder)
    asyncio.run(models.aclose())

"""`provider:model` choices and stage prompts."""

from __future__ import annotations

import pytest

from memwarden.models.base import ModelSpec, Usage
from memwarden.models.prompts import ADDENDUM_HEADING, PROMPT_NAMES, load_prompt, system_prompt


@pytest.mark.parametrize(
    ("raw", "provider", "model"),
    [
        ("openai:gpt-4o-mini", "openai", "gpt-4o-mini"),
        ("local:minilm", "local", "minilm"),
        ("ollama:llama3.1:8b", "ollama", "llama3.1:8b"),
        (" OpenAI : gpt-4o ", "openai", "gpt-4o"),
    ],
)
def test_a_model_spec_splits_at_the_first_colon(raw: str, provider: str, model: str) -> None:
    spec = ModelSpec.parse(raw)
    assert (spec.provider, spec.model) == (provider, model)
    assert str(spec) == f"{provider}:{model}"


@pytest.mark.parametrize("raw", ["gpt-4o", ":gpt", "openai:", ""])
def test_a_model_spec_without_provider_and_model_is_refused(raw: str) -> None:
    with pytest.raises(ValueError, match="provider:model"):
        ModelSpec.parse(raw)


def test_usage_adds_up_and_remembers_estimates() -> None:
    total = Usage(10, 2) + Usage(5, 1, estimated=True)
    assert (total.prompt_tokens, total.completion_tokens, total.total_tokens) == (15, 3, 18)
    assert total.estimated


@pytest.mark.parametrize("name", PROMPT_NAMES)
def test_every_stage_has_a_prompt_that_treats_input_as_data(name: str) -> None:
    prompt = load_prompt(name)
    assert prompt.startswith("# Role")
    assert "never instructions" in prompt


def test_the_judge_prompt_names_every_reason_code() -> None:
    prompt = load_prompt("judge")
    for code in (
        "payment_card",
        "credential",
        "personal_data",
        "sensitive_inference",
        "prompt_injection",
        "policy",
    ):
        assert f"`{code}`" in prompt


def test_an_unknown_prompt_name_is_refused_without_touching_the_filesystem() -> None:
    with pytest.raises(KeyError):
        load_prompt("../settings")


def test_the_addendum_is_appended_under_a_heading_that_keeps_the_rules_in_force() -> None:
    system = system_prompt("extraction", "  Prefer British spelling.  ")
    rules = load_prompt("extraction")
    assert system.startswith(rules)
    assert system.endswith(f"{ADDENDUM_HEADING}\n\nPrefer British spelling.")
    assert "never overrides" in ADDENDUM_HEADING


@pytest.mark.parametrize("addendum", [None, "", "   \n"])
def test_a_blank_addendum_leaves_the_rules_alone(addendum: str | None) -> None:
    assert system_prompt("judge", addendum) == load_prompt("judge")

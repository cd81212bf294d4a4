"""The Context configuration schema and its partial-update merge (pure)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memwarden.config import (
    ADDENDUM_MAX_CHARS,
    ConfigInvalid,
    ConfigUnreadable,
    ContextConfig,
    apply_patch,
    dump_config,
    load_config,
    merge_patch,
)

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
json_obj = st.recursive(
    st.dictionaries(st.text(max_size=4), json_leaf, max_size=4),
    lambda children: st.dictionaries(st.text(max_size=4), children | json_leaf, max_size=4),
    max_leaves=12,
)


@given(json_obj)
def test_merging_an_empty_patch_changes_nothing(current: dict[str, Any]) -> None:
    assert merge_patch(current, {}) == current


@given(json_obj, json_obj)
def test_every_patched_leaf_wins_and_omitted_keys_stay(
    current: dict[str, Any], patch: dict[str, Any]
) -> None:
    merged = merge_patch(current, patch)
    for key, value in current.items():
        if key not in patch:
            assert merged[key] == value
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(current.get(key), dict):
            assert merged[key] == merge_patch(current[key], value)
        else:
            assert merged[key] == value


@given(json_obj, json_obj)
def test_merging_the_same_patch_twice_is_idempotent(
    current: dict[str, Any], patch: dict[str, Any]
) -> None:
    once = merge_patch(current, patch)
    assert merge_patch(once, patch) == once


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "enabled": st.booleans(),
            "on_error": st.sampled_from(["fail", "allow"]),
            "on_warn": st.sampled_from(["write", "hold"]),
            "retention_days": st.integers(0, 3650),
        },
    )
)
def test_a_valid_judge_patch_keeps_every_other_setting(judge: dict[str, Any]) -> None:
    current = apply_patch(ContextConfig(), {"pii_redaction_enabled": True})
    updated = apply_patch(current, {"judge": judge})
    assert updated.pii_redaction_enabled is True
    for key, value in judge.items():
        assert getattr(updated.judge, key) == value


def test_defaults_match_the_documented_judge_settings() -> None:
    judge = ContextConfig().judge
    assert (judge.enabled, judge.input, judge.rows) == (False, True, True)
    assert (judge.on_error, judge.on_warn, judge.record_pass) == ("fail", "write", True)
    assert (judge.retention_days, judge.retain_inputs) == (30, False)


def test_an_empty_string_clears_an_addendum() -> None:
    cfg = apply_patch(ContextConfig(), {"prompt_addendums": {"judge": "be strict"}})
    assert cfg.prompt_addendums.judge == "be strict"
    cleared = apply_patch(cfg, {"prompt_addendums": {"judge": ""}})
    assert cleared.prompt_addendums.judge is None


def test_an_addendum_of_exactly_the_limit_is_accepted_and_one_more_is_not() -> None:
    apply_patch(ContextConfig(), {"prompt_addendums": {"chat": "x" * ADDENDUM_MAX_CHARS}})
    with pytest.raises(ConfigInvalid) as exc:
        apply_patch(ContextConfig(), {"prompt_addendums": {"chat": "x" * (ADDENDUM_MAX_CHARS + 1)}})
    assert exc.value.field == "prompt_addendums.chat"


@pytest.mark.parametrize("char", ["\x00", "\x07", "\r", "\x1b", "\x7f", "\x85"])
def test_control_characters_other_than_newline_and_tab_are_refused(char: str) -> None:
    with pytest.raises(ConfigInvalid):
        apply_patch(ContextConfig(), {"prompt_addendums": {"judge": f"a{char}b"}})


def test_newline_and_tab_are_allowed_in_an_addendum() -> None:
    cfg = apply_patch(ContextConfig(), {"prompt_addendums": {"judge": "a\n\tb"}})
    assert cfg.prompt_addendums.judge == "a\n\tb"


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"judge": {"enabledd": True}}, "judge.enabledd"),
        ({"nope": 1}, "nope"),
        ({"judge": {"on_error": "maybe"}}, "judge.on_error"),
        ({"judge": {"retention_days": -1}}, "judge.retention_days"),
        ({"judge": {"retention_days": 3651}}, "judge.retention_days"),
        ({"judge": {"enabled": "yes please"}}, "judge.enabled"),
        ({"token_budget": {"limit": -5}}, "token_budget.limit"),
        ({"hygiene": {"band_low": 1.5}}, "hygiene.band_low"),
        ({"models": {"judge": {"provider": "openai"}}}, "models.judge.model"),
    ],
)
def test_bad_patches_name_the_failing_field(patch: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigInvalid) as exc:
        apply_patch(ContextConfig(), patch)
    assert exc.value.field == field


def test_a_stored_configuration_that_does_not_validate_is_unreadable() -> None:
    with pytest.raises(ConfigUnreadable):
        load_config({"judge": {"on_error": 42}})
    with pytest.raises(ConfigUnreadable):
        load_config("not an object")


def test_a_dumped_configuration_reads_back_the_same() -> None:
    cfg = apply_patch(ContextConfig(), {"judge": {"enabled": True, "on_warn": "hold"}})
    assert load_config(dump_config(cfg)) == cfg


def test_a_configuration_stored_with_the_old_band_names_reads_them_as_the_new_ones() -> None:
    cfg = load_config({"hygiene": {"review_band_low": 0.6, "review_band_high": 0.9}})
    assert (cfg.hygiene.band_low, cfg.hygiene.band_high) == (0.6, 0.9)
    assert "review_band_low" not in dump_config(cfg)["hygiene"]

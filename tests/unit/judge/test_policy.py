"""The verdict policy: severity order, the most severe wins, fixed reason codes only."""

from __future__ import annotations

import itertools

import pytest

from memwarden.judge.policy import (
    SEVERITY,
    combine,
    is_holdable_source,
    is_replayable_source,
    most_severe,
    normalise_reasons,
    severity,
)


def test_severity_orders_pass_warn_fail_deny() -> None:
    assert [severity(v) for v in ("pass", "warn", "fail", "deny")] == [0, 1, 2, 3]
    assert SEVERITY == ("pass", "warn", "fail", "deny")


def test_an_unknown_verdict_is_an_error_not_a_guess() -> None:
    with pytest.raises(ValueError):
        severity("maybe")


@pytest.mark.parametrize("verdicts", list(itertools.product(SEVERITY, repeat=3)))
def test_the_most_severe_verdict_of_any_signal_applies(verdicts: tuple[str, ...]) -> None:
    expected = max(verdicts, key=SEVERITY.index)
    assert most_severe(verdicts) == expected
    assert most_severe(reversed(verdicts)) == expected


def test_no_signal_at_all_is_a_pass() -> None:
    assert most_severe([]) == "pass"


def test_free_text_reasons_become_policy_and_never_repeat_content() -> None:
    reasons = normalise_reasons(["Card 4111 1111 1111 1111 found", "credential", 7, None])
    assert reasons == ("credential", "policy")


def test_reasons_are_deduplicated_and_in_the_fixed_order() -> None:
    got = normalise_reasons(["policy", "prompt_injection", "PAYMENT_CARD", "injection", "card"])
    assert got == ("payment_card", "prompt_injection", "policy")


def test_combining_keeps_every_concern_of_a_non_pass_signal() -> None:
    verdict, reasons = combine([("warn", ["personal_data"]), ("fail", ["credential"])])
    assert verdict == "fail"
    assert reasons == ("credential", "personal_data")


def test_a_pass_signal_contributes_no_reasons() -> None:
    assert combine([("pass", ["credential"]), ("pass", [])]) == ("pass", ())
    assert combine([("pass", ["credential"]), ("warn", ["personal_data"])]) == (
        "warn",
        ("personal_data",),
    )


def test_a_refusal_without_a_reason_is_given_the_policy_code() -> None:
    assert combine([("fail", [])]) == ("fail", ("policy",))


def test_facts_and_the_background_passes_can_be_held_and_only_facts_replayed() -> None:
    for source in ("facts", "facts_batch"):
        assert is_holdable_source(source) and is_replayable_source(source)
    # A pass's warned rows are held under on_warn=hold "exactly like a turn" (issue 12);
    # there is no request to replay, the next run derives again.
    for source in ("consolidation", "elaboration", "rollup", "gist"):
        assert is_holdable_source(source) and not is_replayable_source(source)
    for source in ("chat", "document", "reflection"):
        assert not is_holdable_source(source) and not is_replayable_source(source)

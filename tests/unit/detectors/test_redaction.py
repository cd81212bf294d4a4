"""Redaction: typed placeholders, merged overlaps, idempotent, nothing detected survives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memwarden.detectors.findings import Finding
from memwarden.detectors.redaction import redact, redact_findings
from memwarden.detectors.scan import find_sensitive

SENSITIVE = [
    "4111 1111 1111 1111",
    "jane.doe@example.com",
    "password: Winter2024!",
    "SSN 123-45-6789",
    "IBAN GB82 WEST 1234 5698 7654 32",
    "call me on (202) 555-0143",
    "postgres://app:Tr0ub4dorX@db:5432/x",
    "AKIA" + "ABCDEFGHIJKLMNOP",
]
FILLER = st.text(alphabet="abcdefghij klmnop,.!?", max_size=40)


def test_card_is_replaced_by_a_typed_placeholder() -> None:
    result = redact("pay with 4111 1111 1111 1111 please")
    assert result.text == "pay with [REDACTED:payment_card] please"
    assert result.spans_by_code == {"payment_card": [(9, 28)]}


def test_overlapping_spans_are_merged_under_the_most_severe_code() -> None:
    findings = [
        Finding("personal_data", "a", 2, 8),
        Finding("credential", "b", 5, 12),
        Finding("personal_data", "c", 20, 22),
    ]
    result = redact_findings("0123456789abcdefghijklmn", findings)
    assert result.text == "01[REDACTED:credential]cdefghij[REDACTED:personal_data]mn"


def test_injection_findings_are_not_redacted() -> None:
    findings = [Finding("prompt_injection", "override", 0, 6)]
    assert redact_findings("ignore all that", findings).text == "ignore all that"


def test_text_without_findings_is_returned_unchanged() -> None:
    result = redact("We met for coffee and talked about books.")
    assert result.text == "We met for coffee and talked about books."
    assert not result.changed


def test_a_card_that_redaction_moves_out_of_a_labels_reach_is_redacted_too() -> None:
    # "po" labels numbers within 48 characters as purchase orders; the placeholder for the
    # password is longer than the password, which pushes the second number out of reach; the
    # first copy of the same digits goes with it.
    text = "po 4111 1111 1111 1111 password: Winter2024! 4111 1111 1111 1111"
    result = redact(text)
    assert result.text == (
        "po [REDACTED:payment_card] password: [REDACTED:credential] [REDACTED:payment_card]"
    )
    assert result.spans_by_code == {
        "payment_card": [(3, 22), (45, 64)],
        "credential": [(33, 44)],
    }
    assert find_sensitive(result.text) == []
    assert redact(result.text).text == result.text


def test_findings_do_not_depend_on_texts_scanned_before() -> None:
    first = "AKIA" + "ABCDEFGHIJKLMNOP ,m none " + "AKIA" + "ABCDEFGHIJKLMNOP 4111 1111 1111 1111"
    second = "po 4111 1111 1111 1111 password: Winter2024! 4111 1111 1111 1111"
    fresh = find_sensitive(second)
    find_sensitive(first)
    redact(first)
    assert find_sensitive(second) == fresh
    assert find_sensitive(redact(second).text) == []


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(st.one_of(FILLER, st.sampled_from(SENSITIVE)), max_size=6))
def test_redaction_is_idempotent(parts: list[str]) -> None:
    text = " ".join(parts)
    once = redact(text).text
    assert redact(once).text == once


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(st.one_of(FILLER, st.sampled_from(SENSITIVE)), max_size=6))
def test_no_detected_span_survives_redaction(parts: list[str]) -> None:
    text = " ".join(parts)
    redacted = redact(text).text
    for finding in find_sensitive(text):
        assert text[finding.start : finding.end] not in redacted
    assert find_sensitive(redacted) == []


@settings(max_examples=150, deadline=None)
@given(text=FILLER)
def test_non_sensitive_text_is_unchanged(text: str) -> None:
    assert redact(text).text == text


def test_a_placeholder_after_a_login_cue_is_not_read_as_a_user_and_password() -> None:
    once = redact("login 4111 1111 1111 1111").text
    assert once == "login [REDACTED:payment_card]"
    assert find_sensitive(once) == []
    assert redact(once).text == once


def test_every_copy_of_a_detected_value_is_redacted_even_where_a_label_excuses_it() -> None:
    # The first copy sits after "po" (a purchase order); the second is out of its reach.
    filler = "abcdefghij " * 3
    text = f"po 4111 1111 1111 1111 {filler} 4111 1111 1111 1111"
    result = redact(text)
    assert result.text == f"po [REDACTED:payment_card] {filler} [REDACTED:payment_card]"
    assert "4111" not in result.text


def test_a_copy_inside_a_longer_number_is_left_alone() -> None:
    text = "card 4111 1111 1111 1111 and part no 94111 1111 1111 11119"
    assert redact(text).text == "card [REDACTED:payment_card] and part no 94111 1111 1111 11119"

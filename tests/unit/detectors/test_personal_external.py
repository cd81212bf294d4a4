"""Personal data in the shapes other people's suites use: IBANs followed by words, phones of
other regions, e-mail addresses in any script, NI numbers in lower case.

Values are made here (IBAN check digits from stdnum's own function).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from stdnum import iban

from memwarden.detectors.personal import find_personal_data


def _iban(country: str, bban: str) -> str:
    return country + iban.calc_check_digits(country + "00" + bban) + bban


def _grouped(value: str) -> str:
    return " ".join(value[i : i + 4] for i in range(0, len(value), 4))


def _spans(text: str, detector: str) -> list[str]:
    return [text[f.start : f.end] for f in find_personal_data(text) if f.detector == detector]


_DE_BBAN = st.text(alphabet="0123456789", min_size=18, max_size=18)
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
                min_size=1, max_size=8)  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(_DE_BBAN, _WORD, st.booleans())
def test_an_iban_followed_by_any_word_is_still_found_whole(
    bban: str, word: str, grouped: bool
) -> None:
    value = _iban("DE", bban)
    written = _grouped(value) if grouped else value
    text = f"pay to {written} {word} today"
    assert written in _spans(text, "iban")


def test_an_iban_with_a_space_after_the_country_code_is_found() -> None:
    value = _iban("NL", "ABNA0123456789")
    written = f"{value[:2]} {value[2:4]} {_grouped(value[4:])}"
    assert _spans(f"rekening {written}", "iban") == [written]


def test_an_iban_with_a_wrong_check_digit_stays_unreported_even_before_a_word() -> None:
    value = _iban("DE", "123456781234567890")
    wrong = value[:2] + f"{(int(value[2:4]) + 1) % 100:02d}" + value[4:]
    assert not _spans(f"pay to {_grouped(wrong)} and more", "iban")


def test_a_national_phone_number_is_read_in_the_region_named_before_it() -> None:
    text = "my French mobile is 06 12 34 56 78"
    assert "06 12 34 56 78" in _spans(text, "phone")
    assert not _spans("lot 06 12 34 56 78", "phone")


def test_an_international_number_of_any_region_is_found() -> None:
    assert _spans("ring +81 3-1234-5678 tomorrow", "phone")


def test_email_addresses_in_other_scripts_and_quoted_local_parts_are_found() -> None:
    for address in ("mia@bücher.example", "ünal@posta.example", '"mia h"@example.org'):
        assert _spans(f"write to {address} please", "email") == [address]
    assert not _spans("write to mia@ please", "email")


def test_an_ni_number_in_lower_case_is_found_and_a_never_issued_prefix_is_not() -> None:
    assert _spans("nino ab123456c", "uk_nino") == ["ab123456c"]
    assert not _spans("national insurance NT 12 34 56 A", "uk_nino")
    assert _spans("national insurance number QQ 12 34 56 A", "uk_nino")


def test_digits_of_a_valid_us_number_grouped_unlike_a_phone_are_not_a_phone() -> None:
    # A Korean business registration number (3-2-5) and an Australian ABN (2-3-3-3) hold ten
    # digits that a US phone number could have; written in those groups they are not phones.
    for written in ("623-28-60129", "19 365 454 495"):
        assert not _spans(f"registered as {written}", "phone"), written
    for written in ("623-286-0129", "623 2860129", "(623) 286-0129"):
        assert _spans(f"registered as {written}", "phone"), written


def test_addresses_whose_script_needs_combining_marks_are_found_whole() -> None:
    # Devanagari vowel signs and virama, and a letter with two decomposed accents (NFD): none
    # of them is a word character to the regex module, all of them belong to the address.
    decomposed = "s\u0323\u0307"
    for address in ("राम@मोहन.ईन्फो", f"{decomposed}@nfc.example", f"ami@caf{'e'}\u0301.example"):
        assert _spans(f"write to {address} please", "email") == [address], address


def test_a_quoted_local_part_may_hold_an_at_sign_and_an_escaped_quote() -> None:
    for address in ('"quoted.with.at@"@example.com', '"say \\"hi\\""@example.com'):
        assert _spans(f"write to {address} please", "email") == [address], address
    # Without its closing quote the quote is not part of the address.
    assert _spans('write to "unterminated@example.com', "email") == ["unterminated@example.com"]


def test_the_phone_rule_keeps_phonenumbers_metadata_patterns_compiled_once() -> None:
    # Without it the `re` module's 512-entry cache recompiles libphonenumber's patterns on
    # every scan that touches many regions (measured in docs/judge.md; speed is not asserted).
    from phonenumbers import re_util

    assert re_util._COMPILED_PATTERNS is not None
    find_personal_data("call +81 3-1234-5678 or +44 20 7946 0321")
    assert re_util._COMPILED_PATTERNS

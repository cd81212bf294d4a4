"""Personal data: validated identifiers, contact details, and cue-word identifiers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stdnum import iban
from stdnum.iso7064 import mod_97_10
from stdnum.us import ssn

from memwarden.detectors.personal import find_personal_data


def _found(text: str) -> list[str]:
    return [text[f.start : f.end] for f in find_personal_data(text)]


def test_email_address_is_found() -> None:
    assert "jane.doe+news@example.org" in _found("write to jane.doe+news@example.org today")


@pytest.mark.parametrize(
    "text",
    [
        "call me on (202) 555-0143 after six",
        "my mobile is 07700 900123",
        "office: +44 20 7946 0321",
        "Phone: 555 0188",
    ],
)
def test_phone_numbers_are_found(text: str) -> None:
    assert find_personal_data(text)


def test_iban_with_valid_check_digits_is_found_and_invalid_is_not() -> None:
    assert find_personal_data("IBAN GB82 WEST 1234 5698 7654 32")
    assert find_personal_data("iban gb82west12345698765432")
    assert not find_personal_data("IBAN GB83 WEST 1234 5698 7654 32")


def _grouped(compact: str) -> str:
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def _iban(country: str, bban: str) -> str:
    return f"{country}{mod_97_10.calc_check_digits(bban + country)}{bban}"


def test_an_iban_whose_bank_stdnum_does_not_list_is_still_an_iban() -> None:
    # Belgian bank code 112 is missing from stdnum's bank list; the national check holds.
    account = "1121234567"
    value = _iban("BE", f"{account}{int(account) % 97:02d}")
    assert not iban.is_valid(value) and iban.is_valid(value, check_country=False)
    assert find_personal_data(f"pay to {_grouped(value)} please")
    # A wrong national check digit is still a wrong number.
    wrong = _iban("BE", f"{account}{(int(account) + 1) % 97:02d}")
    assert not find_personal_data(f"pay to {_grouped(wrong)} please")


def test_an_iban_of_a_country_outside_the_registry_is_held_to_its_mod_97_check() -> None:
    value = _iban("SN", "A01200100123456789012345")  # Senegal: IBANs SWIFT does not register
    assert find_personal_data(f"IBAN {_grouped(value)}")
    broken = value[:-1] + ("6" if value[-1] != "6" else "7")
    assert not find_personal_data(f"IBAN {_grouped(broken)}")
    # Two letters that are no country are no IBAN, whatever their check digits.
    assert not find_personal_data(f"code {_iban('QX', 'A01200100123456789012345')}")


def test_us_ssn_is_validated() -> None:
    assert find_personal_data("SSN 123-45-6789")
    assert not find_personal_data("code 000-12-3456")
    assert find_personal_data("social security number: 123456789")


def test_uk_national_insurance_number_is_found() -> None:
    assert find_personal_data("NI number AB 12 34 56 C")
    assert find_personal_data("National Insurance: QQ123456C")


def test_driving_licence_and_passport_need_a_cue_word() -> None:
    assert find_personal_data("my driver's license number is D1234567")
    assert find_personal_data("passport no. 533380006")
    assert not find_personal_data("the part is D1234567")


def test_public_ip_addresses_are_found() -> None:
    assert "8.8.4.4" in _found("blocked from 8.8.4.4 again")
    assert find_personal_data("client 2001:4860:4860::8888 connected")


def test_version_strings_and_private_addresses_are_not_ip_addresses() -> None:
    assert not find_personal_data("upgrade to version 2.4.1.9 now")
    assert not find_personal_data("released v1.2.3.4 yesterday")
    assert not find_personal_data("router at 192.168.1.1")
    assert not find_personal_data("meeting at 10:30:00")


def test_date_of_birth_needs_a_birth_cue() -> None:
    assert find_personal_data("DOB: 04/07/1986")
    assert find_personal_data("she was born on 12 March 1990")
    assert not find_personal_data("the release is on 12 March 1990")


def test_street_addresses_are_found() -> None:
    assert find_personal_data("She lives at 42 Harbour View, Leith")
    assert find_personal_data("send it to 1600 Example Avenue, Apt. 4")


@pytest.mark.parametrize(
    "text",
    [
        "What are my options?",
        "ticket 48213 is closed",
        "build 20240611 passed in 3.2 s",
        "the meeting id is 8831",
        "ISBN 978-3-16-148410-0",
        "trace 4bf92f3577b34da6a3ce929d0e0e4736",
    ],
)
def test_everyday_text_has_no_personal_data(text: str) -> None:
    assert not find_personal_data(text), _found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Case #50912347 reopened by the customer",
        "ticket 415-555-0199 merged into the parent",
        "PO 4511023987 approved by finance",
        "claim reference 6175550143 under review",
        "ref: 212-555-0148",
        "order_no=2125550123",
        "RMA 8005550100 received",
    ],
)
def test_record_numbers_introduced_by_their_label_are_not_phones(text: str) -> None:
    assert not find_personal_data(text), text


def test_a_phone_number_next_to_a_record_number_is_still_found() -> None:
    text = "Case 50912347: customer asks to be called back on (212) 555-0148"
    found = [text[f.start : f.end] for f in find_personal_data(text)]
    assert any("555-0148" in span for span in found), found


def test_a_contact_number_after_who_it_is_is_found() -> None:
    assert "07700 900321" in " ".join(_found("Emergency contact: dad, 07700 900321"))


def test_a_personal_address_and_more_street_kinds_are_found() -> None:
    assert _found("my personal address: 3 Alder Grove, York")
    assert _found("she moved to 12 Wren Mews last spring")


@pytest.mark.parametrize("text", ["15108695077", "it was 4155550132 then", "value 2019304211"])
def test_a_bare_run_of_digits_without_a_phone_word_is_not_a_phone(text: str) -> None:
    assert not [f for f in find_personal_data(text) if "phone" in f.detector]


@pytest.mark.parametrize(
    "text",
    [
        "ring 1-510-869-5077 tonight",
        "ring +15108695077 tonight",
        "ring (510) 869-5077 tonight",
        "my phone 15108695077",
        "call me on 07700900123",
    ],
)
def test_a_number_written_as_a_phone_or_after_a_phone_word_is_a_phone(text: str) -> None:
    assert [f for f in find_personal_data(text) if "phone" in f.detector]


@pytest.mark.parametrize("written", ["078-05-1123", "078.05.1123", "078 05 1123"])
def test_an_ssn_in_the_three_two_four_layout_is_found_with_any_one_separator(
    written: str,
) -> None:
    assert _found(f"applicant {written} on file") == [written]


@pytest.mark.parametrize("written", ["078-05 1123", "078.05-1123", "000 05 1123", "078 051 123"])
def test_mixed_separators_an_invalid_area_or_another_grouping_is_not_an_ssn(written: str) -> None:
    assert not any(f.detector == "us_ssn" for f in find_personal_data(f"applicant {written}"))


def test_after_an_ssn_or_itin_cue_nine_digits_in_any_grouping_are_found() -> None:
    assert _found("my ssn is 078-051123") == ["078-051123"]
    assert "911-701234" in _found("my itin is 911-701234")
    assert "911-701234" in _found("my taxpayer id is 911-701234 91170-1234")
    assert not _found("my ssn is 666-051123")  # area 666 is never issued


_SSN_PARTS = st.tuples(
    st.integers(min_value=1, max_value=899).filter(lambda a: a != 666),
    st.integers(min_value=1, max_value=99),
    st.integers(min_value=1, max_value=9999),
)


@given(_SSN_PARTS, st.sampled_from("-. "), st.sampled_from("-. "))
def test_a_valid_ssn_in_the_three_two_four_layout_is_found_only_with_one_separator(
    parts: tuple[int, int, int], first: str, second: str
) -> None:
    area, group, serial = parts
    written = f"{area:03d}{first}{group:02d}{second}{serial:04d}"
    found = [f for f in find_personal_data(f"on file: {written} ok") if f.detector == "us_ssn"]
    if first == second and ssn.is_valid(written.replace(first, "")):
        assert [(f.start, f.end) for f in found] == [(9, 9 + len(written))]
    else:
        assert not found

"""Card numbers: Luhn plus issuer range plus context, in the formats people type."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stdnum import luhn
from stdnum.fr import siret

from memwarden.detectors.cards import find_cards

TEST_CARDS = [
    "4111111111111111",  # Visa
    "4242424242424242",  # Visa
    "5555555555554444",  # Mastercard
    "2223003122003222",  # Mastercard 2-series
    "378282246310005",  # Amex
    "6011111111111117",  # Discover
    "3530111333300000",  # JCB
    "30569309025904",  # Diners
    "6200000000000005",  # UnionPay
]


def _with_check_digit(body: str) -> str:
    return body + luhn.calc_check_digit(body)


@pytest.mark.parametrize("number", TEST_CARDS)
def test_documented_test_cards_are_found_in_a_sentence(number: str) -> None:
    text = f"Please charge {number} for the renewal."
    findings = find_cards(text)
    assert [(f.start, f.end) for f in findings] == [(14, 14 + len(number))]
    assert findings[0].code == "payment_card"


def test_spaced_and_dashed_groups_are_found() -> None:
    assert find_cards("card: 4111 1111 1111 1111 exp 12/29")
    assert find_cards("card: 4111-1111-1111-1111")
    assert find_cards("amex 3782 822463 10005")


def test_mixed_separators_are_not_a_card() -> None:
    assert not find_cards("4111 1111-1111 1111")


def test_luhn_invalid_number_is_not_a_card() -> None:
    assert not find_cards("card 4111 1111 1111 1112")


def test_luhn_valid_epoch_timestamp_is_not_a_card() -> None:
    stamp = _with_check_digit("170000000000")  # 13 digits, starts with 17
    assert len(stamp) == 13 and luhn.is_valid(stamp)
    assert not find_cards(f"event at ts={stamp} ms")
    assert not find_cards(f"created_at: {stamp}")


def test_luhn_valid_order_number_in_order_context_is_not_a_card() -> None:
    number = _with_check_digit("451234567890123")
    assert luhn.is_valid(number)
    assert not find_cards(f"Your order number {number} has shipped.")
    assert not find_cards(f"Invoice #{number} is attached")
    assert not find_cards(f"tracking {number}")


def test_order_wording_does_not_hide_a_number_called_a_card() -> None:
    assert find_cards("order paid with credit card 4111111111111111")


def test_unknown_issuer_prefix_is_not_a_card_without_card_wording() -> None:
    number = _with_check_digit("123456789012345")
    assert not find_cards(f"reference {number}")
    assert not find_cards(f"value {number}")


def test_numbers_inside_identifiers_are_not_cards() -> None:
    assert not find_cards("sha 4111111111111111abc")
    assert not find_cards("x4111111111111111")
    assert not find_cards("version 1.4111111111111111")


def test_twelve_digit_maestro_needs_its_issuer_range() -> None:
    maestro = _with_check_digit("50186466790")
    assert find_cards(f"card {maestro}")
    visa12 = _with_check_digit("41111111111")
    assert not find_cards(f"card {visa12}")


_card = st.sampled_from([*TEST_CARDS[:2], "5555555555554444", "6011111111111117"])


@given(
    number=_card,
    sep=st.sampled_from(["", " ", "-"]),
    prefix=st.sampled_from(["", "my card is ", "Card: ", "pay with ", "(", "\n"]),
    suffix=st.sampled_from(["", ".", " thanks", ")", "\n", ", exp 01/30"]),
)
def test_sixteen_digit_cards_are_found_in_any_common_format(
    number: str, sep: str, prefix: str, suffix: str
) -> None:
    grouped = sep.join(number[i : i + 4] for i in range(0, 16, 4))
    text = prefix + grouped + suffix
    findings = find_cards(text)
    assert len(findings) == 1
    assert text[findings[0].start : findings[0].end] == grouped


@given(st.text(alphabet="abc xyz.,!?", max_size=80))
def test_text_without_digits_never_has_cards(text: str) -> None:
    assert find_cards(text) == []


def test_thirteen_digit_card_split_by_dashes_in_yaml_and_json_is_found() -> None:
    number = _with_check_digit("400000000000")  # 13-digit Visa
    dashed = f"{number[:4]}-{number[4:8]}-{number[8:]}"
    assert find_cards(f'wallet:\n  primary: "{dashed}"\n')
    assert find_cards(f'{{"instrument": {{"pan": "{dashed}"}}}}')
    four_groups = f"{number[:4]}-{number[4:7]}-{number[7:10]}-{number[10:]}"
    assert find_cards(f"pan: {four_groups}")


def test_nineteen_digit_card_with_a_short_last_group_is_found() -> None:
    number = _with_check_digit("622126000000000000")  # 19-digit UnionPay
    grouped = " ".join(number[i : i + 4] for i in range(0, 19, 4))  # 4-4-4-4-3
    (finding,) = find_cards(f"card {grouped} please")
    assert finding.end - finding.start == len(grouped)


def test_card_in_a_csv_field_is_found_but_thousands_are_not_split() -> None:
    number = _with_check_digit("520000000000000")
    assert find_cards(f"Ada Byron,{number},04/29")
    assert not find_cards("total,1,234,567,890,123,456 rows")


def test_luhn_valid_device_numbers_and_labelled_ids_are_not_cards() -> None:
    imei = _with_check_digit("35209900176148")  # IMEIs carry a Luhn digit
    assert not find_cards(f"handset IMEI {imei} reported stolen")
    assert not find_cards(f"imei={imei}")
    order = _with_check_digit("453201511283036")
    assert not find_cards(f"order_id: {order}")
    assert find_cards(f"order paid with card {order}")


def test_numbers_labelled_as_purchase_orders_references_or_barcodes_are_not_cards() -> None:
    number = _with_check_digit("453201511283036")
    for label in ("po_number:", "Ref.", "EAN", "activation code", "fax"):
        assert not find_cards(f"{label} {number}"), label


@pytest.mark.parametrize(
    ("body", "issuer"),
    [
        ("37144963539843", "Amex, 15 digits"),
        ("12345678901234", "UATP, 15 digits"),
        ("220012345678901", "Mir, 16 digits"),
        ("6212345678901", "UnionPay, 14 digits"),
        ("309512345678901", "Diners Club 3095, 16 digits"),
        ("501812345678", "Maestro, 13 digits"),
        ("456789012345678901", "Visa, 19 digits"),
        ("819012345678901", "RuPay 81, 16 digits"),
    ],
)
def test_every_issuer_range_and_length_is_a_card(body: str, issuer: str) -> None:
    number = _with_check_digit(body)
    assert [(f.start, f.end) for f in find_cards(f"paid with {number} today")] == [
        (10, 10 + len(number))
    ], issuer


def test_irregular_spacing_is_a_card_where_the_text_talks_about_cards() -> None:
    number = _with_check_digit("601100099013942")
    irregular = f"{number[:4]} {number[4:6]}  {number[6:13]}-{number[13:]}"
    text = f"my credit card is {irregular} thanks"
    assert [text[f.start : f.end] for f in find_cards(text)] == [irregular]
    assert not find_cards(f"the numbers were {irregular} thanks")


def _without_luhn(body: str) -> str:
    return next(body + d for d in "0123456789" if not luhn.is_valid(body + d))


def test_a_unionpay_number_without_a_luhn_digit_is_a_card_at_sixteen_and_nineteen_digits() -> None:
    # UnionPay's 62 range carries no Luhn digit (card-validator and creditcards-types skip it).
    for number in (_without_luhn("621234500000000"), _without_luhn("624000863140114800")):
        assert [(f.start, f.end) for f in find_cards(number)] == [(0, len(number))]
        assert find_cards(f"UnionPay card {number}")
        assert not find_cards(f"shipment {number}")
    # Other networks put a Luhn digit on every number: without one, a Mir prefix is no card.
    assert not find_cards(_without_luhn("220332887592713"))


def test_a_unionpay_number_without_a_luhn_digit_needs_card_wording_at_seventeen_or_eighteen() -> (
    None
):
    # 18 digits from 62: as many Chinese resident ids of Gansu (region 62) start so.
    number = _without_luhn("62010219900101123")
    assert not find_cards(f"ID {number}")
    assert find_cards(f"UnionPay card {number}")


def test_a_fifteen_digit_luhn_valid_number_from_4_is_no_visa_card() -> None:
    # Visa issues 13, 16 and 19 digits; a bare IMEI is Luhn-valid and often starts with 4.
    imei = _with_check_digit("49015420323751")
    assert luhn.is_valid(imei) and len(imei) == 15
    assert not find_cards(imei)
    assert not find_cards(f"the handset {imei} again")
    for number in (
        _with_check_digit("4" * 12),
        _with_check_digit("4" * 15),
        _with_check_digit("4" * 18),
    ):
        assert find_cards(number), len(number)


def test_a_luhn_valid_imei_after_its_label_is_not_a_card() -> None:
    imei = _with_check_digit("35209900176148")
    assert len(imei) == 15 and luhn.is_valid(imei)
    assert not find_cards(f"IMEI: {imei}")
    assert not find_cards(f"device serial no {_with_check_digit('490154203237518')}")
    assert not find_cards(f"S/N {_with_check_digit('123456789012345')}")


@pytest.mark.parametrize(
    ("body", "issuer"),
    [
        ("860012345678901", "UzCard, 16 digits"),
        ("970412345678901", "Napas, 16 digits"),
        ("310012345678901234", "China T-Union, 19 digits"),
        ("817199992766000002", "UnionPay 81, 19 digits"),
    ],
)
def test_issuer_ranges_of_national_networks_are_cards(body: str, issuer: str) -> None:
    number = _with_check_digit(body)
    assert [(f.start, f.end) for f in find_cards(f"paid with {number} today")] == [
        (10, 10 + len(number))
    ], issuer


def test_a_fourteen_digit_siret_is_not_a_diners_card_without_card_wording() -> None:
    siren = _with_check_digit("36252187")  # starts like a Diners Club card
    number = _with_check_digit(f"{siren}0001")
    assert siret.is_valid(number) and luhn.is_valid(number)
    assert not find_cards(f"établissement {number}")
    assert find_cards(f"Diners card {number}")
    grouped = f"{number[:4]} {number[4:10]} {number[10:]}"  # a Diners card's 4-6-4 groups
    assert find_cards(f"établissement {grouped}")

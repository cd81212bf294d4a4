"""National identifiers through python-stdnum: bare where the check is strong, else with a cue.

Test values are made here: check digits come from stdnum's own functions, bodies are ours.
"""

from __future__ import annotations

import datetime
import importlib

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from stdnum import luhn
from stdnum.cn import ric
from stdnum.dk import cpr
from stdnum.es import dni
from stdnum.it import codicefiscale
from stdnum.nl import bsn
from stdnum.pl import pesel
from stdnum.ro import cnp
from stdnum.si import emso

from memwarden.detectors import national_ids
from memwarden.detectors.national_ids import (
    BARE_REJECTION,
    FORMATTED_REJECTION,
    PERSON_MODULES,
    cue_words,
    find_national_ids,
)
from memwarden.detectors.personal import find_personal_data
from memwarden.detectors.redaction import redact


def _pesel(body: str) -> str:
    return body + pesel.calc_check_digit(body)


def _cnp(body: str) -> str:
    """A Romanian personal code: sex/century, birth date, county, serial, check digit."""
    return body + cnp.calc_check_digit(body)


def _bsn() -> str:
    """A 9-digit number that passes the Dutch eleven test (a weak check)."""
    return next(
        n for n in (f"27318405{d}" for d in range(10)) if bsn.is_valid(n)
    )  # one in eleven bodies has no valid digit; this one has


def _spans(text: str) -> list[str]:
    return [text[s:e] for s, e, _m, _b in find_national_ids(text)]


def test_a_strong_checksum_is_found_bare_in_a_sentence() -> None:
    number = _cnp("185123140012")
    assert _spans(f"my number is {number} thanks") == [number]


def test_a_strong_checksum_with_a_wrong_digit_is_not_found() -> None:
    number = _cnp("185123140012")
    wrong = number[:-1] + str((int(number[-1]) + 1) % 10)
    assert not _spans(f"my number is {wrong} thanks")


def test_a_medium_checksum_is_found_with_its_cue_word_only() -> None:
    number = "1508934512"  # a Danish CPR: a birth date and no check digit, rejects about 97%
    assert cpr.is_valid(number)
    assert not _spans(f"my number is {number}")
    assert _spans(f"CPR {number}") == [number]


def test_a_pesel_is_found_bare_since_its_date_must_fall_in_a_lifetime() -> None:
    # One check digit, but the month also encodes the century (1800-2299): with the date held
    # to a lifetime, the check rejects over 99% of random 11-digit runs.
    number = _pesel("8512310123")
    assert national_ids._STRENGTH["pl.pesel"][0][11] >= BARE_REJECTION
    assert _spans(f"my number is {number}") == [number]


def test_strength_is_per_length_so_a_two_digit_check_is_not_judged_by_a_one_digit_one() -> None:
    # A Russian INN: 12 digits (a person) carry two check digits, 10 (a company) one.
    rejections, _letters = national_ids._STRENGTH["ru.inn"]
    assert rejections[12] > 0.98 > rejections[10]


def test_a_weak_checksum_needs_a_cue_word() -> None:
    number = _bsn()
    assert not _spans(f"ref {number}")
    assert _spans(f"BSN: {number}") == [number]
    assert _spans(f"my burgerservicenummer is {number}") == [number]
    assert _spans(f"her national id number {number}") == [number]


def test_a_cue_word_on_another_line_does_not_count() -> None:
    assert not _spans(f"BSN below\n\nlot {_bsn()}")


def test_an_identifier_with_letters_is_checked_by_its_own_rule() -> None:
    body = "RSSMRA85T10A562"
    code = body + codicefiscale.calc_check_digit(body)
    assert _spans(f"codice fiscale {code}") == [code]
    assert _spans(code) == [code]  # strong: date, place and check letter
    number = "73012458"
    value = number + dni.calc_check_digit(number)
    assert _spans(f"DNI {value}") == [value]


def test_a_value_laid_out_as_its_module_formats_it_counts_as_specific() -> None:
    from stdnum.my import nric

    # A Malaysian NRIC (birth date, place of birth, serial) rejects about 97% bare.
    digits = "850412105231"
    assert nric.is_valid(digits)
    laid_out = nric.format(digits)
    assert laid_out.count("-") == 2
    assert national_ids._laid_out("my.nric", laid_out)
    assert not national_ids._laid_out("my.nric", digits)
    assert not national_ids._laid_out("my.nric", "8504-12105-231")
    assert _spans(f"kad: {laid_out}") == [laid_out]


def test_a_record_label_keeps_a_checksum_valid_number_out_of_personal_data() -> None:
    number = _cnp("185123140012")
    assert find_personal_data(f"my number is {number}")
    assert not find_personal_data(f"claim reference {number}")


def test_a_number_after_a_plus_is_not_an_identifier() -> None:
    number = _cnp("185123140012")
    assert not _spans(f"+{number}")


def test_cue_words_come_from_the_module_docstring_first_line() -> None:
    words = cue_words(bsn)
    assert "BSN" in words and "Burgerservicenummer" in words
    assert "Codice Fiscale" in cue_words(codicefiscale)
    assert "PESEL" in cue_words(pesel)


def test_every_person_module_is_a_stdnum_validator_with_a_measured_strength() -> None:
    for name in PERSON_MODULES:
        module = importlib.import_module(f"stdnum.{name}")
        assert callable(module.is_valid)
        rejections, letters = national_ids._STRENGTH[name]
        assert rejections and all(6 <= n <= 20 for n in rejections)
        assert all(0.0 <= r <= 1.0 for r in rejections.values()) and letters in (0, 1, 2)
    assert FORMATTED_REJECTION < BARE_REJECTION


_BIRTH = st.tuples(
    st.integers(min_value=0, max_value=99),
    st.integers(min_value=1, max_value=12),
    st.integers(min_value=1, max_value=28),
    st.integers(min_value=0, max_value=9999),
)


@settings(max_examples=60, deadline=None)
@given(_BIRTH, st.sampled_from(["my CNP is {}.", "{}", "cod: {} ok", "PESEL {}"]))
def test_redaction_never_leaves_a_checksummed_identifier(
    birth: tuple[int, int, int, int], template: str
) -> None:
    year, month, day, serial = birth
    if template.startswith("PESEL"):
        number = _pesel(f"{year:02d}{month:02d}{day:02d}{serial:04d}")
        assert pesel.is_valid(number)
    else:
        number = _cnp(f"1{year:02d}{month:02d}{day:02d}{(serial % 46) + 1:02d}{serial % 1000:03d}")
        assert cnp.is_valid(number)
    out = redact(template.format(number)).text
    assert number not in out


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="0123456789 -", min_size=0, max_size=30))
def test_find_national_ids_never_raises_and_spans_lie_in_the_text(text: str) -> None:
    for start, end, name, _bare in find_national_ids(text):
        assert 0 <= start < end <= len(text)
        assert name in PERSON_MODULES


def test_a_luhn_valid_nine_digit_run_is_not_reported_bare() -> None:
    body = "27418263"
    number = body + luhn.calc_check_digit(body)  # passes the Canadian SIN check
    assert not _spans(f"item {number}")
    assert _spans(f"SIN {number}") == [number]


@pytest.mark.parametrize("text", ["version 1.2.3.4", "2024-01-15", "call at 10:30"])
def test_everyday_numbers_are_not_identifiers(text: str) -> None:
    assert not _spans(text)


def test_a_value_with_a_check_letter_is_found_bare_when_its_check_is_strong_enough() -> None:
    number = "73012458"
    value = number + dni.calc_check_digit(number)  # one check letter in 23: rejects ~96%
    assert _spans(f"mi número {value}") == [value]
    assert not _spans(f"mi número {number}{'TRWAGMYFPDXBNJZSQVHLCKE'[(int(number) + 1) % 23]}")


def _ric_ending_in_x() -> str:
    """A Chinese resident id whose mod-11 check character is X (a region, a date, a serial)."""
    for serial in range(1000):
        body = f"11010519491231{serial:03d}"
        if ric.calc_check_digit(body + "0") == "X":  # it skips the last character
            return body + "X"
    raise AssertionError("no serial gives X")


@pytest.mark.parametrize("case", [str.upper, str.lower])
def test_a_chinese_resident_id_whose_check_character_is_x_is_found_bare(case: object) -> None:
    value = case(_ric_ending_in_x())  # type: ignore[operator]
    assert [(s, e, m) for s, e, m, _ in find_national_ids(f"id {value} ok")] == [(3, 21, "cn.ric")]


def test_an_eighteen_character_run_ending_in_x_with_a_wrong_check_is_not_an_id() -> None:
    value = _ric_ending_in_x()
    wrong = value[:-2] + str((int(value[-2]) + 1) % 10) + "X"
    assert list(find_national_ids(wrong)) == []


def _emso(born: datetime.date, region: str = "50", serial: str = "500") -> str:
    """A Slovenian EMSO: day, month, the year's last three digits, region, serial, check."""
    body = f"{born:%d%m}{born.year % 1000:03d}{region}{serial}"
    return body + emso.calc_check_digit(body)


@settings(max_examples=60)
@given(st.dates(min_value=datetime.date(1801, 1, 1), max_value=datetime.date(2799, 12, 31)))
def test_an_id_is_found_only_where_its_birth_date_falls_in_a_lifetime(born: datetime.date) -> None:
    value = _emso(born)
    assume(emso.is_valid(value))  # stdnum reads years 800-999 as 1800-1999, the rest as 2000s
    today = datetime.date.today()
    in_a_lifetime = today.year - 130 <= emso.get_birth_date(value).year and (
        emso.get_birth_date(value) <= today
    )
    # The module's own answer; another 13-digit module may accept the same digits in a scan.
    assert national_ids._valid("si.emso", value) == in_a_lifetime


def test_a_checksum_valid_number_born_in_the_future_is_not_an_id() -> None:
    value = _emso(datetime.date(2600, 8, 10))
    assert emso.is_valid(value)
    assert list(find_national_ids(value)) == []
    assert list(find_national_ids(_emso(datetime.date(1980, 8, 10))))


def _thai_pin(body: str) -> str:
    from stdnum.th import pin

    return body + pin.calc_check_digit(body)


def test_a_value_in_its_modules_uneven_groups_with_spaces_counts_as_laid_out() -> None:
    # A Thai PIN (one mod-11 digit, about 92% of random runs rejected) needs a cue word bare,
    # but not in stdnum's 1-4-5-2-1 groups, whether with its dashes or with spaces.
    number = _thai_pin("110170023070")
    spaced = f"{number[0]} {number[1:5]} {number[5:10]} {number[10:12]} {number[12]}"
    assert national_ids._laid_out("th.pin", spaced)
    assert _spans(f"registered under {spaced} last year") == [spaced]
    assert not _spans(f"registered under {number} last year")
    assert not national_ids._laid_out("th.pin", f"{number[:4]} {number[4:8]} {number[8:]}")


def test_even_groups_dots_and_mixed_separators_are_not_a_layout_of_their_own() -> None:
    # "123 456 782": how any nine-digit number is written (a SIREN, an ACN), so an Australian
    # TFN counts as laid out only with the module's own separators.
    from stdnum.au import tfn

    assert tfn.is_valid("123456782")
    assert not national_ids._laid_out("au.tfn", "123-456-782")
    assert not _spans("SIREN 123 456 782 registered")
    # A decimal point is no Czech birth number's slash.
    assert not national_ids._laid_out("cz.rc", "710319.2745")
    thai = _thai_pin("110170023070")
    assert not national_ids._laid_out("th.pin", f"{thai[0]}-{thai[1:5]} {thai[5:10]}-{thai[10:]}")


def test_a_module_without_format_is_laid_out_as_its_docstring_writes_its_numbers() -> None:
    # stdnum's CUI module documents '10117410-2': eight digits, a dash, the check digit.
    from stdnum.pe import cui

    body = "20451387"
    check = next(d for d in "0123456789" if cui.is_valid(f"{body}{d}"))
    written = f"{body}-{check}"
    assert not hasattr(cui, "format")
    assert national_ids._laid_out("pe.cui", written)
    assert _spans(f"written {written} on the form") == [written]
    assert not national_ids._laid_out("pe.cui", f"{body[:4]}-{body[4:]}{check}")
    wrong = next(d for d in "0123456789" if not cui.is_valid(f"{body}{d}"))
    assert not _spans(f"ref {body}-{wrong}")

"""Build `external_personal_data.jsonl` from other projects' own test suites.

    python evals/judge/build_external_personal_data.py [--sdists DIR]

Positives: the personal identifiers python-stdnum's doctests state valid (national ID, tax
and social numbers of people, IBANs), the IBANs of schwifty's tests, the addresses
python-email-validator's tests accept, libphonenumber's example numbers for every region (in
international format, as phonenumbers 9.0.43 ships them), and Presidio's recognizer tests
(`external_sources/transcribed.jsonl`). Negatives: the values stdnum's doctests reject with a
checksum error, stdnum's valid identifiers of things that are not people (products,
securities, devices, companies), schwifty's invalid IBANs, and Presidio's negatives. Rows are
split by source (file), so no file is in both train and test. See SOURCES.md.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import Any

import phonenumbers
from external import (
    HERE,
    SDISTS,
    Value,
    capped,
    fetch_sdists,
    parametrized,
    stdnum_values,
    transcribed,
    write_rows,
)

CLASS = "personal_data"
# stdnum modules whose numbers identify a person (ID, tax, social-security, health numbers).
PERSON_MODULES = frozenset(
    [
        "ar.dni",
        "at.vnr",
        "au.tfn",
        "be.bis",
        "be.eid",
        "be.nn",
        "be.ssn",
        "bg.egn",
        "bg.pnf",
        "br.cpf",
        "ca.bc_phn",
        "ca.sin",
        "ch.ssn",
        "cn.ric",
        "cr.cpf",
        "cr.cr",
        "cu.ni",
        "cz.rc",
        "de.idnr",
        "dk.cpr",
        "do.cedula",
        "ec.ci",
        "ee.ik",
        "es.dni",
        "es.nie",
        "fi.hetu",
        "fi.veronumero",
        "fr.nif",
        "fr.nir",
        "gb.nhs",
        "gb.upn",
        "gr.amka",
        "id.nik",
        "ie.pps",
        "il.idnr",
        "in_.aadhaar",
        "in_.epic",
        "in_.pan",
        "in_.vid",
        "is_.kennitala",
        "it.codicefiscale",
        "jp.in_",
        "kr.rrn",
        "lt.asmens",
        "mu.nid",
        "mx.curp",
        "my.nric",
        "nl.bsn",
        "nl.identiteitskaartnummer",
        "nl.onderwijsnummer",
        "no.fodselsnummer",
        "pe.cui",
        "pk.cnic",
        "pl.pesel",
        "pt.cc",
        "ro.cnp",
        "se.personnummer",
        "si.emso",
        "sk.rc",
        "th.pin",
        "tr.tckimlik",
        "ua.rntrc",
        "us.atin",
        "us.itin",
        "us.ptin",
        "us.ssn",
        "za.idnr",
    ]
)
IBAN_MODULES = frozenset({"iban", "be.iban", "es.iban", "me.iban", "no.iban"})
# stdnum modules for things that are not people: a personal-data detector must stay quiet.
NOT_PERSON_MODULES = frozenset(
    [
        "ean",
        "isbn",
        "issn",
        "ismn",
        "isan",
        "isil",
        "isin",
        "isrc",
        "cusip",
        "figi",
        "lei",
        "grid",
        "imei",
        "imsi",
        "meid",
        "mac",
        "casrn",
        "bic",
        "iso9362",
        "iso6346",
        "iso11649",
        "eu.banknote",
        "eu.ecnumber",
        "eu.eic",
        "eu.nace",
        "de.wkn",
        "gb.sedol",
        "it.aic",
        "imo",
        "es.cups",
        "es.referenciacatastral",
        "ch.esr",
        "be.ogm_vcs",
        "de.leitweg",
        "gs1_128",
        "au.abn",
        "au.acn",
        "br.cnpj",
        "fr.siren",
        "fr.siret",
        "fr.rcs",
        "de.handelsregisternummer",
        "at.businessid",
        "ch.uid",
        "ee.registrikood",
        "fi.ytunnus",
        "fi.associationid",
        "jp.cn",
        "kr.brn",
        "md.idno",
        "no.orgnr",
        "se.orgnr",
        "pl.regon",
        "ro.onrc",
        "ru.ogrn",
        "si.maticna",
        "sg.uen",
        "th.moa",
        "tw.ubn",
        "ua.edrpou",
        "il.hp",
        "us.ein",
        "us.rtn",
        "cn.uscc",
        "ca.bn",
        "cr.cpj",
        "es.cif",
        "es.cae",
        "ec.ruc",
        "ma.ice",
        "do.ncf",
        "nl.brin",
    ]
)
VALID_PER_FILE = 25
INVALID_PER_FILE = 8
NEGATIVES_PER_FILE = 8


def _row(source: str, label: str, kind: str, text: str, detail: str = "") -> dict[str, Any]:
    return {"source": source, "class": CLASS, "label": label, "kind": kind, "text": text,
            "detail": detail}  # fmt: skip


def stdnum_rows(tree: Path) -> list[dict[str, Any]]:
    repo = SDISTS["stdnum"][1]
    values = stdnum_values(tree)
    rows: list[dict[str, Any]] = []

    def take(selected: list[Value], label: str, kind: str) -> None:
        for v in selected:
            rows.append(_row(f"{repo}@{v.path}", label, kind, v.value, v.module))

    person = [v for v in values if v.module in PERSON_MODULES]
    iban = [v for v in values if v.module in IBAN_MODULES]
    take(capped((v for v in person if v.valid), VALID_PER_FILE), CLASS, "national_id")
    take(capped((v for v in iban if v.valid), 4 * VALID_PER_FILE), CLASS, "iban")
    take(
        capped((v for v in person + iban if not v.valid), INVALID_PER_FILE),
        "none",
        "negative:invalid_checksum",
    )
    not_person = (v for v in values if v.module in NOT_PERSON_MODULES and v.valid)
    take(capped(not_person, NEGATIVES_PER_FILE), "none", "negative:not_a_person")
    return rows


def _assigned_list(tree: ast.Module, name: str) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return [str(v) for v in ast.literal_eval(node.value)]
    return []


def schwifty_rows(tree: Path) -> list[dict[str, Any]]:
    path = "tests/test_iban.py"
    source = f"{SDISTS['schwifty'][1]}@{path}"
    module = ast.parse((tree / path).read_text(encoding="utf-8"))
    rows = [_row(source, CLASS, "iban", v) for v in _assigned_list(module, "valid")]
    rows += [_row(source, "none", "negative:invalid_checksum", v)
             for v in _assigned_list(module, "invalid")]  # fmt: skip
    return rows


def email_rows(tree: Path) -> list[dict[str, Any]]:
    """The addresses of test_syntax.py's parametrized cases that the suite accepts."""
    path = "tests/test_syntax.py"
    source = f"{SDISTS['email_validator'][1]}@{path}"
    module = ast.parse((tree / path).read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = []
    for node in ast.walk(module):
        if not isinstance(node, ast.FunctionDef) or "invalid" in node.name:
            continue
        if node.name not in {"test_email_valid", "test_email_valid_intl_local_part",
                             "test_email_valid_only_if_quoted_local_part"}:  # fmt: skip
            continue
        for decorator in node.decorator_list:
            if not (isinstance(decorator, ast.Call) and len(decorator.args) == 2):
                continue
            cases = decorator.args[1]
            if not isinstance(cases, ast.List):
                continue
            for case in cases.elts:
                if isinstance(case, ast.Tuple) and isinstance(case.elts[0], ast.Constant):
                    rows.append(_row(source, CLASS, "email", str(case.elts[0].value)))
    return rows


# validators' test functions -> (label, kind); functions not listed are not used.
VALIDATORS_CASES: dict[str, dict[str, tuple[str, str]]] = {
    "tests/test_email.py": {
        "test_returns_true_on_valid_email": (CLASS, "email"),
    },
    "tests/test_iban.py": {
        "test_returns_true_on_valid_iban": (CLASS, "iban"),
        "test_returns_failed_validation_on_invalid_iban": ("none", "negative:invalid_checksum"),
    },
    "tests/test_finance.py": {
        "test_returns_true_on_valid_cusip": ("none", "negative:not_a_person"),
        "test_returns_true_on_valid_isin": ("none", "negative:not_a_person"),
        "test_returns_true_on_valid_sedol": ("none", "negative:not_a_person"),
    },
    "tests/i18n/test_es.py": {
        "test_returns_true_on_valid_cif": ("none", "negative:not_a_person"),
        "test_returns_true_on_valid_nie": (CLASS, "national_id"),
        "test_returns_true_on_valid_nif": (CLASS, "national_id"),
        "test_returns_true_on_valid_doi": (CLASS, "national_id"),
    },
    "tests/i18n/test_fi.py": {
        "test_returns_true_on_valid_business_id": ("none", "negative:not_a_person"),
        "test_returns_true_on_valid_ssn": (CLASS, "national_id"),
    },
    "tests/i18n/test_fr.py": {
        "test_returns_true_on_valid_ssn": (CLASS, "national_id"),
    },
    "tests/i18n/test_ind.py": {
        "test_returns_true_on_valid_ind_aadhar": (CLASS, "national_id"),
        "test_returns_true_on_valid_ind_pan": (CLASS, "national_id"),
    },
    "tests/i18n/test_ru.py": {
        "test_returns_true_on_valid_ru_inn": (CLASS, "national_id"),
    },
}


def validators_rows(tree: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path, functions in VALIDATORS_CASES.items():
        source = f"{SDISTS['validators'][1]}@{path}"
        for function, values in parametrized(tree / path).items():
            if function in functions:
                label, kind = functions[function]
                rows.extend(_row(source, label, kind, v, function) for v in values)
    return rows


def phone_rows() -> list[dict[str, Any]]:
    """libphonenumber's example fixed-line and mobile numbers, one source per region file."""
    rows: list[dict[str, Any]] = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        source = f"daviddrysdale/python-phonenumbers@python/phonenumbers/data/region_{region}.py"
        seen: set[str] = set()
        for kind in (phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE):
            number = phonenumbers.example_number_for_type(region, kind)
            if number is None:
                continue
            text = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
            if text not in seen:
                seen.add(text)
                rows.append(_row(source, CLASS, "phone", text, region))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sdists", type=Path, help="folder holding (or to receive) the sdists")
    args = parser.parse_args()
    if phonenumbers.__version__ != "9.0.43":
        raise SystemExit(
            f"phone rows are pinned to phonenumbers 9.0.43, not {phonenumbers.__version__}"
        )
    trees = fetch_sdists(args.sdists)
    rows = [
        *stdnum_rows(trees["stdnum"]),
        *schwifty_rows(trees["schwifty"]),
        *email_rows(trees["email_validator"]),
        *validators_rows(trees["validators"]),
        *phone_rows(),
        *transcribed(CLASS),
    ]
    write_rows(rows, HERE / "external_personal_data.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

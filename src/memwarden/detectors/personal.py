"""Personal data: contact details, account and national identifiers, addresses, birth dates.

Validators (IBAN check digits, SSN area rules, phone metadata) carry precision where a format
has one; identifiers without a checksum (licence numbers, bare addresses) need a cue word, so
that a SKU or a version number is not reported as a person.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from functools import cache
from typing import Final

import phonenumbers
from stdnum import iban, numdb
from stdnum.exceptions import InvalidComponent, ValidationError
from stdnum.iso7064 import mod_97_10
from stdnum.us import itin, ssn

from memwarden.detectors.country_names import COUNTRY_NAMES
from memwarden.detectors.findings import PERSONAL_DATA, Finding
from memwarden.detectors.national_ids import find_national_ids

# phonenumbers compiles its metadata's patterns through the `re` module's cache, which holds 512:
# the matcher touches several thousand across regions, so a scan recompiled the same ones
# over and over (a third of the phone rule's time). Its own unbounded cache keeps each once.
_enable_pattern_cache = getattr(phonenumbers, "enable_pattern_cache", None)
if _enable_pattern_cache is not None:  # where the installed phonenumbers has it
    _enable_pattern_cache()

# Combining marks, which `\w` leaves out: Devanagari and other Brahmic vowel signs ("राम",
# "मोहन"), Hebrew and Arabic points, and decomposed accents ("s" + U+0323 + U+0307). The
# blocks of the Brahmic scripts are taken whole: their other characters are letters anyway.
_MARKS: Final = (
    "\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed"
    "\u0900-\u0dff\u0e31-\u0e3a\u0e47-\u0e4e\u0eb1-\u0ebc\u0ec8-\u0ecd\u0f18-\u0fbc"
    "\u102b-\u103e\u1ab0-\u1aff\u1dc0-\u1dff\u200c\u200d\u20d0-\u20f0\ufe20-\ufe2f"
)
# Local part: the usual characters (any script, with its marks), or a quoted string (which may
# hold `@` and escaped quotes: `"a@b"@example.com`); domain labels in any script
# ("jeff@臺網中心.tw", "मोहन.ईन्फो"), a top-level label of letters and marks.
_ALNUM: Final = rf"(?:[^\W_]|[{_MARKS}])"  # a letter or digit of any script, or a mark
_EMAIL: Final = re.compile(
    rf"(?:(?<![\w.+\-!#$%&'*/=?^`{{|}}~{_MARKS}])[\w!#$%&'*+/=?^`{{|}}~-]"
    rf"[\w.!#$%&'*+/=?^`{{|}}~{_MARKS}-]{{0,63}}"
    r'|"(?:[^"\\\n]|\\.){1,64}")'
    rf"@(?:[^\W_](?:[\w{_MARKS}-]{{0,61}}{_ALNUM})?\.)+(?:[^\W\d_]|[{_MARKS}]){{2,24}}"
    rf"(?![\w{_MARKS}])"
)
# Country, check digits, then up to 30 characters in groups. The tail may run into the next
# word ("... 8741 and"), so a candidate is cut back to its longest prefix that ends at a
# group boundary and passes the mod-97 check (`_ibans`).
_IBAN: Final = re.compile(r"\b[A-Z]{2} ?\d{2}(?:[ -]?[A-Z0-9]){11,34}", re.IGNORECASE)
_IBAN_LENGTHS: Final = range(15, 35)
# Countries in stdnum's copy of the SWIFT IBAN registry (its `info` gives no properties for a
# country it does not hold).
_IBAN_REGISTERED: Final = frozenset(
    code for code in COUNTRY_NAMES if numdb.get("iban").info(code + "00")[0][1]
)
# The SSA's 3-2-4 layout, with one separator throughout: dashes, dots or spaces
# ("078-05-1123", "078.05.1123", "078 05 1123"). A phone number is 3-3-4, a date 2-2-4.
_SSN_LAID_OUT: Final = re.compile(r"(?<![\w.-])\d{3}([-. ])\d{2}\1\d{4}(?![\w-]|\.\d)")
# After an SSN or ITIN cue ("taxpayer id"), nine digits in any grouping ("078-051123").
_SSN_CONTEXT: Final = re.compile(
    r"(?i:\b(?:ssn|social security(?: number| no\.?)?|soc\.? sec\.?|itin|"
    r"(?:individual\s+)?taxpayer\s+id(?:entification)?))\W{0,5}"
    r"(?i:(?:number|no|is|was)\W{1,5}){0,3}"
    r"(\d(?:[-. ]?\d){8})(?![\w-]|\.\d)"
)
# Either case, but one case throughout ("AB 12 34 56 C", "tw987654a").
_NINO: Final = re.compile(
    r"\b(?:([A-Z]{2}) ?\d{2} ?\d{2} ?\d{2} ?[A-D]|([a-z]{2}) ?\d{2} ?\d{2} ?\d{2} ?[a-d])\b"
)
_NINO_CONTEXT: Final = re.compile(r"(?i:national insurance|\bnino\b|\bNI\b|\bN\.I\.)")
_NINO_BAD_PREFIXES: Final = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})
_NINO_EXAMPLE_PREFIX: Final = "QQ"
_NINO_FIRST: Final = frozenset("ABCEGHJKLMNOPRSTWXYZ")
_NINO_SECOND: Final = frozenset("ABCEGHJKLMNPRSTWXYZ")
_ID_CONTEXT: Final = re.compile(
    r"(?i:\b(?:driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e\s+(?:number|no\.?|#)|"
    r"passport|tax\s+id|tin|national\s+id|id\s+card|personalausweis|steuer-?id|"
    r"f(?:ue|ü)hrerschein|medical\s+record|mrn|patient\s+id|member\s+id|policy\s+number)\b)"
    r"(?:\s+(?:number|no\.?|#|is|was|:))*\s*[:#]?\s*(?P<id>[A-Z0-9][A-Z0-9-]{4,19})\b",
)
_IPV4: Final = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
_IPV6: Final = re.compile(
    r"(?<![\w:.])(?:[0-9A-Fa-f]{1,4}:){2,7}(?::|[0-9A-Fa-f]{1,4})"
    r"(?::[0-9A-Fa-f]{0,4}){0,6}(?![\w:])"
)
_VERSION_BEFORE: Final = re.compile(r"(?i:(?:version|release|build|ver\.?|v)\s*)$")
_DATE: Final = (
    r"(?:\d{1,4}[./-]\d{1,2}[./-]\d{1,4}|\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9}\.?,?\s+\d{4}|"
    r"[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})"
)
_DOB: Final = re.compile(
    r"(?i:\b(?:born(?:\s+on)?|d\.?o\.?b\.?|date\s+of\s+birth|birth\s*date|birthday|geboren(?:\s+am)?|"
    r"fecha\s+de\s+nacimiento|né(?:e)?\s+le)\b)\W{0,10}(?P<date>" + _DATE + r")"
)
_PHONE_CONTEXT: Final = re.compile(
    r"(?i:\b(?:phone|mobile|mob|cell|tel|telephone|fax|desk|whatsapp|sms|"
    r"call(?:\s+me)?(?:\s+(?:at|on))?|text(?:\s+me)?(?:\s+(?:at|on))|reach\s+me\s+(?:at|on)|"
    r"messages?\s+to|answering\s+at|registered|number\s+is|contact\s+number|ring\s+me\s+on|"
    r"(?:emergency|next\s+of\s+kin)\s+contact|contact)\b)"
    r"(?:\s+(?:number|no\.?|#))?(?:\s+(?:is|was|at|on))?[\s:.#]*"
    # "Emergency contact: mum, 07700 ..." - who it is, then the number.
    r"(?:[A-Za-z][\w'-]{0,20},\s*)?"
    r"(?P<num>\+?\(?\d[\d ().-]{4,18}\d(?:\s?(?:x|ext\.?)\s?\d{1,5})?)"
)
_ADDRESS_CUE: Final = re.compile(
    r"(?i:\b(?:lives?\s+(?:at|on|in)|resides?\s+at|moved\s+to|"
    r"(?:(?:home|billing|shipping|mailing|postal|delivery|street|my|his|her|their)\s+"
    r"(?:(?:personal|private|current|new|old|permanent|forwarding|residential)\s+)?|"
    r"(?:personal|private|residential|forwarding)\s+)address"
    r"(?:\s+is)?|^\s*address)\b)\s*:?\s*(?P<addr>[^\n]{4,100})",
    re.MULTILINE,
)
_ADDRESS_PARTS: Final = re.compile(
    r"(?i:\b(?:apt|apartment|suite|ste|unit|flat)\.?\s*#?\s*\d{1,5}\b|"
    r"\bp\.?\s?o\.?\s?box\s+\d+|\bpostbox\s+\d+|\b[AF]PO\s+A[AEP]\s+\d{5}\b|\bPSC\s+\d{3,5}\b)"
)
_STREET: Final = re.compile(
    r"\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][\w'.-]*\s+){1,4}"
    r"(?:Street|St\.|Avenue|Ave\.?|Road|Rd\.?|Lane|Ln\.?|Drive|Dr\.|Boulevard|Blvd\.?|Way|"
    r"Court|Ct\.?|Close|Crescent|Terrace|Place|Square|Gardens|Parkway|Highway|Hwy|Grove|Mews|"
    r"Row|Walk|Rise|Vale|Parade|Circle|Trail|Plaza)\b"
)
_ANY_DIGIT: Final = re.compile(r"\d")
# A number introduced by one of these labels is a record number, not a phone: "Case #00412345",
# "PO 4509053618", "ref: 737-865-2088". Underscores count as boundaries (`order_id: ...`).
_RECORD_LABEL: Final = re.compile(
    r"(?i:(?<![A-Za-z])(?:case|ticket|tkt|incident|inc|order|po|purchase\s+order|invoice|inv|"
    r"claim|ref|reference|rma|tracking|shipment|parcel|sku|part|serial|build|job|run|pid|"
    r"issue|bug|pr|request|req|transaction|txn|confirmation|booking|reservation|"
    r"policy\s+claim|account\s+(?:no|number)|acct)(?![A-Za-z]))"
    r"(?:[\s_-]*(?:id|no\.?|num(?:ber)?|ref(?:erence)?|#))?[\s:#.=-]*$"
)
_RECORD_LABEL_REACH: Final = 32
# Numbers without a country prefix are read as these regions' unless a country is named
# before them ("my Israeli number is 09-...").
_PHONE_REGIONS: Final = ("US", "GB")
_REGION_CUE_REACH: Final = 40
_DIGIT_RUN: Final = re.compile(r"\+?\(?\d[\d ()./-]{5,22}\d")
_ID_WORDS: Final = (
    "licen",
    "passport",
    "tax",
    "tin",
    "national",
    "id card",
    "personalausweis",
    "steuer",
    "hrerschein",
    "medical",
    "mrn",
    "patient",
    "member",
    "policy",
)
_ADDRESS_WORDS: Final = ("live", "reside", "moved", "address")
_ADDRESS_PART_WORDS: Final = (
    "apt",
    "apartment",
    "suite",
    "ste",
    "unit",
    "flat",
    "box",
    "po ",
    "psc",
)
_STREET_WORDS: Final = (
    "street",
    "st.",
    "avenue",
    "ave",
    "road",
    "rd",
    "lane",
    "ln",
    "drive",
    "dr.",
    "boulevard",
    "blvd",
    "way",
    "court",
    "ct",
    "close",
    "crescent",
    "terrace",
    "place",
    "square",
    "gardens",
    "parkway",
    "highway",
    "hwy",
    "grove",
    "mews",
    "row",
    "walk",
    "rise",
    "vale",
    "parade",
    "circle",
    "trail",
    "plaza",
)


def _finding(name: str, start: int, end: int, score: float = 1.0) -> Finding:
    return Finding(PERSONAL_DATA, name, start, end, score)


def _emails(text: str) -> Iterator[Finding]:
    if "@" in text:
        for m in _EMAIL.finditer(text):
            yield _finding("email", m.start(), m.end())


# Adjectives the name-plus-suffix rule above does not make.
_IRREGULAR_ADJECTIVES: Final = {
    "French": "FR", "German": "DE", "Dutch": "NL", "Spanish": "ES", "Swiss": "CH",
    "Swedish": "SE", "Danish": "DK", "Polish": "PL", "Irish": "IE", "Finnish": "FI",
    "Turkish": "TR", "Greek": "GR", "Portuguese": "PT", "Chinese": "CN", "Japanese": "JP",
    "Thai": "TH", "Filipino": "PH", "Norwegian": "NO", "Belgian": "BE", "Czech": "CZ",
}  # fmt: skip
_CAPITALISED: Final = re.compile(r"\b[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}\b")


@cache
def _region_names() -> dict[str, str]:
    """English country names (and their usual adjectives) -> region code, from phonenumbers."""
    names: dict[str, str] = {}
    for region, name in COUNTRY_NAMES.items():
        forms = {name, name + "i", name + "n", name + "ian"}
        if name.endswith(("a", "o")):
            forms.add(name[:-1] + "an")
        if name.endswith("y"):
            forms.add(name[:-1] + "ian")
        for form in forms:
            names.setdefault(form, region)
    names.update(_IRREGULAR_ADJECTIVES)
    return names


def _cued_regions(text: str, start: int) -> tuple[str, ...]:
    """Default regions, then any region whose country is named just before `start`."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(line_start, start - _REGION_CUE_REACH) : start]
    names = _region_names()
    cued = []
    for m in _CAPITALISED.finditer(before):
        words = m.group().split()
        # "South Africa", "Republic", "New Zealand": every run of its words, longest first.
        for size in range(len(words), 0, -1):
            for first in range(len(words) - size + 1):
                region = names.get(" ".join(words[first : first + size]))
                if region is not None and region not in _PHONE_REGIONS:
                    cued.append(region)
    return (*_PHONE_REGIONS, *dict.fromkeys(cued)) if cued else _PHONE_REGIONS


def _phones(text: str) -> Iterator[Finding]:
    for m in _PHONE_CONTEXT.finditer(text):
        digits = sum(c.isdigit() for c in m.group("num"))
        if 6 <= digits <= 15:
            yield _finding("phone_context", m.start("num"), m.end("num"), 0.8)
    # phonenumbers is the slow part: hand it only small windows around long digit runs.
    seen: set[tuple[int, int]] = set()
    for run in _DIGIT_RUN.finditer(text):
        digits = sum(c.isdigit() for c in run.group())
        if not 7 <= digits <= 15:
            continue
        lo = max(0, run.start() - 2)
        window = text[lo : run.end() + 12]
        if _record_number(text, run.start()):
            continue
        if run.group().isdigit():
            # "15108695077": a bare run of digits is an id, an order or an account number as
            # often as a phone. Written without `+`, brackets, spaces or dashes it is a phone
            # only after a phone word, and `_PHONE_CONTEXT` above reports those.
            continue
        # Strict grouping: the groups as written must be the region's own ("650 253 0000",
        # "650 2530000"); a company or tax number grouped 3-2-5 ("623-28-60129") or 2-3-3-3
        # holds a valid US number's digits but is not written as one.
        for region in _cued_regions(text, run.start()):
            for match in phonenumbers.PhoneNumberMatcher(
                window, region, phonenumbers.Leniency.STRICT_GROUPING
            ):
                span = (lo + match.start, lo + match.end)
                if span not in seen:
                    seen.add(span)
                    yield _finding("phone", *span, 0.9)


def _record_number(text: str, start: int) -> bool:
    """True when the digits at `start` follow a record label on the same line."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(line_start, start - _RECORD_LABEL_REACH) : start]
    return _RECORD_LABEL.search(before) is not None


def _ibans(text: str) -> Iterator[Finding]:
    for m in _IBAN.finditer(text):
        raw = m.group()
        # Candidate ends: the match's end and every separator inside it, longest first.
        ends = [len(raw), *(i for i in range(len(raw) - 1, 0, -1) if raw[i] in " -")]
        for end in ends:
            compact = raw[:end].replace(" ", "").replace("-", "").upper()
            if len(compact) in _IBAN_LENGTHS and _iban_valid(compact):
                yield _finding("iban", m.start(), m.start() + end)
                break


def _iban_valid(compact: str) -> bool:
    """ISO 13616's checks (mod-97, the country's registered layout) and the country's own
    national check digits; not its bank directory, nor the registry's list of countries.

    stdnum's Belgian module also looks the bank code up in a list of banks, which lags behind
    the banks (schwifty accepts IBANs it refuses): an unknown bank still leaves a person's
    account number. A real country that stdnum's registry lacks (Senegal and the others whose
    banks issue IBANs SWIFT does not register) is held to mod-97 alone.
    """
    try:
        return bool(iban.validate(compact))
    except InvalidComponent:
        pass
    except ValidationError:
        return False
    if iban.is_valid(compact, check_country=False):
        return True
    country = compact[:2]
    return (
        country in COUNTRY_NAMES
        and country not in _IBAN_REGISTERED
        and compact[2:4].isdigit()
        and compact[4:].isalnum()
        and mod_97_10.is_valid(compact[4:] + compact[:4])
    )


def _identifiers(text: str) -> Iterator[Finding]:
    yield from _ibans(text)
    for start, end, _module, bare in find_national_ids(text):
        # "claim reference 5808566240": a record number that happens to pass a checksum.
        if bare and _record_number(text, start):
            continue
        yield _finding("national_id", start, end, 0.9 if bare else 0.8)
    lowered = text.lower()
    for m in _SSN_LAID_OUT.finditer(text):
        if ssn.is_valid(m.group().replace(".", "").replace(" ", "")):
            yield _finding("us_ssn", m.start(), m.end())
    # "ssn" rather than "ss", which half of English prose holds ("class", "less").
    cued = any(word in lowered for word in ("ssn", "soc", "itin", "taxpayer"))
    for m in _SSN_CONTEXT.finditer(text) if cued else ():
        digits = "".join(c for c in m.group(1) if c.isdigit())
        if ssn.is_valid(digits) or itin.is_valid(digits):
            yield _finding("us_ssn", m.start(1), m.end(1))
    for m in _NINO.finditer(text):
        prefix = (m.group(1) or m.group(2)).upper()
        well_formed = (
            prefix[0] in _NINO_FIRST
            and prefix[1] in _NINO_SECOND
            and prefix not in _NINO_BAD_PREFIXES
        )
        # QQ is HMRC's prefix for examples: a number only where the text says what it is.
        example = prefix == _NINO_EXAMPLE_PREFIX
        if well_formed or (
            example and _NINO_CONTEXT.search(text, max(0, m.start() - 40), m.start())
        ):
            yield _finding("uk_nino", m.start(), m.end())
    has_id_words = any(word in lowered for word in _ID_WORDS)
    for m in _ID_CONTEXT.finditer(text) if has_id_words else ():
        if any(c.isdigit() for c in m.group("id")):
            yield _finding("national_id", m.start("id"), m.end("id"), 0.8)


def _ip_addresses(text: str) -> Iterator[Finding]:
    for pattern in (_IPV4, _IPV6) if ":" in text else (_IPV4,):
        for m in pattern.finditer(text):
            try:
                address = ipaddress.ip_address(m.group())
            except ValueError:
                continue
            if not address.is_global:
                continue
            if _VERSION_BEFORE.search(text, max(0, m.start() - 10), m.start()):
                continue
            yield _finding("ip_address", m.start(), m.end(), 0.8)


def _dates_of_birth(text: str) -> Iterator[Finding]:
    for m in _DOB.finditer(text):
        yield _finding("date_of_birth", m.start("date"), m.end("date"), 0.9)


def _addresses(text: str) -> Iterator[Finding]:
    lowered = text.lower()
    if any(word in lowered for word in _ADDRESS_WORDS):
        for m in _ADDRESS_CUE.finditer(text):
            if any(c.isdigit() for c in m.group("addr")):
                yield _finding("address", m.start("addr"), m.end("addr"), 0.7)
    for pattern, words in ((_ADDRESS_PARTS, _ADDRESS_PART_WORDS), (_STREET, _STREET_WORDS)):
        if not any(word in lowered for word in words):
            continue
        for m in pattern.finditer(text):
            yield _finding("address", m.start(), m.end(), 0.7)


def find_personal_data(text: str) -> list[Finding]:
    """Return personal-data spans in `text`."""
    findings = list(_emails(text))
    if _ANY_DIGIT.search(text):
        if _DIGIT_RUN.search(text):
            findings.extend(_phones(text))
        findings.extend(_identifiers(text))
        findings.extend(_ip_addresses(text))
        findings.extend(_dates_of_birth(text))
        findings.extend(_addresses(text))
    return findings

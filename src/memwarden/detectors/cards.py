"""Payment card numbers: digit run + Luhn + a known issuer range, then context.

Luhn alone passes one random number in ten, so the issuer-range check and the context rules
carry the precision: the only range starting with 1 is legacy 15-digit JCB (so 13-digit
epoch-millisecond timestamps never pass), and a number introduced as an order, invoice, ticket
or tracking number is not a card unless the text also talks about cards.
"""

from __future__ import annotations

import re
from typing import Final

from stdnum import luhn
from stdnum.fr import siret

from memwarden.detectors.findings import PAYMENT_CARD, Finding

# A plain run of 12-19 digits, or groups (4 digits, then 3-6, a last one of 1-6) joined by one
# repeated separator. A comma before or after is a field separator (CSV) unless it groups
# thousands (`1,234`), which the look-arounds tell apart by the digits on its far side.
_CANDIDATE: Final = re.compile(
    r"(?<![\w./+-])(?<!\d,)"
    r"(?:\d{12,19}|\d{4}([ -])\d{3,6}(?:\1\d{3,6}){0,3}\1\d{1,6})"
    r"(?![\w]|\.\d|,\d{3}(?!\d)|-\d)"
)

# (prefix low, prefix high, min length, max length); prefixes compared on their own width.
# From the networks' published IIN ranges (as summarised on Wikipedia's "Payment card
# number" page), not from any evaluation row.
_IIN_RANGES: Final[tuple[tuple[str, str, int, int], ...]] = (
    # Visa issues 13, 16 and 19 digits only (Electron and debit inside): a 15-digit run
    # starting with 4 is no Visa card, and IMEIs (15 digits, Luhn by design) often start so.
    ("4", "4", 13, 13),
    ("4", "4", 16, 16),
    ("4", "4", 19, 19),
    ("51", "55", 16, 19),  # Mastercard
    ("2221", "2720", 16, 19),  # Mastercard 2-series
    ("2200", "2204", 16, 19),  # Mir
    ("2205", "2205", 16, 16),  # BORICA
    ("34", "34", 15, 15),  # Amex
    ("37", "37", 15, 15),  # Amex
    ("6011", "6011", 16, 19),  # Discover
    ("644", "649", 16, 19),  # Discover
    ("65", "65", 16, 19),  # Discover, RuPay, Troy
    ("3528", "3589", 16, 19),  # JCB
    ("1800", "1800", 15, 15),  # JCB (legacy 15-digit)
    ("2131", "2131", 15, 15),  # JCB (legacy 15-digit)
    ("1", "1", 15, 15),  # UATP
    ("1946", "1946", 16, 19),  # GPN
    ("300", "305", 14, 19),  # Diners Club (Carte Blanche at 14)
    ("3095", "3095", 16, 19),  # Diners Club
    ("36", "36", 14, 19),  # Diners Club International
    ("38", "39", 14, 19),  # Diners Club
    ("50", "50", 12, 19),  # Maestro, Dankort, Verve
    ("56", "69", 12, 19),  # Maestro (covers RuPay 60, InterPayment 636, InstaPayment)
    ("62", "62", 14, 19),  # UnionPay
    ("81", "82", 16, 16),  # RuPay
    ("81", "81", 17, 19),  # UnionPay (81xx, 16-19)
    ("9792", "9792", 16, 16),  # Troy
    ("9860", "9860", 16, 16),  # Humo
    ("8600", "8600", 16, 16),  # UzCard
    ("9704", "9704", 16, 19),  # Napas
    ("31", "31", 19, 19),  # China T-Union
    ("0604", "0604", 12, 19),  # Maestro (legacy UK range)
)
# UnionPay issues numbers without a Luhn digit (its 62 range, 16 to 19 digits; braintree's
# card-validator and creditcards-types skip the check for it too), so there the range is the
# check. At its usual 16 and 19 digits that suffices; at 17 and 18 it needs card wording, since
# an 18-digit Chinese resident id of Gansu (region 62) starts the same way.
_NO_LUHN_RANGES: Final[tuple[tuple[str, int, int], ...]] = (("62", 16, 19),)
_NO_LUHN_BARE_LENGTHS: Final = frozenset({16, 19})
# Issuer families with a length outside their brand's usual ones, or a prefix outside the
# ranges above (e.g. 35xx outside JCB's 3528-3589): a card only when the text says "card".
_LOOSE_FIRST_DIGITS: Final = frozenset("123456")

_CARD_CONTEXT: Final = re.compile(
    r"\b(?:card|credit|debit|visa|master\s?card|amex|american express|discover|maestro|jcb|"
    r"diners|unionpay|cc\d*|ccn|pan|cvv|cvc|expir\w*|exp|payment|pay|charge|billing)\b",
    re.IGNORECASE,
)
# Labels of numbers that are not cards. Underscores and digits count as word boundaries here,
# so `order_id:` and `imei=` are labels too. IMEIs carry a Luhn digit by design.
_NON_CARD_WORDS: Final = re.compile(
    r"(?<![A-Za-z])(?:order|invoice|ticket|tracking|reference|confirmation|booking|shipment|"
    r"parcel|sku|serial|transaction|trace|meeting|isbn|timestamp|epoch|imei|imeisv|imsi|"
    r"iccid|meid|esn|device|handset|s/n|sn|serial\s+no|barcode|po|purchase\s+order|ref|ean|upc|"
    r"gtin|isbn|issn|siret|siren|activation|fax|phone|tel)"
    r"(?![A-Za-z])|#",
    re.IGNORECASE,
)
_CONTEXT_WINDOW: Final = 48
# Digits with irregular spacing ("4111 11 1111111 111", "6011 1111-1111 1117"): 12 to 19
# digits, up to three spaces or dashes (or one dot) between any two. Far more non-card numbers
# look like this (lists, phone numbers), so it counts only where the text talks about cards.
_IRREGULAR: Final = re.compile(
    r"(?<![\w./+-])\d(?:(?:[ -]{1,3}|\.)?\d){11,18}(?![\w]|\.\d|[ -]{1,3}\d)"
)


def _other_identifier(digits: str) -> bool:
    """True for a plain 14-digit run that is a French SIRET (company establishment number).

    A SIRET is a Luhn-valid SIREN followed by a site number, Luhn-valid as a whole; a Diners
    Club number of 14 digits passes the inner SIREN check one time in ten, every SIRET always,
    so such a run is a card only with card wording near. (Reading valid EANs/GTINs of 12-14
    digits the same way was measured too: it cost a published test card and removed no false
    positive, so it is not done.)
    """
    return len(digits) == 14 and siret.is_valid(digits)


def _issuer_known(digits: str) -> bool:
    n = len(digits)
    for low, high, min_len, max_len in _IIN_RANGES:
        if min_len <= n <= max_len and low <= digits[: len(low)] <= high:
            return True
    return False


def _card_context(text: str, start: int, end: int) -> bool:
    around = text[max(0, start - 2 * _CONTEXT_WINDOW) : end + 2 * _CONTEXT_WINDOW]
    return _CARD_CONTEXT.search(around) is not None


def _non_card_context(text: str, start: int, end: int) -> bool:
    """Order/ticket/tracking wording right before the number, and no card wording nearby."""
    line_start = text.rfind("\n", 0, start) + 1
    before = text[max(line_start, start - _CONTEXT_WINDOW) : start]
    return _NON_CARD_WORDS.search(before) is not None and not _card_context(text, start, end)


def find_cards(text: str) -> list[Finding]:
    """Return card-number spans in `text`."""
    findings: list[Finding] = []
    position = 0
    while (match := _CANDIDATE.search(text, position)) is not None:
        end = _card_end(text, match)
        if end is not None:
            findings.append(Finding(PAYMENT_CARD, "card_luhn", match.start(), end, 1.0))
            position = end
        else:
            # A rejected run may hide a card that starts inside it ("SSN 1234 4111 1111 ...").
            position = match.start() + 1
    if _IRREGULAR.search(text) is not None and _CARD_CONTEXT.search(text) is not None:
        findings.extend(_irregular_cards(text, findings))
    return findings


def _irregular_cards(text: str, found: list[Finding]) -> list[Finding]:
    """Cards with irregular spacing, where card wording is near; none overlapping `found`."""
    extra: list[Finding] = []
    for match in _IRREGULAR.finditer(text):
        start, end = match.span()
        if any(f.start < end and start < f.end for f in found):
            continue
        if not _card_context(text, start, end):
            continue
        digits = "".join(c for c in match.group() if c.isdigit())
        if _is_card(text, digits, start, end) or _unionpay_without_luhn(digits):
            extra.append(Finding(PAYMENT_CARD, "card_luhn", start, end, 0.9))
    return extra


def _unionpay_without_luhn(digits: str) -> bool:
    return any(
        digits.startswith(prefix) and low <= len(digits) <= high
        for prefix, low, high in _NO_LUHN_RANGES
    )


def _card_end(text: str, match: re.Match[str]) -> int | None:
    """End of the longest card in the candidate: all its groups, or fewer (two cards in a row)."""
    start, raw = match.start(), match.group()
    separator = match.group(1)
    if separator is None:
        return match.end() if _is_card(text, raw, start, match.end(), plain=True) else None
    groups = raw.split(separator)
    for count in range(len(groups), 2, -1):
        digits = "".join(groups[:count])
        end = start + len(separator.join(groups[:count]))
        if _is_card(text, digits, start, end):
            return end
    return None


def _is_card(text: str, digits: str, start: int, end: int, plain: bool = False) -> bool:
    """Luhn (or UnionPay's range), a known issuer, and no non-card label before it.

    `plain`: written as one run of digits, as a company number is (a card's groups are not).
    """
    if not 12 <= len(digits) <= 19:
        return False
    if not luhn.is_valid(digits):
        if not _unionpay_without_luhn(digits):
            return False
        if len(digits) not in _NO_LUHN_BARE_LENGTHS and not _card_context(text, start, end):
            return False
        return not _non_card_context(text, start, end)
    if not _issuer_known(digits) or (plain and _other_identifier(digits)):
        loose = len(digits) >= 13 and digits[0] in _LOOSE_FIRST_DIGITS
        if not ((loose or _issuer_known(digits)) and _card_context(text, start, end)):
            return False
    return not _non_card_context(text, start, end)

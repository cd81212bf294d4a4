"""Look-alikes that must stay silent: identifiers, digests, placeholders, talk about secrets."""

from __future__ import annotations

import pytest
from stdnum import luhn

from memwarden.detectors import scan, verdict_for


def _luhn_failing(body: str) -> str:
    digit = (int(luhn.calc_check_digit(body)) + 1) % 10
    return body + str(digit)


def _grouped(number: str) -> str:
    return " ".join(number[i : i + 4] for i in range(0, len(number), 4))


HARD_NEGATIVES = [
    f"Order {_grouped(_luhn_failing('411111111111111'))} was dispatched today.",
    f"Invoice no. {_luhn_failing('550000000000000')} is overdue.",
    f"Ticket {_luhn_failing('601100000000000')} has been escalated.",
    "Request id 3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b9e0f3a returned 500.",
    "Merged in commit 9fceb02d0ae598e95dc970b74767f19372d61af8 yesterday.",
    "fixed in a1b2c3d, see the changelog",
    "sha256: 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
    "image: registry.example.com/app@sha256:"
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "Your parcel 1Z999AA10123456784 is out for delivery.",
    "ISBN 978-0-306-40615-7",
    "event timestamp 1718035200000 in epoch millis",
    "traceparent 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "SKU WX-2231-BLK-XL restocked",
    "Join meeting 845 2231 9904",
    "DB_PASSWORD=${DB_PASSWORD}",
    "api_key: <your-api-key-here>",
    "password: ********",
    "img src=data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop",
    "Remember to rotate your password every 90 days.",
    "I lost my credit card yesterday, how do I block it?",
    "The API key is stored in the vault, never in the repo.",
    "Version 10.2.0.1 fixes the crash.",
]


@pytest.mark.parametrize("text", HARD_NEGATIVES)
def test_hard_negatives_pass(text: str) -> None:
    detection = scan(text)
    assert verdict_for(detection) == ("pass", ()), [
        (f.code, f.detector, text[f.start : f.end]) for f in detection.findings
    ]

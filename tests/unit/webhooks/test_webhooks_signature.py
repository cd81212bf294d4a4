"""The Memwarden-Signature header: what a receiver's `verify` accepts and refuses."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memwarden.webhooks.signature import digest, parse, sign, verify

SECRET = "whsec_test"
BODY = b'{"id":"feed:1"}'
T = 1_764_748_800


def test_a_signed_body_verifies_with_its_secret_at_its_time() -> None:
    assert verify(SECRET, sign(SECRET, BODY, T), BODY, now=T)


def test_another_secret_or_a_changed_body_does_not_verify() -> None:
    header = sign(SECRET, BODY, T)
    assert not verify("whsec_other", header, BODY, now=T)
    assert not verify(SECRET, header, BODY + b" ", now=T)


def test_a_timestamp_outside_the_tolerance_is_refused_as_a_replay() -> None:
    header = sign(SECRET, BODY, T)
    assert verify(SECRET, header, BODY, now=T + 300)
    assert not verify(SECRET, header, BODY, now=T + 301)
    assert not verify(SECRET, header, BODY, now=T - 301)
    assert verify(SECRET, header, BODY, tolerance_s=3600, now=T + 3000)


def test_the_timestamp_is_signed_so_moving_it_breaks_the_signature() -> None:
    moved = sign(SECRET, BODY, T).replace(f"t={T}", f"t={T + 10}")
    assert not verify(SECRET, moved, BODY, now=T + 10)


def test_any_of_several_v1_signatures_may_match() -> None:
    header = f"t={T},v1={'0' * 64},v1={digest(SECRET, T, BODY)}"
    assert verify(SECRET, header, BODY, now=T)


def test_a_header_without_a_timestamp_or_signature_does_not_verify() -> None:
    assert parse("v1=abc") is None
    assert not verify(SECRET, "v1=abc", BODY, now=T)
    assert not verify(SECRET, f"t={T}", BODY, now=T)
    assert not verify(SECRET, "", BODY, now=T)
    assert not verify(SECRET, "t=-5,v1=x", BODY, now=T)


@given(
    secret=st.text(min_size=1, max_size=40),
    body=st.binary(max_size=200),
    other=st.binary(max_size=200),
    t=st.integers(min_value=0, max_value=10**12),
    skew=st.integers(min_value=-300, max_value=300),
)
def test_verify_accepts_exactly_the_signed_body_within_the_tolerance(
    secret: str, body: bytes, other: bytes, t: int, skew: int
) -> None:
    header = sign(secret, body, t)
    assert verify(secret, header, body, now=t + skew)
    assert verify(secret, header, other, now=t) == (other == body)
    assert not verify(secret, header, body, now=t + 301 + abs(skew))


@given(header=st.text(max_size=120), body=st.binary(max_size=50))
def test_verify_never_raises_on_any_header(header: str, body: bytes) -> None:
    assert verify(SECRET, header, body, now=T) in (True, False)

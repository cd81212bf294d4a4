"""Credentials said in sentences and commands: login pairs, flags, one-time codes; and prose
about secrets, or identifiers beside credential words, that must stay silent."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from memwarden.detectors.credential_prose import _PLAIN_KEY_LOWER, _plain_keys
from memwarden.detectors.credentials import find_credentials


def fake_token(length: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    """Random token built at run time, so no fixture looks like a leaked secret to scanners."""
    rng = random.Random(length * 17 + len(alphabet))
    return "".join(rng.choice(alphabet) for _ in range(length))


def _spans(text: str) -> list[str]:
    return [text[f.start : f.end] for f in find_credentials(text)]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("the printer's admin login is service / Kq9!mPa2", "Kq9!mPa2"),
        ("login for the camera: viewer / Lantern_77x", "Lantern_77x"),
        ("creds for staging are ci-bot:Mx4$ttQ9zz", "Mx4$ttQ9zz"),
        ("username ana.p, password Solar-Flare-2031", "Solar-Flare-2031"),
        ("sign in as qa-team with Pr1sm#Walk", "Pr1sm#Walk"),
        ("(pw Qz8&harbor)", "Qz8&harbor"),
        ("machine nas.home login backup password c0balt.R1ver", "c0balt.R1ver"),
        ("the password for the shared drive is Birch&Moss-41", "Birch&Moss-41"),
    ],
)
def test_a_password_said_in_a_sentence_is_found(text: str, secret: str) -> None:
    assert secret in _spans(text), _spans(text)


def test_a_password_in_a_url_with_an_empty_user_is_found() -> None:
    assert _spans("QUEUE=amqp://:W1nd0w-Sill@queue.lan:5672/") == ["W1nd0w-Sill"]
    assert "p@ss-W0rd9" in _spans("redis://:p@ss-W0rd9@cache.lan:6379/1")
    assert not _spans("see http://localhost:8080/path and https://host:443/")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("curl -u deploy:Zt7-kk2Q https://ci.lan/api", "Zt7-kk2Q"),
        ("mysqldump -h db -u app -p'Gr4nite!' shop", "Gr4nite!"),
        ("docker login ghcr.lan -u bot -p Rk2mQ9xxLp", "Rk2mQ9xxLp"),
        ("vault login --password=Fj3#Ml0qq", "Fj3#Ml0qq"),
        ("requests.post(u, auth=('svc', 'Yb5pP0wqL2'))", "Yb5pP0wqL2"),
    ],
)
def test_a_password_on_a_command_line_is_found(text: str, secret: str) -> None:
    assert secret in _spans(text), _spans(text)


def test_port_flags_are_not_passwords() -> None:
    assert not _spans("ssh -p 2222 admin@bastion.lan")
    assert not _spans("docker run -p 8080:80 nginx")
    assert not _spans("mysql -h db -P 3306 -u app -p")


def test_a_list_of_one_time_backup_codes_is_found() -> None:
    codes = [f"{fake_token(4, 'abcdef0123456789')}-{fake_token(5, '0123456789')}" for _ in "abcd"]
    text = "Your recovery codes:\n" + "\n".join(codes)
    (span,) = _spans(text)
    assert span.startswith(codes[0]) and span.endswith(codes[-1])
    assert _spans("MFA backup codes: 40917733 58102946 77310025 12095581")


def test_talk_about_codes_without_codes_is_not_a_credential() -> None:
    assert not _spans("Generate new backup codes from the security page.")
    assert not _spans("recovery codes were regenerated on 2026-04-01 and 2026-05-01")


@pytest.mark.parametrize(
    "text",
    [
        "the alarm code is 5519 until Friday",
        "PIN for the side door is 204917",
        "2FA seed for the ops mailbox is MZXW6YTBOI4DSNJQ",
    ],
)
def test_codes_and_seeds_named_as_such_are_found(text: str) -> None:
    assert _spans(text)


@pytest.mark.parametrize(
    "text",
    [
        "The password must be rotated and is required on first login.",
        "password for the wiki was reset this morning",
        "login at 09:14 from the office",
        "user alice: logged in twice",
        "sign in with SSO / SAML2 only",
        "the primary key is user_id",
        "zip code is 02139",
        "error code is 4031",
        "pin the dependency to 2.31.0",
        "account page https://portal.lan/account/settings",
    ],
)
def test_prose_about_logins_and_passwords_is_not_a_credential(text: str) -> None:
    assert not _spans(text), _spans(text)


@pytest.mark.parametrize(
    "text",
    [
        "span_id=" + fake_token(16, "0123456789abcdef"),
        '{"spanId": "' + fake_token(16, "0123456789abcdef") + '"}',
        "parent_id: " + fake_token(16, "0123456789abcdef"),
        "request_id: req_" + fake_token(24),
        '"integrity": "sha512-' + fake_token(86, string.ascii_letters + "+/") + '=="',
        "sri = sha384-" + fake_token(64, string.ascii_letters + string.digits + "+/"),
        "cache_key = 'tenant:42:invoices'",
        "job " + fake_token(26, "0123456789ABCDEFGHJKMNPQRSTVWXYZ") + " queued",
        "object_ref=" + fake_token(24, "0123456789abcdef"),
        "login trace " + fake_token(32, "0123456789abcdef") + " failed",
    ],
)
def test_identifiers_and_digests_are_not_credentials(text: str) -> None:
    assert not _spans(text), _spans(text)


def test_an_unnamed_high_entropy_value_is_still_a_credential() -> None:
    value = fake_token(32, string.ascii_letters + string.digits + "+/")
    assert _spans(f"zork={value}") == [value]


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("warehouse.lan:5432:sales:etl:Pq7!vvZ2", "Pq7!vvZ2"),  # a .pgpass line
        ("u: admin p: Br1ck&Mortar", "Br1ck&Mortar"),
        ("user=svc, pw=Hx9_kLq2", "Hx9_kLq2"),
        ('passphrase: "amber lantern quietly 1987"', "amber lantern quietly 1987"),
        ("Bot token (staging only): Zq81Xy7Lm0pW4ee2", "Zq81Xy7Lm0pW4ee2"),
        ("the signing secret is whsk_" + "Tt4Lm9Qp2Zz8", "whsk_Tt4Lm9Qp2Zz8"),
    ],
)
def test_short_keys_pgpass_lines_quoted_phrases_and_named_tokens_are_found(
    text: str, secret: str
) -> None:
    assert secret in _spans(text), _spans(text)


@pytest.mark.parametrize(
    "text",
    [
        "password: ________",
        "password: (ask the on-call engineer)",
        "account 210987654321/eu-west-2 owns the bucket",
        "nonce: " + fake_token(16, "0123456789abcdef"),
        'the secret is "out of the bag"',
        "user: bob / role: reviewer",
    ],
)
def test_blanks_asides_account_ids_and_nonces_are_not_credentials(text: str) -> None:
    assert not _spans(text), _spans(text)


@pytest.mark.parametrize(
    "text",
    [
        "the build must pass QA-1234 before the release",
        "does it pass test_auth2 in CI?",
        "password reset for OPS-2231 is done",
    ],
)
def test_pass_as_a_verb_and_ticket_keys_are_not_credentials(text: str) -> None:
    assert not _spans(text), _spans(text)


# Fragments that make keys, parts of keys and their near misses when joined at random.
_KEY_PARTS = st.sampled_from(
    [
        "pass",
        "word",
        "pw",
        "d",
        "pin",
        "api",
        "key",
        "secret",
        "token",
        "access",
        "personal",
        "alarm",
        "code",
        "safe",
        "combination",
        "2fa",
        "seed",
        "wi-fi",
        "s",
        "x",
        "<",
        ">",
        ":",
        " ",
        "  ",
        "\n",
        "=",
        "is",
        "the",
        "phrase",
        "mot de passe",
        "contraseña",
    ]
)


@given(st.lists(_KEY_PARTS, max_size=30).map("".join))
@example("pw" + "x" * 13 + " pwd")  # a later key just past the first word's window
def test_keys_found_near_their_last_word_are_the_keys_a_full_scan_finds(text: str) -> None:
    lowered = text.lower()
    assert [m.span() for m in _plain_keys(lowered)] == [
        m.span() for m in _PLAIN_KEY_LOWER.finditer(lowered)
    ]

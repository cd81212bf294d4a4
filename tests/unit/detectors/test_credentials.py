"""Credentials: vendor formats, secret-named assignments, plain language; placeholders are not."""

from __future__ import annotations

import random
import string

import pytest

from memwarden.detectors.credentials import find_credentials, is_placeholder

UPPER_DIGITS = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"


def fake_token(length: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    """Random token built at run time, so no fixture looks like a leaked secret to scanners."""
    rng = random.Random(length * 31 + len(alphabet))
    return "".join(rng.choice(alphabet) for _ in range(length))


def _spans(text: str) -> list[str]:
    return [text[f.start : f.end] for f in find_credentials(text)]


@pytest.mark.parametrize(
    "secret",
    [
        "AKIA" + fake_token(16, UPPER_DIGITS),
        "ghp_" + fake_token(36),
        "github_pat_" + fake_token(40),
        "xoxb-" + "1234567890-" + fake_token(24),
        "sk_live_" + fake_token(24),
        "sk-" + "proj-" + fake_token(40),
        "sk-" + "ant-api03-" + fake_token(60),
        "AIza" + fake_token(35),
        "glpat-" + fake_token(20),
        "hf_" + fake_token(34),
        "eyJ" + fake_token(20) + ".eyJ" + fake_token(30) + "." + fake_token(43),
    ],
)
def test_vendor_tokens_are_found_in_prose(secret: str) -> None:
    text = f"here is the token {secret} for the deploy"
    assert any(secret in found or found in secret for found in _spans(text))


def test_pem_private_key_block_is_one_span() -> None:
    body = fake_token(64, string.ascii_letters + string.digits + "+/")
    text = f"key:\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\nbye"
    spans = [s for s in _spans(text) if s.startswith("-----BEGIN")]
    assert spans and spans[0].endswith("-----END RSA PRIVATE KEY-----")


def test_public_key_block_is_not_a_credential() -> None:
    body = fake_token(64, string.ascii_letters + string.digits + "+/")
    assert not find_credentials(f"-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----")
    assert not find_credentials("public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJx user@host")


def test_database_url_password_is_the_span() -> None:
    password = "Tr0ub4dor" + fake_token(6)
    text = f"DATABASE_URL=postgres://app:{password}@db.internal:5432/main"
    assert password in _spans(text)


def test_database_url_without_password_is_fine() -> None:
    assert not find_credentials("connect to postgres://app@db.internal:5432/main")
    assert not find_credentials("DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/main")


@pytest.mark.parametrize(
    "line",
    [
        "password: Winter2024!",
        "DB_PASSWORD=s3cretvalue",
        'config = {"api_key": "q8X2mR7vL0pT5wZ9"}',
        "client_secret => 'Qm9va2VyLXNlY3JldA'",
        "smtp.pass = letmein42",
        "export GITLAB_TOKEN=abc123def456ghi789",
    ],
)
def test_secret_named_assignments_are_credentials(line: str) -> None:
    assert find_credentials(line)


@pytest.mark.parametrize(
    "line",
    [
        "password: ${DB_PASSWORD}",
        "api_key: <your-api-key-here>",
        "password = ********",
        "password: changeme",
        "password=",
        'password: ""',
        "token: {{ vault_token }}",
        "DB_PASSWORD=DB_PASSWORD",
        "secret: null",
        "api_key: YOUR_API_KEY",
        "password_hint: the name of my first dog",
        "password_min_length: 12",
        "token_url: https://auth.example.com/oauth/token",
    ],
)
def test_placeholders_and_settings_are_not_credentials(line: str) -> None:
    assert not find_credentials(line), line


def test_uuid_and_digests_on_their_own_are_not_credentials() -> None:
    assert not find_credentials("request 6f1c2b9e-3d4a-4c8e-9b7f-1a2b3c4d5e6f failed")
    assert not find_credentials("commit: " + fake_token(40, HEX))
    assert not find_credentials("image@sha256:" + fake_token(64, HEX))
    assert not find_credentials("checksum = " + fake_token(64, HEX))


def test_a_uuid_under_a_key_name_is_a_credential() -> None:
    assert find_credentials("HEROKU_API_KEY=6f1c2b9e-3d4a-4c8e-9b7f-1a2b3c4d5e6f")


def test_high_entropy_value_in_any_assignment_is_a_credential() -> None:
    value = fake_token(40, string.ascii_letters + string.digits + "+/")
    assert find_credentials(f"mimi={value}")


def test_plain_language_password_is_found_with_its_value_as_span() -> None:
    text = "btw my password is Hunter2-Boat, don't tell anyone"
    assert "Hunter2-Boat" in _spans(text)


def test_talking_about_passwords_is_not_a_credential() -> None:
    assert not find_credentials("The password is required and must be 12 characters long.")
    assert not find_credentials("I forgot my password again, can you reset it?")
    assert not find_credentials("Your password was changed yesterday.")


def test_yaml_value_under_a_password_key_is_found() -> None:
    text = "deploy:\n  password:\n    secure: correcthorsebatterystaple\n  user: bob"
    assert "correcthorsebatterystaple" in _spans(text)


def test_is_placeholder_recognises_templates_and_env_names() -> None:
    for value in ("${X}", "{{ x }}", "<secret>", "%env(X)%", "***", "MY_SECRET_VALUE", "null"):
        assert is_placeholder(value), value
    assert not is_placeholder("hunter2-boat")


def test_a_repeated_vendor_token_is_located_at_each_occurrence() -> None:
    key = "AKIA" + "Q7ZK2M9XW4RTB6HN"
    text = f"{key} ,m none {key} 4111 1111 1111 1111"
    spans = sorted(
        (f.start, f.end) for f in find_credentials(text) if f.detector == "detect_secrets"
    )
    assert spans == [(0, 20), (29, 49)]


def test_a_quoted_form_label_does_not_open_an_assignment_across_its_closing_quote() -> None:
    text = 'userLabel:"Username:",passwordLabel:"Password:",rememberLabel:"Remember me:"'
    assert _spans(text) == []


def test_an_assignment_nested_inside_a_rejected_value_is_still_found() -> None:
    secret = fake_token(14)
    assert _spans(f'url="jdbc:mysql://db/app?user=app&password={secret}"') == [secret]


@pytest.mark.parametrize(
    "line",
    [
        "buildConfigField 'String', 'API_KEY', '\"{v}\"'",
        'buildConfigField "String", "API_KEY", "\\"{v}\\""',
        'props.put("mail.smtp.password", "{v}")',
    ],
)
def test_a_secret_named_string_argument_gives_the_next_argument_as_its_value(line: str) -> None:
    secret = fake_token(32, HEX)
    assert _spans(line.replace("{v}", secret)) == [secret]


def test_string_arguments_without_a_secret_named_key_are_not_credentials() -> None:
    assert _spans('buildConfigField "String", "APP_NAME", "\\"' + fake_token(20) + '\\""') == []


@pytest.mark.parametrize("leader", ["----", "........", "==", "___"])
def test_a_value_after_a_run_of_leaders_beside_a_password_label_is_a_credential(
    leader: str,
) -> None:
    secret = fake_token(12, string.ascii_letters + string.digits + "#@$")
    assert _spans(f"    Ldap password   {leader}   {secret}") == [secret]


@pytest.mark.parametrize(
    "line",
    ["password --- see the vault", "token ---- ${TOKEN}", "Password ----- changeme"],
)
def test_leaders_before_words_a_template_or_a_placeholder_give_no_credential(line: str) -> None:
    assert _spans(line) == []


@pytest.mark.parametrize(
    "secret",
    [
        "dapi" + fake_token(32, HEX),
        "dapi" + fake_token(32, HEX) + "-3",
        "dp.pt." + fake_token(43),
        "dp.st.dev." + fake_token(43),
        "dp.audit." + fake_token(43),
        "PMAK-" + fake_token(24, HEX) + "-" + fake_token(34, HEX),
        "rubygems_" + fake_token(48, HEX),
    ],
)
def test_databricks_doppler_postman_and_rubygems_tokens_are_found_bare(secret: str) -> None:
    assert _spans(f"it is {secret} for now") == [secret]


@pytest.mark.parametrize(
    "text",
    [
        "dapi" + "x" * 32,
        "dp.pt." + "x" * 43,
        "PMAK-" + "0" * 24 + "-" + "0" * 34,
        "    dapiDataGetTopLongShortPositionRatio (params?: {}): Promise<implicitReturnType>;",
    ],
)
def test_vendor_prefixes_with_filler_or_an_identifier_are_not_tokens(text: str) -> None:
    assert _spans(text) == []


@pytest.mark.parametrize(
    "template",
    ["mvn sonar:sonar -Dsonar.login={v}", '$sonarLogin = "{v}"', "sonar.login={v}"],
)
def test_the_sonarqube_scanner_login_is_its_token(template: str) -> None:
    secret = fake_token(40, HEX)
    assert _spans(template.replace("{v}", secret)) == [secret]


def test_a_sonarqube_login_from_a_variable_is_not_a_token() -> None:
    assert _spans("/d:sonar.login=$(SONAR_LOGIN) /d:sonar.host.url=$(SONAR_HOST)") == []


@pytest.mark.parametrize(
    "secret",
    [
        "sgp_" + fake_token(40, HEX),
        "sgp_" + fake_token(16, HEX) + "_" + fake_token(40, HEX),
        "sgp_local_" + fake_token(40, HEX),
    ],
)
def test_sourcegraph_tokens_are_found_bare(secret: str) -> None:
    assert _spans(f"use {secret} here") == [secret]


def test_a_teams_incoming_webhook_url_is_a_credential() -> None:
    url = (
        "https://outlook.office.com/webhook/1f0c2d3e-4a5b-4c6d-8e7f-90a1b2c3d4e5@"
        "0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d/IncomingWebhook/3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f/"
        "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
    )
    text = f"post build results to {url} please"
    assert (text.index(url), text.index(url) + len(url)) in {
        (f.start, f.end) for f in find_credentials(text) if f.detector == "teams_webhook"
    }
    assert not [f for f in find_credentials(url.replace("IncomingWebhook", "Jenkins"))]


def test_a_mailgun_key_is_found_and_a_filler_one_is_not() -> None:
    assert any(
        f.detector == "mailgun_key"
        for f in find_credentials("mg = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0'")
    )
    assert not find_credentials("see key-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx in the docs")


def test_an_authorization_header_with_any_scheme_word_gives_its_value() -> None:
    text = "Authorization: SSWS 00Qz7Kp2Lm9Xv4Rt6Wb8Nc1Hd3Fg5Js0Ya2Ue4Io6"
    assert "00Qz7Kp2Lm9Xv4Rt6Wb8Nc1Hd3Fg5Js0Ya2Ue4Io6" in _spans(text)
    assert not find_credentials("Authorization: Bearer ${API_TOKEN}")
    assert not find_credentials("Authorization: see the docs for the header")


def test_a_key_shape_in_the_middle_of_a_longer_run_of_capitals_is_not_a_key() -> None:
    # `ASIA` + 16 capitals sits inside the word; the same shape standing alone is a key id.
    assert not find_credentials('<link rel="login?user=EUROPEASIAAUSTRALIAAMERICA" />')
    assert find_credentials("key id ASIAQ7ZK2M9XW4RTB6HN for the job")


def test_a_bracketed_stand_in_with_spaces_is_a_placeholder() -> None:
    for line in (
        "AUTH_TOKEN=<an authorization token>",
        "api_key = {your api key here}",
        "password: [the password you chose]",
    ):
        assert not find_credentials(line), line
    assert "Zq8w2LmX9pK4" in _spans("AUTH_TOKEN=Zq8w2LmX9pK4 <- rotate monthly")


def test_a_value_that_says_it_is_not_real_is_a_placeholder() -> None:
    for value in ("not_a_real_token", "NotARealKeyButLooksLikeOne", "notreal-42Xq"):
        assert is_placeholder(value), value
        assert not find_credentials(f"DOCKER_TOKEN={value}"), value
    assert "n0tR3al1y-Qz8w" in _spans("DOCKER_TOKEN=n0tR3al1y-Qz8w")


def test_a_telegram_token_in_its_api_url_is_redacted_whole() -> None:
    token = "110201543:AAHdqTcvCH1vGWJxfSe1ofSAs0K5PALDsaw"
    text = f"curl https://api.telegram.org/bot{token}/getMe"
    start = text.index(token)
    assert (start, start + len(token)) in {
        (f.start, f.end) for f in find_credentials(text) if f.detector == "detect_secrets"
    }

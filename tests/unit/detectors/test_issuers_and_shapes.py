"""Issuer checks (GitHub/npm checksums, JWT headers, Slack and AWS shapes) and the extra
assignment shapes. Values here are made up for the tests, not copied from the eval set."""

from __future__ import annotations

import re
import string
import zlib

from hypothesis import given
from hypothesis import strategies as st

from memwarden.detectors.assignments import iter_pairs
from memwarden.detectors.credentials import find_credentials
from memwarden.detectors.issuers import (
    base62,
    checksum_ok,
    has_sequence,
    is_periodic,
    jwt_ok,
    plausible,
)
from memwarden.detectors.secret_values import is_placeholder

_ALNUM = string.ascii_letters + string.digits


def _github(prefix: str, body30: str) -> str:
    return f"{prefix}_{body30}{base62(zlib.crc32(body30.encode()))}"


def _flagged(text: str) -> bool:
    return bool(find_credentials(text))


def test_a_github_token_with_its_checksum_is_found_on_its_own() -> None:
    token = _github("ghp", "Qw3rTy7uIoP9aSdF2gHjK4lZxC6vBn")
    assert checksum_ok(token)
    assert _flagged(f"the deploy token {token} still works")


def test_a_github_token_with_a_wrong_checksum_is_not_found_in_prose() -> None:
    token = _github("ghp", "Qw3rTy7uIoP9aSdF2gHjK4lZxC6vBn")
    altered = token[:-1] + ("0" if token[-1] != "0" else "1")
    assert not checksum_ok(altered)
    assert _flagged(f"see {token} in the docs")
    assert not _flagged(f"see {altered} in the docs")


def test_an_npm_token_uses_the_same_checksum() -> None:
    assert checksum_ok(_github("npm", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5"))


@given(st.text(alphabet=_ALNUM, min_size=30, max_size=30), st.integers(0, 35), st.data())
def test_a_github_token_with_any_one_character_changed_fails_its_checksum(
    body: str, index: int, data: st.DataObject
) -> None:
    token = _github("ghp", body)
    position = 4 + index
    replacement = data.draw(st.sampled_from([c for c in _ALNUM if c != token[position]]))
    altered = token[:position] + replacement + token[position + 1 :]
    assert checksum_ok(token)
    assert not checksum_ok(altered)


def test_a_placeholder_github_token_is_not_a_finding() -> None:
    assert not _flagged("token: ghp_" + "x" * 36)


def test_a_jwt_needs_a_json_header_naming_its_algorithm() -> None:
    import base64
    import json

    def seg(obj: object) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    good = f"{seg({'alg': 'HS256', 'typ': 'JWT'})}.{seg({'sub': 'u1'})}.c2lnbmF0dXJlLXZhbHVl"
    assert jwt_ok(good)
    assert _flagged(f"cookie {good}")
    bad = f"eyJub3RfanNvbl9hdF9hbGw.{seg({'sub': 'u1'})}.c2lnbmF0dXJlLXZhbHVl"
    assert not jwt_ok(bad)


def test_slack_and_aws_placeholders_are_not_plausible() -> None:
    assert not plausible("xoxb-xxxxxxxxxx-xxxxxxxxxx-xxxxxxxxxxxx")
    assert not plausible("xoxb-123-abc")
    assert plausible("xoxb-918273645012-5647382910273-Hq7Lm2Zp9Rt4Vx1Ns8Kd3Wb6")
    assert not plausible("AKIAXXXXXXXXXXXXXXXX")
    assert not plausible("AKIAIOSFODNN7EXAMPLE")
    assert plausible("AKIAQ7RZ4MPLW2XK5N3T")


def test_an_xml_element_over_several_lines_is_a_pair() -> None:
    assert _flagged("<dbPassword>\n    Tr0ub4dor&3xq\n</dbPassword>")


def test_an_xml_name_and_value_attribute_pair_is_read_as_one() -> None:
    assert _flagged('<add key="SmtpPassword" value="h7Gq!2mZr9"/>')
    assert not _flagged('<add key="SmtpHost" value="mail.internal"/>')


def test_makefile_assignments_of_every_flavour_are_read() -> None:
    for op in ("=", "?=", ":=", "::=", ":::=", "!=", "+="):
        assert _flagged(f'DEPLOY_TOKEN {op} "k2Vq8Lz0Rt5Wn3Yp7Bx1"'), op


def test_php_concatenation_and_go_declarations_are_read() -> None:
    assert _flagged('$apiToken .= "k2Vq8Lz0Rt5Wn3Yp7Bx1"')
    assert _flagged('const apiToken = "k2Vq8Lz0Rt5Wn3Yp7Bx1"')
    assert _flagged("apiToken := `k2Vq8Lz0Rt5Wn3Yp7Bx1`")


def test_a_java_system_property_naming_a_password_is_read() -> None:
    assert _flagged('System.setProperty("mail.smtp.password", "h7Gq!2mZr9");')


def test_a_curl_user_flag_gives_its_password() -> None:
    assert _flagged("curl --user ops:Zq8!vL2mRt https://api.internal/")
    assert not _flagged('curl --user "$USER:$PASS" https://api.internal/')


def test_an_authorization_header_with_any_scheme_is_read() -> None:
    assert _flagged('-H "Authorization: Token 9f8e7d6c5b4a39281706f5e4d3c2b1a0"')
    assert not _flagged('-H "Authorization: Bearer $TOKEN"')


def test_a_kubernetes_secret_data_value_is_a_secret() -> None:
    text = "kind: Secret\ndata:\n  extra: c2VydmljZTpodW50ZXIy\n"
    assert _flagged(text)
    assert not _flagged(text.replace("kind: Secret", "kind: ConfigMap"))


def test_fake_and_filler_values_are_placeholders() -> None:
    assert not _flagged('my_password = "fakesecret"')
    assert not _flagged('"aws_secret_access_key" = aaaaaaaaaaaaaaaaaaaaaaaaaaaaend')


_KEYS = st.sampled_from(["password", "db_password", "apiToken", "client_secret", "API_KEY"])
_SHAPES = st.sampled_from(
    [
        '{k} = "{v}"',
        "{k}: {v}",
        '"{k}": "{v}"',
        "{k}={v}",
        "export {k}={v}",
        '{k} ?= "{v}"',
        '${k} .= "{v}"',
        "<{k}>{v}</{k}>",
        '<entry name="{k}" value="{v}"/>',
        'var {k} = "{v}", other = 1;',
        '{k} := "{v}"',
    ]
)


# Random bodies, less the filler the placeholder rule rejects on purpose (`0000…`, `xxxx`, a
# stand-in word such as `EXAMPLE` that a random body can spell by chance).
_BODIES = st.text(alphabet=_ALNUM, min_size=12, max_size=30).filter(
    lambda b: len(set(b)) >= 8 and not re.search(r"(.)\1{3,}|[xX]{3,}", b) and not is_placeholder(b)
)


@given(_KEYS, _SHAPES, _BODIES)
def test_a_secret_named_value_is_found_in_any_language_shape(
    key: str, shape: str, body: str
) -> None:
    value = f"Q7{body}x9"
    assert _flagged(shape.format(k=key, v=value))


@given(st.text(max_size=300))
def test_the_assignment_parser_never_crashes(text: str) -> None:
    for pair in iter_pairs(text):
        assert 0 <= pair.start <= len(text)
    find_credentials(text)


def test_ini_toml_env_and_ruby_shapes_are_read() -> None:
    assert _flagged("[db]\npassword = Hq7!Lm2Zp9Rt")
    assert _flagged('[auth]\napi_token = "Hq7Lm2Zp9Rt4Vx1Ns8Kd"')
    assert _flagged("export DB_PASSWORD='Hq7!Lm2Zp9Rt'")
    assert _flagged(":password => 'Hq7!Lm2Zp9Rt',")


def test_csharp_verbatim_strings_and_javascript_comma_declarations_are_read() -> None:
    assert _flagged('string apiKey = @"Hq7Lm2Zp9Rt4Vx1Ns8Kd";')
    assert _flagged('var host = "db", password = "Hq7!Lm2Zp9Rt", port = 5432;')


def test_a_subscripted_key_names_its_value() -> None:
    assert _flagged('settings["secret"] = "Hq7Lm2Zp9Rt4Vx1Ns8Kd"')
    assert not _flagged('settings["theme"] = "Hq7Lm2Zp9Rt4Vx1Ns8Kd"')


def test_a_netrc_entry_gives_its_password() -> None:
    assert _flagged("machine git.internal login deploy password 9f8e7d6c5b4a3928")


def test_names_routes_labels_and_variables_under_secret_keys_are_not_secrets() -> None:
    assert not _flagged("secretKey: api-key")
    assert not _flagged('put "/reset-password" => "accounts/passwords#update"')
    assert not _flagged('passwordLabel: "Password:"')
    assert not _flagged("password = $input;")
    assert not _flagged('password: "{{ .Values.password }}"')


def test_a_generated_password_holding_template_characters_is_still_a_secret() -> None:
    assert _flagged('password = "x{{7}q${z]9(Lm[w>-_$#Tt}}"')


def test_a_published_example_key_is_not_a_finding() -> None:
    assert not _flagged("aws_access_key_id = AKIAIOSFODNN7EXAMPLE")


def test_an_azure_client_secret_is_found_by_its_format_and_its_mask_is_not() -> None:
    assert _flagged("the value is Zq3" + "8Q~" + "Hq7Lm2Zp9Rt4Vx1Ns8Kd3Wb6Yc5Tf0Gj2")
    assert not _flagged("client_secret=Zq38Q~" + "x" * 34)


# Third round (issue 26): filler bodies that repeat or count, and detect-secrets' spans.


@given(
    unit=st.text(alphabet=string.ascii_letters + string.digits, min_size=2, max_size=8).filter(
        lambda u: len(set(u)) > 1
    ),
    repeats=st.integers(min_value=3, max_value=8),
)
def test_a_unit_said_over_and_over_is_periodic_filler(unit: str, repeats: int) -> None:
    body = unit * max(repeats, -(-12 // len(unit)) + 1)
    assert is_periodic(body)
    assert not plausible("GR1348941" + body)


@given(start=st.integers(min_value=0, max_value=26 - 8), length=st.integers(8, 12))
def test_a_counting_run_of_eight_or_more_is_filler(start: int, length: int) -> None:
    run = string.ascii_uppercase[start : start + length][:length]
    assert has_sequence("Q" + run + "7")
    assert not plausible("AKIA" + (run + "ZQWXRTYP")[:16])


_BODY = st.text(alphabet=string.ascii_letters + string.digits, max_size=16)


@given(
    body=st.builds(
        lambda a, unit, n, b: a + unit * n + b,
        _BODY,
        st.text(alphabet="ab1", min_size=2, max_size=8),
        st.integers(0, 7),
        _BODY,
    )
)
def test_periodic_and_counting_tests_agree_with_a_plain_reading(body: str) -> None:
    # The regexes against a brute-force reading of the same words: a unit of 2-8 characters
    # seen 3+ times in a row over 12+ characters; 8 characters each one more than the last.
    periodic = any(
        body[i : i + unit * reps] == body[i : i + unit] * reps
        for unit in range(2, 9)
        for reps in [max(3, -(-12 // unit))]
        for i in range(len(body) - unit * reps + 1)
    )
    counting = any(
        all(ord(body[i + k + 1]) == ord(body[i + k]) + 1 for k in range(7))
        for i in range(len(body) - 7)
    )
    assert is_periodic(body) == periodic
    assert has_sequence(body) == counting


def test_a_masked_gitlab_token_is_not_a_credential() -> None:
    for masked in ("glpat-XXXXXXXXXXX-XXXXXXXX", "glrt-tx_xxxxxxxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxx"):
        assert find_credentials(masked) == [], masked


def test_a_gitlab_token_found_by_detect_secrets_is_redacted_whole() -> None:
    token = "glpat-Q7zK2m9XW4rTb6HnP3vL"
    text = f"deploy with {token} tonight"
    spans = {(f.start, f.end) for f in find_credentials(text) if f.detector == "detect_secrets"}
    assert spans == {(text.index(token), text.index(token) + len(token))}


def test_a_url_password_of_three_characters_is_a_sample() -> None:
    assert not [
        f
        for f in find_credentials('u = "https://user:abc@api.com/v1"')
        if f.detector == "url_password"
    ]
    found = find_credentials('u = "https://user:k9Qz@api.com/v1"')
    assert any(f.detector == "url_password" for f in found)


# Fourth round (issue 26): shapes and stand-ins found through whispers' fixtures (train).


def test_a_numbered_secret_key_is_named_like_the_key_without_its_number() -> None:
    assert _flagged('var backup_password2 = "bluefish77"')
    assert _flagged('$deploy_token_07 = "Ld4mRq9sXe";')
    assert not _flagged("var backup_password2 = getSecret2()")


def test_a_record_naming_its_key_in_another_field_gives_the_value() -> None:
    assert _flagged('{"key": "smtp_password", "value": "Rk7bYt2wQm"}')
    assert _flagged("<entry><key>db.password</key><value>Rk7bYt2wQm</value></entry>")
    assert _flagged("env:\n  - name: DB_PASSWORD\n    value: Rk7bYt2wQm\n")
    assert not _flagged('{"key": "smtp_host", "value": "mail.example.org"}')
    assert not _flagged('{"key": "smtp_password", "value": "${SMTP_PASSWORD}"}')


def test_several_names_assigned_at_once_pair_with_their_own_values() -> None:
    text = 'api_host, api_token := "api.example.org", "Zt6pQw2nLx"'
    spans = [text[f.start : f.end] for f in find_credentials(text)]
    assert spans == ["Zt6pQw2nLx"]
    assert not _flagged('user_name, user_password := "ops", "{password}"')


def test_a_dockerfile_env_line_without_an_equals_sign_gives_its_value() -> None:
    assert _flagged("ENV REGISTRY_TOKEN Vb3nQe8rTz_Kw2")
    assert not _flagged("ENV REGISTRY_TOKEN $REGISTRY_TOKEN")
    assert not _flagged("ENV REGISTRY_TOKEN {{ REGISTRY_TOKEN }}")


def test_a_comparison_with_a_literal_gives_the_literal() -> None:
    assert _flagged('if password == "Pm4xTq8wLz":')
    assert _flagged("if (token === 'Pm4xTq8wLz') {")
    assert not _flagged('if password == "":')


def test_a_yaml_list_under_a_secret_named_key_gives_each_item() -> None:
    assert _flagged('fallback_passwords:\n  - "Gh5kWq2pZr"\n  - "Tn8vBx3mLs"\n')


def test_variables_templates_and_code_under_secret_keys_are_stand_ins() -> None:
    assert is_placeholder("$$db_password")
    assert is_placeholder("{password}")
    assert is_placeholder("{ NPM_TOKEN }")
    assert is_placeholder("prefix_{}")
    assert not is_placeholder("{Zq5kVrX1n8tA2}")  # a braced random value is not a name
    assert not _flagged('password = secrets["password"]')
    assert not _flagged("<db_password>{{ password }}</db_password>")
    assert not _flagged('login_password = "user_{}".format(suffix)')


def test_a_relative_path_of_words_is_not_a_secret_but_a_base64_key_with_a_slash_is() -> None:
    assert not _flagged('vault_secret_path: "kv/data/app1/db"')
    assert not _flagged('vault_password = "apps/billing/db_password"')
    assert _flagged('aws_secret_access_key = "q8Hf2LmZ/Rt7wXp3NvK9/bYc4JdE1sGaU6oTi0Wn"')


def test_words_and_numbers_joined_by_separators_under_a_key_name_are_names() -> None:
    assert not _flagged('license_key = "acme-pro-edition-2024"')
    assert not _flagged('feature_key: "checkout_flow_v2"')
    assert _flagged('signing_key = "Jx7qLw2pZk9vTn4r"')


def test_a_dotted_attribute_under_a_secret_key_is_a_reference() -> None:
    assert not _flagged("db_password = settings.database.password")
    assert _flagged("db_password = Qz7.rWk2.Lp9x")

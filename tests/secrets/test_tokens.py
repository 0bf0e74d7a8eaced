"""Tests for repomem.secrets.tokens: well-known token formats, URLs and PEM private keys.

Every fake credential is assembled at run time (see tests/secrets/cases.py).
"""

from __future__ import annotations

import pytest

from repomem.secrets import REDACTED, redact
from tests.secrets.cases import (
    ANTHROPIC,
    AWS_KEY_ID,
    AWS_SECRET,
    AWS_TEMP_KEY_ID,
    GITHUB_FINE_GRAINED,
    GITHUB_OAUTH,
    GITHUB_PAT,
    GITHUB_REFRESH,
    GITHUB_SERVER_TO_SERVER,
    GITHUB_USER_TO_SERVER,
    GITLAB,
    GOOGLE,
    HEX,
    JWT,
    NPM,
    OPENAI_LEGACY,
    OPENAI_PROJECT,
    PASSWORD,
    PYPI,
    SENDGRID,
    SLACK_BOT,
    SLACK_USER,
    SLACK_WEBHOOK_PATH,
    STRIPE_RESTRICTED,
    STRIPE_SECRET,
    STRIPE_TEST,
    TWILIO,
    URLSAFE,
    assert_kept,
    fake,
    line_shape,
    named,
    pem_block,
)

TOKENS = {
    "aws_access_key_id": AWS_KEY_ID,
    "aws_temporary_access_key_id": AWS_TEMP_KEY_ID,
    "github_personal_token": GITHUB_PAT,
    "github_oauth_token": GITHUB_OAUTH,
    "github_user_to_server_token": GITHUB_USER_TO_SERVER,
    "github_server_to_server_token": GITHUB_SERVER_TO_SERVER,
    "github_refresh_token": GITHUB_REFRESH,
    "github_fine_grained_token": GITHUB_FINE_GRAINED,
    "gitlab_token": GITLAB,
    "slack_bot_token": SLACK_BOT,
    "slack_user_token": SLACK_USER,
    "anthropic_key": ANTHROPIC,
    "openai_legacy_key": OPENAI_LEGACY,
    "openai_project_key": OPENAI_PROJECT,
    "google_api_key": GOOGLE,
    "stripe_secret_key": STRIPE_SECRET,
    "stripe_restricted_key": STRIPE_RESTRICTED,
    "stripe_test_key": STRIPE_TEST,
    "twilio_api_key": TWILIO,
    "sendgrid_key": SENDGRID,
    "npm_token": NPM,
    "jwt": JWT,
}


@named("token", TOKENS)
def test_token_in_a_list_is_redacted(token: str) -> None:
    text = f"KNOWN = [\n    {token!r},\n]\n"
    out, n = redact(text)
    assert token not in out
    assert out == f"KNOWN = [\n    {REDACTED!r},\n]\n"
    assert n == 1


@named("token", TOKENS)
def test_token_in_a_comment_or_prose_is_redacted(token: str) -> None:
    out, n = redact(f"# rotate {token} before friday\n")
    assert out == f"# rotate {REDACTED} before friday\n"
    assert n == 1


@named("token", TOKENS)
def test_token_assigned_to_a_credential_name_is_counted_once(token: str) -> None:
    out, n = redact(f'API_TOKEN = "{token}"\n')
    assert out == f'API_TOKEN = "{REDACTED}"\n'
    assert n == 1


def test_token_at_the_very_start_of_the_text_is_redacted() -> None:
    assert redact(OPENAI_LEGACY) == (REDACTED, 1)
    assert redact(STRIPE_RESTRICTED + "\n" + ANTHROPIC) == (f"{REDACTED}\n{REDACTED}", 2)


def test_aws_access_key_is_redacted() -> None:
    out, n = redact(f"aws_access_key_id={AWS_KEY_ID}\n")
    assert AWS_KEY_ID not in out
    assert n == 1


def test_aws_secret_access_key_is_redacted_unquoted_even_in_code() -> None:
    text = f"aws_secret_access_key = {AWS_SECRET}\n"
    assert redact(text) == (f"aws_secret_access_key = {REDACTED}\n", 1)


def test_aws_secret_access_key_is_redacted_in_camel_case_json() -> None:
    text = f'{{"SecretAccessKey": "{AWS_SECRET}"}}'
    assert redact(text) == (f'{{"SecretAccessKey": "{REDACTED}"}}', 1)


def test_pypi_token_keeps_its_prefix() -> None:
    out, n = redact(f"password = {PYPI}\n", config_like=True)
    assert out == f"password = pypi-{REDACTED}\n"
    assert n == 1


def test_slack_webhook_keeps_host_and_redacts_path() -> None:
    url = "https://hooks.slack.com/services/" + SLACK_WEBHOOK_PATH
    out, n = redact(f'WEBHOOK = "{url}"\n')
    assert out == f'WEBHOOK = "https://hooks.slack.com/services/{REDACTED}"\n'
    assert n == 1


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            f"postgres://app:{PASSWORD}@db.internal:5432/app",
            f"postgres://app:{REDACTED}@db.internal:5432/app",
        ),
        (f"redis://:{PASSWORD}@cache:6379/0", f"redis://:{REDACTED}@cache:6379/0"),
        (
            f"https://deploy:{PASSWORD}@git.example.com/org/repo.git",
            f"https://deploy:{REDACTED}@git.example.com/org/repo.git",
        ),
    ],
)
def test_url_password_is_redacted_keeping_scheme_user_and_host(url: str, expected: str) -> None:
    assert redact(f'DSN = "{url}"') == (f'DSN = "{expected}"', 1)


# ---------------------------------------------------------------------------------------
# PEM private keys
# ---------------------------------------------------------------------------------------


def test_pem_private_key_body_is_redacted_keeping_its_lines() -> None:
    block = pem_block(lines=5)
    text = f'KEY = """\n{block}\n"""\nprint("after")\n'
    out, n = redact(text)
    assert n == 1
    assert line_shape(out) == line_shape(text)
    assert out.splitlines() == [
        'KEY = """',
        "-----BEGIN RSA PRIVATE KEY-----",
        REDACTED,
        "",
        "",
        "",
        "",
        "-----END RSA PRIVATE KEY-----",
        '"""',
        'print("after")',
    ]


@pytest.mark.parametrize(
    "kind",
    [
        "PRIVATE KEY",
        "RSA PRIVATE KEY",
        "EC PRIVATE KEY",
        "DSA PRIVATE KEY",
        "OPENSSH PRIVATE KEY",
        "ENCRYPTED PRIVATE KEY",
        "PGP PRIVATE KEY BLOCK",
    ],
)
def test_every_kind_of_private_key_block_is_redacted(kind: str) -> None:
    block = pem_block(kind)
    out, n = redact(block)
    assert n == 1
    assert out.startswith(f"-----BEGIN {kind}-----\n{REDACTED}\n")
    assert out.endswith(f"-----END {kind}-----")
    assert line_shape(out) == line_shape(block)


def test_unterminated_pem_block_is_redacted_to_the_end_of_the_text() -> None:
    text = "x = 1\n" + pem_block(lines=4).rsplit("\n", 1)[0] + "\ntrailing = 2\n"
    out, n = redact(text)
    assert n == 1
    assert line_shape(out) == line_shape(text)
    assert "trailing" not in out
    assert out.startswith(f"x = 1\n-----BEGIN RSA PRIVATE KEY-----\n{REDACTED}\n")


def test_pem_key_written_with_escaped_newlines_on_one_line_is_redacted() -> None:
    block = pem_block(lines=3, newline="\\n")
    text = f'KEY = "{block}"\n'
    out, n = redact(text)
    assert n == 1
    assert out == (
        f'KEY = "-----BEGIN RSA PRIVATE KEY-----{REDACTED}-----END RSA PRIVATE KEY-----"\n'
    )


def test_public_certificate_is_not_redacted() -> None:
    cert = pem_block("CERTIFICATE")
    assert redact(cert) == (cert, 0)


SIGNATURE_HEX = fake(HEX, 64, 65)
SIGNATURE_B64 = fake(URLSAFE, 27, 66) + "~" + fake(URLSAFE, 20, 67)

PRESIGNED_URLS = {
    "amz_signature": (
        "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        "&X-Amz-Date=20240101T000000Z&X-Amz-Signature={hex}"
    ),
    "s3_v2_signature": (
        "https://b.s3.amazonaws.com/k?AWSAccessKeyId=x&Expires=1700000000&Signature={hex}"
    ),
    "cloudfront_signature": (
        "https://d1.cloudfront.net/i.jpg?Expires=1700000000&Signature={b64}&Key-Pair-Id=K2JC"
    ),
    "goog_signature": (
        "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        "&X-Goog-Signature={hex}"
    ),
    "lower_case_signature": ("https://api.acme.io/v1/file?id=7&signature={hex}"),
}


@named("url", PRESIGNED_URLS)
def test_presigned_url_signatures_are_redacted_keeping_the_url(url: str) -> None:
    text = f'u = "{url.format(hex=SIGNATURE_HEX, b64=SIGNATURE_B64)}"'
    out, count = redact(text)
    assert out == f'u = "{url.format(hex=REDACTED, b64=REDACTED)}"' and count == 1


@pytest.mark.parametrize(
    "text",
    [
        'params = {"X-Amz-Signature": signature, "X-Amz-Credential": credential}',
        'url += "&X-Amz-Signature=" + signature',
        'assert "X-Amz-Signature=" in url',
        "def verify(payload, signature=None): ...",
        f'EXPECTED = "Signature={SIGNATURE_HEX[:32]}"  # a test vector, not in a URL',
        "https://x/api?signature=abcdefghijklmnopqrstuvwxyz",  # a word: no digit
    ],
)
def test_signature_names_without_a_signature_in_a_url_are_kept(text: str) -> None:
    assert_kept(text)

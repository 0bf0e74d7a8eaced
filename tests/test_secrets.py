"""Tests for repomem.secrets: secret files, redaction, line preservation.

Every fake credential is assembled at run time (prefix + generated body) so this file
itself holds nothing a secret scanner would flag.
"""

from __future__ import annotations

import base64
import json
import random
import string

import pytest

from repomem.errors import ConfigError
from repomem.secrets import (
    REDACTED,
    SECRET_FILE_REASON,
    contains_secret,
    is_config_like,
    is_secret_file,
    redact,
)

# ---------------------------------------------------------------------------------------
# Fake credentials of the right shape
# ---------------------------------------------------------------------------------------

_UPPER_DIGITS = string.ascii_uppercase + string.digits
_ALNUM = string.ascii_letters + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"
_HEX = "0123456789abcdef"


def fake(alphabet: str, n: int, seed: int = 0) -> str:
    """n characters from alphabet, deterministic, always mixing letters and digits."""
    rng = random.Random(seed * 1000 + n)
    while True:
        body = "".join(rng.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in body) and any(c.isalpha() for c in body):
            return body


def fake_jwt() -> str:
    def part(obj: dict[str, object]) -> str:
        raw = json.dumps(obj, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    header = part({"alg": "HS256", "typ": "JWT"})
    payload = part({"sub": "1234567890", "name": "Jane", "iat": 1516239022})
    return f"{header}.{payload}.{fake(_URLSAFE, 43, 7)}"


AWS_KEY_ID = "AK" + "IA" + fake(_UPPER_DIGITS, 16, 1)
AWS_TEMP_KEY_ID = "AS" + "IA" + fake(_UPPER_DIGITS, 16, 2)
AWS_SECRET = fake(_B64, 40, 3)
GITHUB_PAT = "gh" + "p_" + fake(_ALNUM, 36, 4)
GITHUB_OAUTH = "gh" + "o_" + fake(_ALNUM, 36, 5)
GITHUB_USER_TO_SERVER = "gh" + "u_" + fake(_ALNUM, 36, 6)
GITHUB_SERVER_TO_SERVER = "gh" + "s_" + fake(_ALNUM, 36, 7)
GITHUB_REFRESH = "gh" + "r_" + fake(_ALNUM, 36, 8)
GITHUB_FINE_GRAINED = "github" + "_pat_" + fake(_ALNUM, 22, 9) + "_" + fake(_ALNUM, 59, 9)
GITLAB = "gl" + "pat-" + fake(_ALNUM, 20, 10)
SLACK_BOT = "xo" + "xb-" + "1234567890-1234567890123-" + fake(_ALNUM, 24, 11)
SLACK_USER = "xo" + "xp-" + "1234567890-1234567890123-" + fake(_ALNUM, 32, 12)
SLACK_WEBHOOK_PATH = "T" + fake(_UPPER_DIGITS, 8, 13) + "/B" + fake(_UPPER_DIGITS, 8, 14)
SLACK_WEBHOOK_PATH += "/" + fake(_ALNUM, 24, 15)
ANTHROPIC = "sk" + "-ant-api03-" + fake(_URLSAFE, 93, 16) + "AA"
OPENAI_LEGACY = "sk" + "-" + fake(_ALNUM, 48, 17)
OPENAI_PROJECT = "sk" + "-proj-" + fake(_URLSAFE, 120, 18)
GOOGLE = "AI" + "za" + fake(_URLSAFE, 35, 19)
STRIPE_SECRET = "sk" + "_live_" + fake(_ALNUM, 24, 20)
STRIPE_RESTRICTED = "rk" + "_live_" + fake(_ALNUM, 24, 21)
STRIPE_TEST = "sk" + "_test_" + fake(_ALNUM, 24, 22)
TWILIO = "S" + "K" + fake(_HEX, 32, 23)
SENDGRID = "S" + "G." + fake(_URLSAFE, 22, 24) + "." + fake(_URLSAFE, 43, 24)
NPM = "np" + "m_" + fake(_ALNUM, 36, 25)
PYPI = "py" + "pi-AgEIcHlwaS5vcmc" + fake(_URLSAFE, 60, 26)
JWT = fake_jwt()
BEARER = fake(_URLSAFE, 32, 27)
PASSWORD = "Tr0ub4dor&3x"


def pem_block(kind: str = "RSA PRIVATE KEY", lines: int = 5, newline: str = "\n") -> str:
    body = newline.join(fake(_B64, 64, 30 + i) for i in range(lines))
    return f"-----BEGIN {kind}-----{newline}{body}{newline}-----END {kind}-----"


def line_shape(text: str) -> tuple[int, int]:
    return len(text.splitlines()), text.count("\n")


# ---------------------------------------------------------------------------------------
# Token formats
# ---------------------------------------------------------------------------------------

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


@pytest.mark.parametrize("token", TOKENS.values(), ids=TOKENS.keys())
def test_token_in_a_list_is_redacted(token: str) -> None:
    text = f"KNOWN = [\n    {token!r},\n]\n"
    out, n = redact(text)
    assert token not in out
    assert out == f"KNOWN = [\n    {REDACTED!r},\n]\n"
    assert n == 1


@pytest.mark.parametrize("token", TOKENS.values(), ids=TOKENS.keys())
def test_token_in_a_comment_or_prose_is_redacted(token: str) -> None:
    out, n = redact(f"# rotate {token} before friday\n")
    assert out == f"# rotate {REDACTED} before friday\n"
    assert n == 1


@pytest.mark.parametrize("token", TOKENS.values(), ids=TOKENS.keys())
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


@pytest.mark.parametrize(
    "line",
    [
        "Authorization: Bearer {t}",
        'headers = {{"Authorization": "Bearer {t}"}}',
        "curl -H 'Authorization: Bearer {t}' https://api.example.com",
        "Authorization: token {t}",
        "authorization = 'Basic {t}'",
    ],
)
def test_authorization_header_credentials_are_redacted(line: str) -> None:
    out, n = redact(line.format(t=BEARER))
    assert out == line.format(t=REDACTED)
    assert n == 1


# ---------------------------------------------------------------------------------------
# Assignments
# ---------------------------------------------------------------------------------------

ASSIGNMENTS = {
    "python_constant": 'API_KEY = "{v}"',
    "python_lower": "db_password = '{v}'",
    "python_annotated": 'password: str = "{v}"',
    "python_kwarg": 'connect(host="db", password="{v}")',
    "python_dict_key": '{{"password": "{v}", "user": "app"}}',
    "python_subscript": 'config["client_secret"] = "{v}"',
    "python_attribute": 'self.auth_token = "{v}"',
    "js_camel": "const apiKey = '{v}';",
    "js_object": 'login({{ username: "app", password: "{v}" }})',
    "ts_annotated": 'const accessKey: string = "{v}";',
    "go_walrus": 'privateKey := "{v}"',
    "go_struct": 'Secret: "{v}",',
    "ruby_hash_rocket": ':password => "{v}"',
    "php_array": "'passwd' => '{v}',",
    "rust_const": 'const API_KEY: &str = "{v}";',
    "shell_export": 'export GITHUB_TOKEN="{v}"',
    "kebab_name": 'api-key: "{v}"',
    "pwd_name": 'pwd = "{v}"',
    "passphrase": 'passphrase = "{v}"',
    "bare_pass_suffix": 'DB_PASS = "{v}"',
    "backticks": "token = `{v}`",
    "bytes_literal": "secret = b'{v}'",
}


@pytest.mark.parametrize("template", ASSIGNMENTS.values(), ids=ASSIGNMENTS.keys())
def test_credential_assignment_redacts_only_the_value(template: str) -> None:
    value = fake(_ALNUM, 24, 40)
    out, n = redact(template.format(v=value))
    assert out == template.format(v=REDACTED)
    assert n == 1


def test_human_chosen_password_is_redacted() -> None:
    assert redact('password = "hunter2hunter"') == (f'password = "{REDACTED}"', 1)


def test_each_of_several_assignments_is_counted() -> None:
    text = f'user = "app"\npassword = "{PASSWORD}"\napi_key = "{fake(_ALNUM, 32, 41)}"\n'
    out, n = redact(text)
    assert out == f'user = "app"\npassword = "{REDACTED}"\napi_key = "{REDACTED}"\n'
    assert n == 2


def test_redaction_is_idempotent() -> None:
    text = f'API_KEY = "{OPENAI_LEGACY}"\npassword = "{PASSWORD}"\n{pem_block()}\n'
    once, n = redact(text)
    assert n == 3
    assert redact(once) == (once, 0)


def test_non_ascii_text_keeps_positions_right() -> None:
    # "İ".lower() is two characters; the keyword scan must still land on the right spot.
    text = f'city = "İİİstanbul"\npassword = "{PASSWORD}"  # ünïcode\n'
    assert redact(text) == (f'city = "İİİstanbul"\npassword = "{REDACTED}"  # ünïcode\n', 1)


# ---------------------------------------------------------------------------------------
# False positives: ordinary code must come through untouched
# ---------------------------------------------------------------------------------------

NOT_SECRETS = {
    "form_lookup": 'password = request.form["password"]',
    "function_call": "token = get_token()",
    "annotation": "password: str",
    "annotation_optional": "token: str | None = None",
    "def_parameter": "def check_password(password):",
    "environ_lookup": 'secret_key = os.environ["SECRET_KEY"]',
    "environ_get": 'api_key = os.environ.get("API_KEY")',
    "empty_string": 'token = ""',
    "short_value": 'password = "abc"',
    "comparison": 'if password == "hunter2hunter":',
    "inequality": 'if token != "expired-token-1":',
    "changeme": 'password = "changeme"',
    "changeit": 'keystore_password = "changeit"',
    "dummy_password_word": 'password = "password"',
    "dollar_brace": 'api_key = "${API_KEY}"',
    "dollar_var": 'password = "$DB_PASSWORD"',
    "jinja": 'token: "{{ vault_token }}"',
    "format_field": 'password = "{password}"',
    "f_string": 'auth_header = f"Bearer {token}"',
    "printf": 'secret = "%(secret)s"',
    "angle_placeholder": 'api_key = "<your-api-key>"',
    "your_placeholder": 'api_key = "your-api-key-here"',
    "xxxx_placeholder": 'api_key = "xxxxxxxxxxxxxxxx"',
    "stars_placeholder": 'password = "********"',
    "masked_token": 'token = "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"',
    "already_redacted": f'password = "{REDACTED}"',
    "tokenizer": 'tokenizer = "bert-base-uncased"',
    "author": '__author__ = "Guido van Rossum"',
    "secretary": 'secretary = "Miss Moneypenny"',
    "bypass": 'bypass = "maintenance"',
    "pass_statement": "def f():\n    pass\n",
    "pass_prefix": "taps = firwin(n, pass_zero='lowpass')",
    "django_auth_model": 'AUTH_USER_MODEL = "auth.User"',
    "token_url": 'TOKEN_URL = "https://oauth2.googleapis.com/token"',
    "key_path": 'private_key_path = "/etc/ssl/private/server.key"',
    "key_file": 'private_key_file = "server.key"',
    "token_type": 'token_type = "access_token"',
    "env_var_name": 'TOKEN_ENV_VAR = "GITHUB_TOKEN"',
    "camel_identifier": 'WaitForTaskToken = "waitForTaskToken"',
    "lexer_token_kind": 'TOKEN_COMMENT = "comment"',
    "colour": 'Token.Name.Function: "#ansiblue",',
    "namespaced_type": '"AWS::SecretsManager::Secret": "c85175a4ebcce361",',
    "value_with_spaces": 'password_prompt = "Enter your password:"',
    "timeout_number": 'AUTH_TIMEOUT = "300000"',
    "version": 'AUTH_API_VERSION = "2011-06-15"',
    "regex_value": "_token_end = r'(?=\\s|#|[)\\]]|$)'",
    "regex_char_class": 'TOKEN_PATTERN = r"[A-Za-z0-9_]+"',
    "js_template_bearer": "headers: { Authorization: `Bearer ${token}` }",
    "html_input": '<input type="password" name="password" value="">',
    "actions_secret": "token: ${{ secrets.GITHUB_TOKEN }}",
    "plain_url": 'url = "https://example.com:8080/path?a=b"',
    "url_template": 'dsn = "postgres://%s:%s@%s/db" % (user, pw, host)',
    "url_env_password": 'url = "redis://:${REDIS_PASSWORD}@cache:6379"',
    "url_example_password": 'dsn = "postgres://user:password@localhost/db"',
    "ssh_git_url": 'remote = "ssh://git@github.com:org/repo.git"',
    "kebab_sk_word": 'theme = "sk-learn-contrib-project-template"',
    "disk_word": 'label = "disk-usage-report-generator-tool"',
    "bearer_format": 'headers = {"Authorization": f"Bearer {token}"}',
    "bearer_concat": 'headers["Authorization"] = "Bearer " + token',
    "pem_in_docs": "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "unquoted_in_code": "PASSWORD=hunter2hunter",
    "unquoted_in_code_indented": "    DB_PASSWORD=hunter2hunter",
    "keyword_argument": "connect(host, DB_PASSWORD=hunter2hunter)",
    "imap_capability": "capabilities = 'LOGINDISABLED AUTH=CRAM-MD5'",
    "env_lookup_in_command": 'cmd = "PGPASSWORD=$PGPASSWORD psql"',
    "flag_metavar": "  --password TEXT  The password to log in with",
    "flag_word": "Pass the --token option to log in.",
    "flag_variable": 'run(["app", "--password", password])',
    "flag_placeholder": "app --password=<password> --token=$TOKEN",
    "flag_file": "docker login --password-stdin --password-file=/run/pw",
    "mysql_prompt": "mysql -u root -p appdb",
    "mkdir_p": "mkdir -p build/lib",
    "uid_gid": "docker run -u 1000:1000 img && curl -sSL https://x",
    "git_upstream": "git push -u origin main",
    "stated_word": "The password is hashed with bcrypt before it is stored.",
    "stated_none": "if password is None:",
    "stated_attribute": "assert token is self.token",
    "stated_duration": "The token is valid for 3600 seconds.",
    "stated_length": "The password is at least 12 characters long.",
    "stated_subscript": "if token is tokens[i + 1]:",
    "stated_short_key": "the api key is AES256",
}


@pytest.mark.parametrize("text", NOT_SECRETS.values(), ids=NOT_SECRETS.keys())
def test_ordinary_code_is_not_redacted(text: str) -> None:
    assert redact(text) == (text, 0)
    assert not contains_secret(text)


def test_python_standard_library_style_module_is_untouched() -> None:
    text = (
        "import tokenize\n\n"
        "class Authenticator:\n"
        '    """Checks a password against its hash."""\n\n'
        "    def __init__(self, password_hash: bytes, *, token_ttl: int = 3600) -> None:\n"
        "        self.password_hash = password_hash\n"
        "        self.token_ttl = token_ttl\n\n"
        "    def verify(self, password: str) -> bool:\n"
        '        if not password:\n            raise ValueError("password required")\n'
        "        return hmac.compare_digest(hash(password), self.password_hash)\n\n"
        "    def tokens(self, source):\n"
        "        for token in tokenize.generate_tokens(source.readline):\n"
        "            yield token\n"
    )
    assert redact(text) == (text, 0)


# ---------------------------------------------------------------------------------------
# PEM private keys and line preservation
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


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_line_count_is_preserved_with_any_line_ending(newline: str) -> None:
    text = newline.join(
        [
            "import os",
            f'API_KEY = "{OPENAI_PROJECT}"',
            pem_block("PRIVATE KEY", lines=3, newline=newline),
            f"DSN = 'postgres://app:{PASSWORD}@db/app'",
            f"# {GITHUB_PAT} {JWT}",
            "done = True",
        ]
    )
    out, n = redact(text)
    assert n == 5
    assert line_shape(out) == line_shape(text)
    assert out.splitlines()[0] == "import os"
    assert out.splitlines()[-1] == "done = True"


def test_line_count_is_preserved_with_unusual_line_breaks() -> None:
    text = f"a = 1\x0bpassword = '{PASSWORD}'\u2028b = 2\x85" + pem_block(newline="\u2029")
    out, n = redact(text)
    assert n == 2
    assert line_shape(out) == line_shape(text)


def test_line_count_is_preserved_when_an_extra_pattern_spans_lines() -> None:
    text = "keep\nBEGIN-INTERNAL\nsecret one\r\nsecret two\rEND-INTERNAL\nkeep\n"
    out, n = redact(text, extra_patterns=[r"(?s)BEGIN-INTERNAL.*?END-INTERNAL"])
    assert n == 1
    assert line_shape(out) == line_shape(text)
    assert out.splitlines()[0] == "keep"
    assert out.splitlines()[1] == REDACTED
    assert out.splitlines()[-1] == "keep"


# ---------------------------------------------------------------------------------------
# Config files
# ---------------------------------------------------------------------------------------

CONFIG_LINES = {
    "dotenv": ("PASSWORD=hunter2hunter", f"PASSWORD={REDACTED}"),
    "dotenv_export": ("export API_KEY=abc123def456", f"export API_KEY={REDACTED}"),
    "yaml": ("token: abcdef123456", f"token: {REDACTED}"),
    "yaml_nested": ("  db_password: s3cr3t-Pa55", f"  db_password: {REDACTED}"),
    "ini": ("password = correct horse battery", f"password = {REDACTED}"),
    "properties": ("db.password=hunter2hunter", f"db.password={REDACTED}"),
    "toml_quoted_with_spaces": (
        'password = "correct horse battery"',
        f'password = "{REDACTED}"',
    ),
    "inline_comment_kept": (
        "token: abc123def456  # rotated monthly",
        f"token: {REDACTED}  # rotated monthly",
    ),
    "npmrc": (
        "//registry.npmjs.org/:_authToken=" + NPM,
        "//registry.npmjs.org/:_authToken=" + REDACTED,
    ),
    "dockerfile_env": ("ENV SECRET_KEY=abcdefgh12345678", f"ENV SECRET_KEY={REDACTED}"),
}


@pytest.mark.parametrize(("line", "expected"), CONFIG_LINES.values(), ids=CONFIG_LINES.keys())
def test_config_like_redacts_unquoted_values(line: str, expected: str) -> None:
    assert redact(line + "\n", config_like=True) == (expected + "\n", 1)


@pytest.mark.parametrize(
    "line",
    [
        "PASSWORD=hunter2hunter",
        "token: abcdef123456",
        "password = correct horse battery",
    ],
)
def test_unquoted_values_are_kept_outside_config_files(line: str) -> None:
    assert redact(line) == (line, 0)


@pytest.mark.parametrize(
    "line",
    [
        "password: ${DB_PASSWORD}",
        "token: {{ vault_token }}",
        "auth:",
        "auth: {user: app}",
        "password: !vault |",
        "password: changeme",
        "token_url: https://auth.example.com/oauth/token",
        "max_token_count: 4096",
        "password:",
        "secret: &anchor",
    ],
)
def test_config_like_keeps_placeholders_and_structure(line: str) -> None:
    assert redact(line + "\n", config_like=True) == (line + "\n", 0)


def test_config_like_redacts_a_long_value_to_the_end_of_its_line() -> None:
    value = fake(_ALNUM, 300, 50)
    assert redact(f"token={value}\nnext=1\n", config_like=True) == (
        f"token={REDACTED}\nnext=1\n",
        1,
    )


# ---------------------------------------------------------------------------------------
# Secret files and config files
# ---------------------------------------------------------------------------------------


def test_secret_file_reason_is_a_plain_word() -> None:
    assert SECRET_FILE_REASON == "secret"


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        "app/.env",
        ".env.local",
        ".env.production",
        ".env.example",
        "deploy/prod.env",
        "certs/server.pem",
        "certs/Server.PEM",
        "config/master.key",
        "keys/store.p12",
        "keys/store.pfx",
        "AuthKey_ABC123.p8",
        "putty.ppk",
        "android/release.jks",
        "android/debug.keystore",
        "vault.kdbx",
        "secring.gpg",
        "keys/private-key.asc",
        "backup/secret.asc",
        "id_rsa",
        ".ssh/id_dsa",
        "home/.ssh/id_ecdsa",
        "id_ed25519",
        "id_ed25519_sk",
        "id_rsa.old",
        ".netrc",
        "_netrc",
        ".pgpass",
        ".aws/credentials",
        "home/user/.aws/credentials",
        ".config/gcloud/credentials.json",
        ".config/gcloud/application_default_credentials.json",
        "gcloud/credentials.db",
        "config/secrets.yml",
        "k8s/secrets.yaml",
        ".streamlit/secrets.toml",
        ".git-credentials",
        "public/.htpasswd",
        "service-account.json",
        "deploy/service_account_prod.json",
        "infra/terraform.tfstate",
        "infra/terraform.tfstate.backup",
        "windows\\style\\.env",
    ],
)
def test_is_secret_file_flags_credential_files(path: str) -> None:
    assert is_secret_file(path)


@pytest.mark.parametrize(
    "path",
    [
        "",
        "README.md",
        "repomem/secrets.py",
        "lib/python3.11/secrets.py",
        "src/env.py",
        ".envrc",
        ".environment",
        "docs/environment.md",
        "id_rsa.pub",
        ".ssh/id_ed25519.pub",
        "keys/KEYS.asc",
        "release.tar.gz.asc",
        "credentials",
        "src/credentials.json",
        "app/credentials.py",
        ".aws/config",
        "gcloud/config.json",
        "certs/ca.crt",
        "keyboard.py",
        "monkey.json",
        "tokens.py",
        "password_reset.html",
        "config/settings.yml",
    ],
)
def test_is_secret_file_leaves_ordinary_files_alone(path: str) -> None:
    assert not is_secret_file(path)


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        ".env.local",
        "deploy/app.env",
        "setup.cfg",
        "tox.ini",
        "nginx/site.conf",
        "mysql/my.cnf",
        "gradle.properties",
        "pyproject.toml",
        "docker-compose.yml",
        ".github/workflows/ci.yaml",
        "package.json",
        "tsconfig.jsonc",
        ".npmrc",
        ".pypirc",
        ".envrc",
        ".curlrc",
        "Dockerfile",
        "docker/Dockerfile.prod",
        "api.dockerfile",
        "prod.tfvars",
        "Makefile",
        "build/rules.mk",
        "kubeconfig",
        "home/.kube/config",
    ],
)
def test_is_config_like_recognises_config_files(path: str) -> None:
    assert is_config_like(path)


@pytest.mark.parametrize(
    "path",
    ["", "main.py", "src/app.ts", "lib/config.rb", "rc", "docs/src", "app/config"],
)
def test_is_config_like_rejects_code(path: str) -> None:
    assert not is_config_like(path)


# ---------------------------------------------------------------------------------------
# Extra patterns and contains_secret
# ---------------------------------------------------------------------------------------


def test_extra_pattern_redacts_the_whole_match() -> None:
    text = "ticket ACME-INTERNAL-4242 and ACME-INTERNAL-77\n"
    out, n = redact(text, extra_patterns=[r"ACME-INTERNAL-\d+"])
    assert out == f"ticket {REDACTED} and {REDACTED}\n"
    assert n == 2


def test_extra_patterns_add_to_the_built_in_detectors() -> None:
    text = f'password = "{PASSWORD}"\ncode = "INT-123456"\n'
    out, n = redact(text, extra_patterns=("INT-[0-9]+",))
    assert out == f'password = "{REDACTED}"\ncode = "{REDACTED}"\n'
    assert n == 2


def test_extra_pattern_matching_the_empty_string_changes_nothing() -> None:
    assert redact("abc\n", extra_patterns=["x*"]) == ("abc\n", 0)


@pytest.mark.parametrize("pattern", ["(unclosed", "[a-", "*oops", "(?P<n>a)(?P<n>b)"])
def test_invalid_extra_pattern_raises_config_error(pattern: str) -> None:
    with pytest.raises(ConfigError) as info:
        redact("text", extra_patterns=["ok", pattern])
    message = str(info.value)
    assert repr(pattern) in message
    assert "\n" not in message


def test_contains_secret_is_true_only_when_something_would_be_redacted() -> None:
    assert contains_secret(f"key = {GITHUB_PAT}")
    assert contains_secret(f'password = "{PASSWORD}"')
    assert not contains_secret("password = get_password()")
    assert not contains_secret("")


def test_empty_text_is_returned_unchanged() -> None:
    assert redact("") == ("", 0)
    assert redact("", config_like=True, extra_patterns=["x"]) == ("", 0)


# ---------------------------------------------------------------------------------------
# Line preservation under random documents
# ---------------------------------------------------------------------------------------

_FRAGMENTS = [
    "x = 1",
    "def f(password):",
    "    pass",
    f'API_KEY = "{OPENAI_LEGACY}"',
    f"token: {fake(_ALNUM, 20, 60)}",
    f"# see {GITHUB_PAT}",
    f"DSN=postgres://app:{PASSWORD}@db/app",
    f"Authorization: Bearer {BEARER}",
    pem_block(lines=2),
    "-----BEGIN PRIVATE KEY-----",
    fake(_B64, 64, 61),
    "",
    "   ",
    "İstanbul ünïcode",
]
_BREAKS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("seed", range(40))
def test_random_documents_keep_their_line_structure(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(_FRAGMENTS) + rng.choice(_BREAKS) for _ in range(rng.randint(1, 30)))
    for config_like in (False, True):
        out, n = redact(text, config_like=config_like, extra_patterns=[r"(?s)BEGIN.{0,80}"])
        assert line_shape(out) == line_shape(text)
        assert (n == 0) == (out == text)


def test_a_setting_about_secrets_set_to_a_word_is_not_one() -> None:
    # the `.repomem` example documents `on_secret = "refuse"`: every `init` reported it
    for line in (
        '# on_secret = "refuse"',
        'redact_tokens = "always"',
        "skip-secret: never",
        'or set memory.on_secret = "redact" in .repomem',  # repomem's own advice, kept readable
    ):
        assert redact(line, config_like=True) == (line, 0)
    for line in ('on_secret = "hunter2hunter"', 'won_secret = "hunter"', 'ON_TOKEN = "Refuse7x"'):
        assert redact(line, config_like=True)[1] == 1, line


def test_documentation_counts_unquoted_values_like_config() -> None:
    from repomem.secrets import is_config_like

    for doc in ("docs/deploy.md", "README.MD", "notes/ops.rst", "INSTALL.txt", "a.adoc"):
        assert is_config_like(doc), doc
    assert not is_config_like("src/deploy.py")
    text = "Deploy with DB_PASSWORD=supersecretvalue99 on the box.\n"
    assert "supersecretvalue99" not in redact(text, config_like=is_config_like("deploy.md"))[0]


def test_a_config_value_before_a_redacted_token_on_its_line_is_redacted_too() -> None:
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    out, n = redact(f"prod db password=hunter2xyz, CI token {token}", config_like=True)
    assert "hunter2xyz" not in out and token not in out and n == 2


def test_shell_scripts_are_read_like_config() -> None:
    assert is_config_like("deploy/release.sh") and is_config_like("ci/env.bash")
    out, _ = redact("export DB_PASSWORD=shellpass123\n", config_like=is_config_like("x.sh"))
    assert "shellpass123" not in out


# ---------------------------------------------------------------------------------------
# Command lines and sentences, in code as well as in config and docs
# ---------------------------------------------------------------------------------------

STATED_OR_PASSED = {
    "flag_equals": ("deploy --password=hunter2x --verbose", "hunter2x"),
    "flag_space": ("deploy --db-password s3cr3tpw", "s3cr3tpw"),
    "flag_quoted_with_space": ("app --passphrase 'correct horse 42'", "correct horse 42"),
    "flag_argv_list": ('run(["mysql", "--password", "Zx9!kq2w"])', "Zx9!kq2w"),
    "flag_api_key": ("cli --api-key=k3y0123456789abcdefAB", "k3y0123456789abcdefAB"),
    "mysql_attached": ("mysql -u root -pS3cretPw appdb", "S3cretPw"),
    "mysqldump_quoted": ("mysqldump -u root -p'hunter22' appdb", "hunter22"),
    "mariadb": ("mariadb -h db -prootpw1 x", "rootpw1"),
    "curl_user": ("curl -u admin:Sup3rSecret https://api", "Sup3rSecret"),
    "curl_long_user": ("curl --user=bob:hunter2x https://api", "hunter2x"),
    "env_in_python_string": (
        'subprocess.run("PGPASSWORD=pgS3cret99 psql", shell=True)',
        "pgS3cret99",
    ),
    "env_exported_in_string": ('os.system("export API_TOKEN=abc123def456 && go")', "abc123def456"),
    "env_in_docker_args": ('run("docker run -e POSTGRES_PASSWORD=Hunter2x pg")', "Hunter2x"),
    "env_in_comment": ("# run with DB_PASSWORD=hunter2x", "hunter2x"),
    "stated_password": ("The staging password is Tr0ub4dor&3.", "Tr0ub4dor&3"),
    "stated_with_words": ("# the password for the staging db was hunter2!", "hunter2!"),
    "stated_in_backticks": ("the passcode is `482915`", "482915"),
    "stated_api_key": ("the API key is 9f8e7d6c5b4a39281706", "9f8e7d6c5b4a39281706"),
}


@pytest.mark.parametrize(("text", "secret"), STATED_OR_PASSED.values(), ids=STATED_OR_PASSED.keys())
def test_secrets_passed_to_commands_or_stated_in_prose_are_redacted(text: str, secret: str) -> None:
    out, count = redact(text)
    assert secret not in out and count == 1
    assert out.replace(REDACTED, secret) == text  # only the secret itself was replaced


def test_personal_data_is_redacted_on_request() -> None:
    from repomem.secrets import redact_personal

    text = "by Jane <jane.roe@corp.example>, call +44 20 7946 0958; 1 + 2"
    out, count = redact_personal(text)
    assert out == "by Jane <[EMAIL]>, call [PHONE]; 1 + 2" and count == 2
    assert redact_personal("x = a + b") == ("x = a + b", 0)


# ---------------------------------------------------------------------------------------
# More formats and shapes (a red team's corpus: each leaked to the store, packs and the API)
# ---------------------------------------------------------------------------------------

AZURE_KEY = "Xk3Lm9Qp2Rs7Tv1Wy5Za8Bc4De6Fg0Hi2Jk4Lm6No8Pq0Rs2Tu4Vw6Xy8Za0Bc2De4Fg6Hi8Jk0Lm2No4=="
B64_PEM = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBN1ZKVFV0OVVz"
LEAKED = {
    # (path, text, secret)
    "azure_conn": (
        "s.py",
        f'C = "AccountName=a;AccountKey={AZURE_KEY};EndpointSuffix=x"',
        AZURE_KEY,
    ),
    "azure_sas": (
        "s.py",
        'u = "https://a.blob/c?sv=2021&sig=Qm7Xk2Lp9Rt4Wv1Zy8Ab3Cd%3D"',
        "Qm7Xk2Lp9Rt4Wv1Zy8Ab3Cd",
    ),
    "hugging_face": (
        "s.py",
        'login("hf_Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1UvWx")',
        "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1UvWx",
    ),
    "stripe_webhook": (
        "s.py",
        'WH = "whsec_Hx3Lm9Qp2Rs7Tv1Wy5Za8Bc4De6Fg0Hi"',
        "Hx3Lm9Qp2Rs7Tv1Wy5Za8Bc4De6Fg0Hi",
    ),
    "vault": (
        "s.py",
        'hvac.Client(token="hvs.CAESIAb3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9")',
        "CAESIAb3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9",
    ),
    "google_oauth": (
        "s.py",
        'accessToken = "ya29.a0Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1"',
        "a0Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1",
    ),
    "google_secret": (
        "s.py",
        'call("GOCSPX-Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9")',
        "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9",
    ),
    "telegram": (
        "s.py",
        'Updater("5123456789:AAHk3Lm9Qp2Rs7Tv1Wy5Za8Bc4De6Fg0Hi2J")',
        "Hk3Lm9Qp2Rs7Tv1Wy5Za8Bc4De6Fg0Hi2J",
    ),
    "discord_bot": (
        "s.py",
        'bot.run("MTEyMzQ1Njc4OTAxMjM0NTY3OA.GhJkLm.Q2w3E4r5T6y7U8i9O0pAsDfGhJkLzXcVbNm12")',
        "Q2w3E4r5T6y7U8i9O0pAsDfGhJkLzXcVbNm12",
    ),
    "discord_webhook": (
        "s.py",
        'W = "https://discord.com/api/webhooks/112345/Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op"',
        "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op",
    ),
    "slack_app": (
        "s.py",
        'A = "xapp-1-A01ABCDEF-1234567890123-9f8e7d6c5b4a39281706f5e4"',
        "9f8e7d6c5b4a39281706f5e4",
    ),
    "gitlab_runner": ("s.py", 'RUNNER("glrt-Ab3Cd5Ef7Gh9Ij1Kl3Mn")', "glrt-Ab3Cd5Ef7Gh9Ij1Kl3Mn"),
    "aws_pair": (
        "s.go",
        'Creds("AKIAQ7XK2M4PZ9RT3W1B", "q8Jf2LkP0zXv9Rt+Wm3nBy7Hs5Ua1Dc4Ee6Gi8Ko", "")',
        "q8Jf2LkP0zXv9Rt+Wm3nBy7Hs5Ua1Dc4Ee6Gi8Ko",
    ),
    "base64_pem": ("tls.yaml", f"data:\n  tls.key: {B64_PEM}\n", B64_PEM),
    "jdbc_query": (
        "Db.java",
        'u = "jdbc:mysql://db/app?user=root&password=Vx7qP2mLk9Rz&ssl=1";',
        "Vx7qP2mLk9Rz",
    ),
    "ado_connection": (
        "Db.cs",
        'cs = "Server=db;User Id=sa;Password=Vx7qP2mLk9Rz;";',
        "Vx7qP2mLk9Rz",
    ),
    "url_api_key": (
        "s.py",
        'get("https://api.acme.io/v1?api_key=Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7")',
        "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7",
    ),
    "f_string_bearer": (
        "s.py",
        'h["Authorization"] = f"Bearer Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7"',
        "Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7",
    ),
    "header_set": (
        "s.go",
        'req.Header.Set("Authorization", "Bearer Ab3Cd5Ef7Gh9Ij1Kl3")',
        "Ab3Cd5Ef7Gh9Ij1Kl3",
    ),
    "setter": ("Db.java", 'ds.setPassword("Vx7qP2mLk9Rz");', "Vx7qP2mLk9Rz"),
    "getenv_default": ("s.py", 'pw = os.getenv("DB_PASSWORD", "Vx7qP2mLk9Rz")', "Vx7qP2mLk9Rz"),
    "php_define": ("s.php", "define('DB_PASSWORD', 'Hk2Lm8Pq4Rt6');", "Hk2Lm8Pq4Rt6"),
    "wrapped": ("s.py", 'PASSWORD = (\n    "Vx7qP2mLk9Rz"\n)\n', "Vx7qP2mLk9Rz"),
    "auth_pair": ("s.py", 'get(u, auth=("admin", "Vx7qP2mLk9Rz"))', "Vx7qP2mLk9Rz"),
    "triple_quoted": ("s.py", "password = '''Vx7qP2mLk9Rz'''", "Vx7qP2mLk9Rz"),
    "comment": ("s.py", "# old password: Vx7qP2mLk9Rz\n", "Vx7qP2mLk9Rz"),
    "xml_element": (
        "settings.xml",
        "<server><password>Vx7qP2mLk9Rz</password></server>",
        "Vx7qP2mLk9Rz",
    ),
    "xml_app_setting": (
        "web.xml",
        '<add key="ApiKey" value="Ab3Cd5Ef7Gh9Ij1Kl3" />',
        "Ab3Cd5Ef7Gh9Ij1Kl3",
    ),
    "notebook_escaped": (
        "nb.ipynb",
        '{"source": ["DB_PASSWORD = \\"Vx7qP2mLk9Rz\\"\\n"]}',
        "Vx7qP2mLk9Rz",
    ),
    "yaml_block": ("values.yaml", "auth:\n  password: |\n    Vx7qP2mLk9Rz\n", "Vx7qP2mLk9Rz"),
    "makefile": ("Makefile", "DB_PASSWORD ?= Vx7qP2mLk9Rz\n", "Vx7qP2mLk9Rz"),
    "terraform_default": (
        "vars.tf",
        'variable "db_password" {\n  type = string\n  default = "Zq9!vT4#pLm2Xw"\n}\n',
        "Zq9!vT4#pLm2Xw",
    ),
    "stated_with_colon": ("ops.rst", "The admin password is: Vx7qP2mLk9Rz\n", "Vx7qP2mLk9Rz"),
    "getenv_keyword_default": (
        "s.py",
        'config("DB_PASSWORD", default="Vx7qP2mLk9Rz")',
        "Vx7qP2mLk9Rz",
    ),
    "ado_spaced": ("Db.cs", 'cs = "Server=db; User Id=sa; Password=Vx7qP2mLk9Rz;"', "Vx7qP2mLk9Rz"),
    "kubernetes_env": (
        "deploy.yaml",
        "env:\n  - name: DB_PASSWORD\n    value: Vx7qP2mLk9Rz\n",
        "Vx7qP2mLk9Rz",
    ),
}


@pytest.mark.parametrize(("path", "text", "secret"), LEAKED.values(), ids=LEAKED.keys())
def test_more_formats_and_shapes_are_redacted(path: str, text: str, secret: str) -> None:
    out, count = redact(text, config_like=is_config_like(path))
    assert secret not in out and count >= 1
    assert out.count("\n") == text.count("\n")


KEPT = {
    # (path, text): words about credentials, not credentials
    "sphinx_param": ("api.rst", ":param password: The user password."),
    "docs_sentence": ("a.md", "Password: must be at least 12 characters long."),
    "docs_words": ("a.md", "* token: a JSON Web Token issued by the IdP"),
    "encoding_name": ("a.py", 'token_encoding = "cl100k_base"'),
    "auth_scheme": ("a.py", 'auth_scheme = "Bearer"'),
    "scheme_word": ("a.py", 'token = "Bearer"'),
    "policy": ("a.js", '{ "passwordPolicy": "MinLen12" }'),
    "provider": ("a.properties", "auth.provider=LdapProvider2"),
    "secret_ref": ("a.yaml", "passwordSecretRef: mysecret"),
    "keyword_list": ("a.py", "KEYWORDS = ('pass', 'public', 'print', 'private')"),
    "name_list": ("a.py", 'fields = ("username", "password", "expected_message")'),
    "tuple_of_names": ("a.py", 'digest_auth_algo = ("MD5", "SHA-256", "SHA-512")'),
    "namespaced_name": (
        "a.py",
        'AWS_S3_DISABLE_SESSION_AUTH = (\n    "AWS::S3::DisableS3ExpressSessionAuth"\n)',
    ),
    "header_name": ("a.py", 'p = ("API_KEY", "X-Api-Key")'),
    "comment_code": ("a.py", "# token = self._get_param('Token')"),
    "comment_pass": ("a.py", "# First pass: collect the names"),
    "check_call": ("a.py", 'assert check_password("hunter2hunter")'),
    "xml_words": ("a.xml", "<password>Enter your password</password>"),
    "base64_certificate": ("tls.yaml", "tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM="),
    # a second red team's scan of 47,789 real files: the rules the first round added
    "paginator": ("p.json", '{"input_token": "Marker", "output_token": "Jobs[-1].JobId"}'),
    "paginator_expression": ("p.json", '"output_token": "NextMarker || Contents[-1].Key",'),
    "arn": ("a.json", '"ARN": "arn:aws:secretsmanager:us-west-2:1234:secret:MyTestSecret-a1b2c3",'),
    "json_sentence": ("m.json", '"nextToken": "A generated value, used for paginating results."'),
    "docs_code": ("views.rst", "    password = request.form['password']"),
    "docs_call": ("auth.md", "requests.get(url, auth=HTTPDigestAuth('user', 'pass'))"),
    "pass_word": ("usage.rst", "you can pass :option:`--log-file-mode=a`."),
    "caret_version": ("bun.lock", '"@octokit/auth-token": "^4.0.0",'),
    "timestamp": ("u.json", '"PasswordLastUsed": "2016-09-08T21:47:36Z",'),
    "paging_flag": ("cli.rst", "aws x list --next-token 4AEA6u7JZ2c9XbbQ1"),
    "client_token": ("r.json", '"ClientToken": "6b7a2c1e-8f3d-4e2a-9c5b-1d0e7f6a3b2c",'),
    "kebab_words": ("m.py", 'NOPASSWORD = "no-password-required"'),
}


@pytest.mark.parametrize(("path", "text"), KEPT.values(), ids=KEPT.keys())
def test_words_about_credentials_are_kept(path: str, text: str) -> None:
    assert redact(text, config_like=is_config_like(path)) == (text, 0)


@pytest.mark.parametrize(
    "text", ['u = "https://x/?password=&a=1"', "Server=db;Password=;Database=x", "?token=#x"]
)
def test_an_empty_value_in_a_query_or_connection_string_is_not_a_crash(text: str) -> None:
    assert redact(text) == (text, 0) and redact(text, config_like=True) == (text, 0)


# ---------------------------------------------------------------------------------------
# Common leak shapes of real repositories (a third red team's corpus)
# ---------------------------------------------------------------------------------------

PW = "Vx7qP2mLk9Rz"  # a password a person chose
TOKEN = fake(_ALNUM, 24, 50)  # a machine-made token
PEM_BODY = fake(_B64, 48, 51)
# base64 of "-----BEGIN PRIVATE KEY-----\n" + key material, once more base64-encoded
B64_KEY = base64.b64encode(f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY}\n".encode()).decode()
B64_KEY_AFTER_NEWLINE = base64.b64encode(f"\n-----BEGIN PRIVATE KEY-----\n{PEM_BODY}".encode())

SHAPES = {
    # (path, text, secret)
    # command lines
    "sshpass": ("run.sh", f"sshpass -p {PW} ssh host", PW),
    "sshpass_quoted": ("run.sh", f"sshpass -p'{PW}' ssh host", PW),
    "redis_cli": ("run.sh", f"redis-cli -h cache -a {PW} ping", PW),
    "docker_login": ("run.sh", f"docker login -u me -p {PW} registry", PW),
    "htpasswd": ("run.sh", f"htpasswd -b .htpasswd admin {PW}", PW),
    "mysql_argv": ("run.py", f'args = ["mysql", "-uroot", "-p{PW}"]', PW),
    "mysql_upper": ("run.sh", f"MYSQL -uroot -p{PW} app", PW),
    "mysql_continued": ("run.sh", f"mysql -uroot \\\n  --host db \\\n  -p{PW} app", PW),
    "curl_argv": ("run.py", f'subprocess.run(["curl", "-u", "admin:{PW}", url])', PW),
    "pass_phrase_flag": ("run.sh", f"cmd --pass-phrase={PW}", PW),
    "credentials_flag": ("run.sh", f"cmd --credentials={TOKEN}", TOKEN),
    "aws_secret_flag": ("run.sh", f"aws configure set --aws-secret-access-key {TOKEN}", TOKEN),
    "key_flag": ("run.sh", f"cmd --key={TOKEN}", TOKEN),
    "powershell_password": ("run.ps1", f"New-User -Name app -Password {PW}", PW),
    "secure_string": ("run.ps1", f'$p = ConvertTo-SecureString "{PW}" -AsPlainText -Force', PW),
    "sql_identified_by": ("a.sql", f"CREATE USER app IDENTIFIED BY '{PW}';", PW),
    "sql_with_password": ("a.sql", f"ALTER USER app WITH PASSWORD '{PW}';", PW),
    "sql_login_password": ("a.sql", f"CREATE ROLE app LOGIN PASSWORD '{PW}';", PW),
    "sql_in_code": ("a.py", f"cur.execute(\"ALTER USER app PASSWORD '{PW}'\")", PW),
    # defaults of credential-named environment variables
    "getenv_lower": ("run.py", f'os.getenv("db_password", "{PW}")', PW),
    "getenv_camel": ("run.py", f'os.getenv("DbPassword", "{PW}")', PW),
    "getenv_split": ("run.py", f'os.getenv(\n    "DB_PASSWORD",\n    "{PW}",\n)', PW),
    "js_or": ("run.js", f"const pw = process.env.DB_PASSWORD || '{PW}'", PW),
    "js_nullish": ("run.js", f"const pw = process.env.DB_PASSWORD ?? '{PW}'", PW),
    "js_or_assign": ("run.js", f"process.env['DB_PASSWORD'] ||= '{PW}'", PW),
    "python_or": ("run.py", f"pw = os.environ.get('DB_PASSWORD') or '{PW}'", PW),
    "ruby_fetch_block": ("run.rb", f"ENV.fetch('DB_PASSWORD') {{ '{PW}' }}", PW),
    "csharp_nullish": (
        "run.cs",
        f'Environment.GetEnvironmentVariable("DB_PASSWORD") ?? "{PW}"',
        PW,
    ),
    # credentials inside strings
    "key_value_string": ("run.py", f'params = "password={PW}"', PW),
    "libpq": ("run.py", f'cs = "host=db user=app password={PW} dbname=app"', PW),
    "libpq_call": ("a.py", f'psycopg2.connect("dbname=app user=u password={PW}")', PW),
    "ado_first": ("run.py", f'cs = "Password={PW};Server=db"', PW),
    "odbc_braces": ("run.py", f'cs = "DRIVER={{ODBC}};SERVER=db;UID=sa;PWD={{{PW}}}"', PW),
    "lower_env_in_command": ("run.py", f'cmd = "pgpassword={PW} psql"', PW),
    # setters and property maps
    "setter_split": ("A.java", f'ds.setPassword(\n    "{PW}");', PW),
    "setter_prefixed": ("A.java", f'ds.setDbPassword("{PW}");', PW),
    "set_api_key": ("A.java", f'ds.setApiKey("{TOKEN}");', TOKEN),
    "set_client_secret": ("A.java", f'ds.setClientSecret("{TOKEN}");', TOKEN),
    "set_access_token": ("A.java", f'ds.setAccessToken("{TOKEN}");', TOKEN),
    "set_auth_token": ("A.java", f'ds.setAuthToken("{TOKEN}");', TOKEN),
    "set_property": ("A.java", f'props.setProperty("password", "{PW}");', PW),
    "put_dotted": ("A.java", f'props.put("mail.smtp.password", "{PW}");', PW),
    "conf_set": ("A.java", f'conf.set("fs.s3a.secret.key", "{TOKEN}");', TOKEN),
    "builder": ("A.java", f'builder.password("{PW}")', PW),
    "with_password": ("A.java", f'builder.withPassword("{PW}")', PW),
    "keyring": ("A.py", f'keyring.set_password("svc", "user", "{PW}")', PW),
    "basic_auth": ("A.py", f'HTTPBasicAuth("admin", "{PW}")', PW),
    # Dockerfile, Makefile
    "dockerfile_env_space": ("Dockerfile", f"ENV DB_PASSWORD {PW}", PW),
    "makefile_append": ("Makefile", f"DB_PASSWORD += {PW}", PW),
    "makefile_inc": ("makefile.inc", f"DB_PASSWORD = {PW}", PW),
    # XML
    "xml_next_line": ("pom.xml", f"<password>\n  {PW}\n</password>", PW),
    "xml_cdata": ("pom.xml", f"<password><![CDATA[{PW}]]></password>", PW),
    "xml_attribute": ("pom.xml", f'<password encrypted="false">{PW}</password>', PW),
    "xml_namespace": ("app.xml", f"<jdbc:password>{PW}</jdbc:password>", PW),
    "xml_namespace_camel": ("app.xml", f"<ns:Password>{PW}</ns:Password>", PW),
    "xml_space": ("app.xml", f"<password >{PW}</password >", PW),
    "xml_entry_key": ("app.xml", f'<entry key="password">{PW}</entry>', PW),
    "android_string": ("strings.xml", f'<string name="api_key">{TOKEN}</string>', TOKEN),
    # YAML
    "yaml_indent_indicator": ("a.yaml", f"password: |2\n  {PW}\n", PW),
    "yaml_blank_first_line": ("a.yaml", f"password: |\n\n  {PW}\n", PW),
    "yaml_block_comment": ("a.yaml", f"password: |  # rotated\n  {PW}\n", PW),
    "yaml_next_line": ("a.yaml", f"password:\n  {PW}\n", PW),
    "yaml_tag": ("a.yaml", f"password: !!str {PW}", PW),
    "yaml_anchor": ("a.yaml", f"password: &pw {PW}", PW),
    "yaml_flow_env": ("a.yaml", f"env:\n- {{name: DB_PASSWORD, value: {PW}}}", PW),
    # prose
    "markdown_bold": ("NOTES.md", f"**Password:** {PW}", PW),
    "markdown_bold_name": ("NOTES.md", f"**Password**: {PW}", PW),
    "markdown_table": ("NOTES.md", f"| password | {PW} |", PW),
    "markdown_table_code": ("NOTES.md", f"| DB_PASSWORD | `{PW}` |", PW),
    "stated_colon": ("NOTES.md", f"The password for staging: {PW}", PW),
    "stated_next_line": ("NOTES.md", f"the password is\n{PW}", PW),
    "stated_changed_to": ("NOTES.md", f"the password was changed to {PW}", PW),
    "stated_being": ("NOTES.md", f"the admin password being {PW}", PW),
    "stated_long": (
        "NOTES.md",
        f"The password of the staging database on the new server is {PW}",
        PW,
    ),
    "use_password": ("NOTES.md", f"use password {PW} to log in", PW),
    "arrow": ("NOTES.md", f"Password -> {PW}", PW),
    "dash": ("NOTES.md", f"Password \u2013 {PW}", PW),
    "pw": ("NOTES.md", f"pw: {PW}", PW),
    "docstring": ("notes.py", f'"""Connect with password {PW}."""', PW),
    "block_comment": ("a.js", f"x = 1; /* password: {PW} */", PW),
    "batch_comment": ("a.bat", f":: password: {PW}", PW),
    "percent_comment": ("a.ex", f"% password: {PW}", PW),
    "comment_arrow": ("a.py", f"# password -> {PW}", PW),
    "comment_pw": ("a.py", f"# pw={PW}", PW),
    # PEM variants
    "pem_four_dashes": (
        "a.txt",
        f"----BEGIN PRIVATE KEY----\n{PEM_BODY}\n----END PRIVATE KEY----",
        PEM_BODY,
    ),
    "pem_mixed_case": (
        "a.txt",
        f"-----BEGIN Private Key-----\n{PEM_BODY}\n-----END Private Key-----",
        PEM_BODY,
    ),
    "pem_spaced_body": (
        "a.txt",
        f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY[:16]} {PEM_BODY[16:32]} {PEM_BODY[32:]}\n"
        "-----END PRIVATE KEY-----",
        PEM_BODY[16:32],
    ),
    "pem_short_lines": (
        "a.txt",
        f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY[:24]}\n{PEM_BODY[24:]}\n-----END PRIVATE KEY-----",
        PEM_BODY[:24],
    ),
    "base64_pem_block_lines": (
        "a.yaml",
        f"tls.key: |\n  {B64_KEY[:24]}\n  {B64_KEY[24:64]}\n  {B64_KEY[64:]}\n",
        B64_KEY[24:64],
    ),
    "base64_pem_after_newline": ("a.yaml", f"key: {B64_KEY_AFTER_NEWLINE.decode()}", "0tLS0tQkVH"),
    "base64_pem_after_space": (
        "a.yaml",
        "key: " + base64.b64encode(f" -----BEGIN PRIVATE KEY-----\n{PEM_BODY}".encode()).decode(),
        "0tLS0tQkVH",
    ),
    # code
    "string_annotation": ("a.py", f'password: "str" = "{PW}"', PW),
    "continued_assignment": ("a.py", f'password = \\\n    "{PW}"', PW),
    "str_call": ("a.py", f'password = str("{PW}")', PW),
    "go_typed_var": ("a.go", f'var dbPassword string = "{PW}"', PW),
    "tuple_assignment": ("a.py", f'x, password = "u", "{PW}"', PW),
    "default_after_getenv": ("a.py", f'password = os.getenv("X") or "{PW}"', PW),
    "lua_long_string": ("a.lua", f"password = [[{PW}]]", PW),
    "xml_value_before_key": ("web.config", f'<add value="{PW}" key="DbPassword" />', PW),
    "properties_space": ("a.properties", f"db.password {PW}\n", PW),
    "notebook_subscript": (
        "nb.ipynb",
        f'{{"source": ["os.environ[\\"OPENAI_API_KEY\\"] = \\"{TOKEN}\\"\\n"]}}',
        TOKEN,
    ),
    # a value longer than the 64 characters the assignment regex reads: read whole
    "long_query_value": ("a.py", f'u = "https://x/?password={PW * 6}&a=1"', PW * 6),
    "long_table_value": ("a.md", f"| password | {PW * 6} |", PW * 6),
}


# A signature of AWS Signature Version 4: 64 hex digits.
AWS4_SIGNATURE = fake(_HEX, 64, 52)

GIVEN = {
    # (path, text, secret): credentials given to a login or a connection, sent in headers
    # and URLs, or written in other forms of Terraform and SQL
    # a user and a password given as arguments
    "login_call": ("a.py", f'conn.login("user", "{PW}")', PW),
    "smtp_login": ("a.py", f'smtp.login("me@x.com", "{PW}")', PW),
    "login_in_test": ("test_a.py", f'assert client.login("admin", "{PW}")', PW),
    "network_credential": ("A.cs", f'new NetworkCredential("admin", "{PW}")', PW),
    "connect_positional": ("a.py", f'db = pymysql.connect(host, "app", "{PW}", "appdb")', PW),
    "mysqli_connect": ("a.php", f'$db = mysqli_connect("localhost", "root", "{PW}");', PW),
    "get_connection": ("A.java", f'DriverManager.getConnection(url, "root", "{PW}");', PW),
    "creds_tuple": ("a.py", f'creds = ("admin", "{PW}")  # username, password', PW),
    "go_mysql_dsn": ("a.go", f'db, err := sql.Open("mysql", "root:{PW}@tcp(db:3306)/app")', PW),
    # a user and a password in a sentence or a comment
    "log_in_with": ("NOTES.md", f"log in with admin / {PW}", PW),
    "creds_colon": ("NOTES.md", f"creds: admin/{PW}", PW),
    "creds_comment": ("a.py", f"# creds admin:{PW}", PW),
    "credentials_are": ("NOTES.md", f"The staging credentials are admin/{PW}.", PW),
    # URLs and headers
    "query_key": ("a.py", f'u = "https://x/api?key={TOKEN}"', TOKEN),
    "query_key_after_another": ("a.py", f'u = "https://x/api?v=2&key={TOKEN}"', TOKEN),
    "url_password_with_at": ("a.py", f'dsn = "postgres://u:p@ss{PW}@db/app"', f"ss{PW}"),
    "url_token_as_user": ("a.py", f'git.clone("https://{TOKEN}@github.com/a/b")', TOKEN),
    "query_concatenated": ("a.py", f'u = base + "&password=" + "{PW}"', PW),
    "bearer_concatenated": ("a.py", f'headers["Authorization"] = "Bearer " + "{TOKEN}"', TOKEN),
    "cookie_header": ("a.py", f'headers = {{"Cookie": "session={TOKEN}"}}', TOKEN),
    "cookie_in_curl": ("run.sh", f'curl -H "Cookie: lang=en; sid={TOKEN}" https://x', TOKEN),
    "set_cookie": ("a.http", f"Set-Cookie: sessionid={TOKEN}; Path=/; HttpOnly", TOKEN),
    "digest_header": (
        "a.py",
        f'"Authorization": "Digest username=\\"u\\", response=\\"{TOKEN}\\""',
        TOKEN,
    ),
    "aws4_header": (
        "a.py",
        '"Authorization": "AWS4-HMAC-SHA256 Credential=x/20130524/us-east-1/s3/aws4_request, '
        f'SignedHeaders=host, Signature={AWS4_SIGNATURE}"',
        AWS4_SIGNATURE,
    ),
    # Terraform variables' defaults
    "tf_nested_block": (
        "main.tf",
        'variable "db_password" {\n  validation {\n    condition = length(var.db_password) > 8\n'
        f'  }}\n  default = "{PW}"\n}}',
        PW,
    ),
    "tf_brace_in_string": (
        "main.tf",
        f'variable "db_pass" {{\n  description = "The {{x}} password"\n  default = "{PW}"\n}}',
        PW,
    ),
    "tf_credentials_name": (
        "main.tf",
        f'variable "admin_credentials" {{\n  default = "{PW}"\n}}',
        PW,
    ),
    "tf_heredoc": (
        "main.tf",
        f'variable "db_password" {{\n  default = <<-EOT\n    {PW}\n    {TOKEN}\n  EOT\n}}',
        TOKEN,
    ),
    # SQL in any case
    "sql_lower_case": ("a.sql", f"create user app identified by '{PW}';", PW),
    "sql_mixed_case": ("a.sql", f"GRANT ALL ON db.* TO 'app'@'%' Identified By '{PW}';", PW),
    # typographic quotes, as pasted from a document
    "typographic_quotes": ("a.py", f"password = \u2018{PW}\u2019", PW),
}


@pytest.mark.parametrize(
    ("path", "text", "secret"), [*SHAPES.values(), *GIVEN.values()], ids=[*SHAPES, *GIVEN]
)
def test_common_leak_shapes_are_redacted(path: str, text: str, secret: str) -> None:
    out, count = redact(text, config_like=is_config_like(path))
    assert secret not in out and count >= 1
    assert line_shape(out) == line_shape(text)
    assert redact(out, config_like=is_config_like(path)) == (out, 0)


KEPT_SHAPES = {
    # (path, text): look like the shapes above, are not credentials
    "mysql_prompt": ("run.sh", "mysql -u root -p mydb"),
    "other_command_p": ("run.sh", "mkdir -p build_output_dir"),
    "login_alone": ("run.sh", "echo login -p Vx7qP2mLk9Rz"),
    "sort_key": ("run.sh", "sort --key=2,3 file"),
    "s3_object_key": ("run.rst", "aws s3api get-object --bucket b --key dir/my_images.tar.bz2 x"),
    "device_key": (
        "run.rst",
        "aws cognito-idp forget-device --device-key us-west-2_abcd_1234-5678",
    ),
    "format_field": ("a.py", 'print(f"password={password!r}")'),
    "code_in_string": ("a.py", 'app.run_cell("x = 1; pw = format(Piecewise((1, x)))")'),
    "keyword_list": ("a.py", "KEYWORDS = ['PASSWORD',\n    'PLACING']"),
    "json_next_key": ("r.json", '{"status": "PASS",\n "passed": 6}'),
    "union_type": ("a.py", "def load(self) -> Ed25519PrivateKey | Ed448PrivateKey: ..."),
    "table_header": ("a.md", "| Password | Description |"),
    "table_of_settings": ("a.md", "| DB_PASSWORD | required |"),
    "bold_heading": ("a.md", "**To wait until the password data for an instance is available**"),
    "translation": ("values-de/strings.xml", '<string name="password">Passwort</string>'),
    "setter_not_a_setter": ("A.java", 'settings_password("Vx7qP2mLk9Rz")'),
    "fallback_lower_name": ("a.js", "const pw = password || 'fallback'"),
    "yaml_next_line_mapping": ("a.yaml", "password:\n  type: string\n  minLength: 12\n"),
    "yaml_vault": ("a.yaml", "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n"),
    "classpath_key": ("A.java", 'setPrivateKey("classpath:org/acme/ssl/rsa-key.pem");'),
    "env_file_name": ("Dockerfile", "ENV DB_PASSWORD_FILE /run/secrets/db_password"),
    "prose_password_word": ("a.md", "Use password managers to log in."),
    "sql_prompt": ("a.sql", "-- the PASSWORD 'x' form is deprecated"),
    "tuple_of_calls": ("a.py", "user, password = get_credentials()"),
    "basic_auth_dummy": ("a.md", "requests.get(url, auth=HTTPBasicAuth('user', 'pass'))"),
    "oauth_name": ("a.py", 'oauth = "Vx7qP2mLk9Rz"'),
    "default_placeholder": ("a.py", 'password = os.getenv("DB_PASSWORD") or "changeme"'),
    "properties_prose": ("a.md", "db.password settings\n"),
    "long_key_path": (
        "A.java",
        '"spring.ssl.keystore.private-key=classpath:org/springframework/boot/ssl/test-client.key"',
    ),
}


KEPT_GIVEN = {
    # (path, text): look like the shapes above, are not credentials
    "login_with_variables": ("a.py", "client.login(user, password)"),
    "login_with_a_word": ("a.py", 'client.login("admin", "password")'),
    "login_template": ("a.py", 'login(request, "registration/login2.html")'),
    "connect_two_arguments": ("a.py", 'button.connect("clicked", "on_click_handler2")'),
    "log_in_account": ("NOTES.md", "log in with your admin account"),
    "login_page_path": ("NOTES.md", "log in at /accounts/login/ first"),
    "creds_location": ("a.py", "# creds live in config/settings2"),
    "query_key_concatenated": ("a.py", 'url = base + "?key=" + name'),
    "query_concatenated_format": ("a.py", 'x = "password=" + "%s" % pw'),
    "url_user_name": ("a.md", "ssh://deploy_user_for_staging@host/repo"),
    "creds_tuple_of_names": ("a.py", "creds = (user, password)"),
    "go_dsn_format": ("a.go", 'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", u, p, h, d)'),
    "go_dsn_built": ("a.go", 'dsn := user + ":" + pw + "@tcp(" + host + ")/"'),
    "query_numbered_keys": ("a.rst", "https://httpbin.org/get?key1=value1&key2=value2"),
    "query_object_key": (
        "a.json",
        '"Url": "https://s3.amazonaws.com/calc5.html?key=cfn/78ab-4def"',
    ),
    "cookie_read": ("a.py", 'cookie = request.headers["Cookie"]'),
    "cookie_object": ("a.py", "cookie = SimpleCookie()"),
    "cookie_parsed": ("a.py", 'cookies = dict(c.split("=", 1) for c in header.split("; "))'),
    "cookie_settings": ("a.http", "Set-Cookie: lang=en-US; Max-Age=3600; Path=/"),
    "cookie_names": ("a.py", 'headers.append("Set-Cookie: PART_NUMBER=ROCKET_LAUNCHER_0001")'),
    "digest_built": ("a.py", 'headers["Authorization"] = "Digest " + digest(user, pw)'),
    "tf_no_default": (
        "main.tf",
        'variable "db_password" {\n  type      = string\n  sensitive = true\n}',
    ),
    "tf_reference": (
        "main.tf",
        'resource "aws_db_instance" "db" {\n  password = var.db_password\n}',
    ),
    "tf_placeholder_heredoc": (
        "main.tf",
        'variable "db_password" {\n  default = <<EOF\nchangeme\nEOF\n}',
    ),
    "identified_in_a_sentence": ("a.c", "/* a fault identified by 'purify' */"),
    "typographic_quotes_in_prose": (
        "a.md",
        "the \u201cpassword\u201d field is \u201crequired\u201d",
    ),
}


@pytest.mark.parametrize(
    ("path", "text"), [*KEPT_SHAPES.values(), *KEPT_GIVEN.values()], ids=[*KEPT_SHAPES, *KEPT_GIVEN]
)
def test_look_alikes_of_the_common_leak_shapes_are_kept(path: str, text: str) -> None:
    assert redact(text, config_like=is_config_like(path)) == (text, 0)


def test_base64_private_key_over_yaml_lines_keeps_every_line() -> None:
    text = f"data:\n  tls.key: |\n    {B64_KEY[:40]}\n    {B64_KEY[40:]}\n  tls.crt: x\n"
    out, _ = redact(text, config_like=True)
    assert line_shape(out) == line_shape(text)
    assert out.splitlines()[2] == f"    {REDACTED}"
    assert out.endswith("  tls.crt: x\n")

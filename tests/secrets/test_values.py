"""Tests for repomem.secrets.values: which values count, in code and in config files."""

from __future__ import annotations

import pytest

from repomem.secrets import REDACTED, contains_secret, redact
from tests.secrets.cases import ALNUM, NPM, assert_kept, fake, named

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


@named("text", NOT_SECRETS)
def test_ordinary_code_is_not_redacted(text: str) -> None:
    assert_kept(text)
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


@named(("line", "expected"), CONFIG_LINES)
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
    value = fake(ALNUM, 300, 50)
    assert redact(f"token={value}\nnext=1\n", config_like=True) == (
        f"token={REDACTED}\nnext=1\n",
        1,
    )


def test_a_config_value_before_a_redacted_token_on_its_line_is_redacted_too() -> None:
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    out, n = redact(f"prod db password=hunter2xyz, CI token {token}", config_like=True)
    assert "hunter2xyz" not in out and token not in out and n == 2


# ---------------------------------------------------------------------------------------
# Prose that goes on after the value: a fact remembered, a note, a commit message
# ---------------------------------------------------------------------------------------

PROSE_GOING_ON = {
    # (text, secret): a generated-looking word, then words
    "words_after": ("The staging password: Hq71mZpe4T for the bot", "Hq71mZpe4T"),
    "comma_then_words": ("password: Hq71mZpe4T, user admin", "Hq71mZpe4T"),
    "in_another_language": ("senha: Hq71mZpe4T para o banco", "Hq71mZpe4T"),
    "a_token": ("api token: 7fQ2mZk91Lx0Pp for the deploy bot", "7fQ2mZk91Lx0Pp"),
    "an_aside": ("The staging password: Hq71mZpe4T (rotated)", "Hq71mZpe4T"),
    "markdown_bold": ("The staging password: **hunter2hunter**", "hunter2hunter"),
    "markdown_italic_token": ("token: *ghx7Yk29sLq0pW12ab* for the bot", "ghx7Yk29sLq0pW12ab"),
    "set_to": ("Set the staging password to Hq71!mzpe4t", "Hq71!mzpe4t"),
    "changed_to": ("Changed the DB password to hunter2hunter", "hunter2hunter"),
    "rotated_to": ("rotated the deploy token to 9f8e7d6c5b4a39281706", "9f8e7d6c5b4a39281706"),
}


@named(("text", "secret"), PROSE_GOING_ON)
def test_a_secret_followed_by_words_in_prose_is_redacted(text: str, secret: str) -> None:
    for mode in ({"config_like": True}, {"prose": True}):
        assert redact(text, **mode) == (text.replace(secret, REDACTED), 1), mode


PROSE_KEPT = {
    "words": "password: must be twelve characters or more",
    "a_type": "token: string, the bearer token of the bot",
    "an_algorithm": "password: sha256 of the salted input",
    "lower_word_and_digits": "api key: v2 endpoint only",
    "a_camel_name": "password: passwordHash for the stored form",
    "to_a_name": "Pass the password to get_credentials() first",
    "to_words": "Add a password to the account settings",
    "to_an_identifier": "Copy the token to the_env_var",
    "to_then_is": "the password to the staging db is unknown",
    "a_call_in_docs": "password: request.form['password']",
    "a_mask_in_markdown": "password: ****",
    "a_word_in_bold": "password: **required**",
    "an_emphasised_sentence": "token: *see the vault entry*",
    "a_call_with_an_aside": "token: get_token() (cached)",
}


@named("text", PROSE_KEPT)
def test_words_and_names_after_a_credential_word_in_prose_are_kept(text: str) -> None:
    assert redact(text, config_like=True) == (text, 0)
    assert redact(text, prose=True) == (text, 0)

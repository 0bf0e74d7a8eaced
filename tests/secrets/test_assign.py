"""Tests for repomem.secrets.assign: credentials assigned to credential-named keys."""

from __future__ import annotations

import pytest

from repomem.secrets import REDACTED, redact
from tests.secrets.cases import (
    ALNUM,
    OPENAI_LEGACY,
    PASSWORD,
    assert_filled_redacted,
    assert_kept,
    fake,
    named,
    pem_block,
)

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


@named("template", ASSIGNMENTS)
def test_credential_assignment_redacts_only_the_value(template: str) -> None:
    assert_filled_redacted(template, v=fake(ALNUM, 24, 40))


def test_human_chosen_password_is_redacted() -> None:
    assert redact('password = "hunter2hunter"') == (f'password = "{REDACTED}"', 1)


def test_each_of_several_assignments_is_counted() -> None:
    text = f'user = "app"\npassword = "{PASSWORD}"\napi_key = "{fake(ALNUM, 32, 41)}"\n'
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


# ---------------------------------------------------------------------------------------
# URLs' short and encoded parameters, Python's spellings of a password name, auth classes
# ---------------------------------------------------------------------------------------

PW = "Qz" + fake(ALNUM, 10, 63)  # typed like a password: a digit, both cases
TOKEN = fake(ALNUM, 24, 64)

MORE_SHAPES = {
    # (text, secret)
    "query_p_alone": ('u = "https://x/api?p={p}"', PW),
    "query_p_after_user": ('u = "https://x/login?user=admin&p={p}&x=1"', PW),
    "query_p_after_u": ('u = "https://x/login?u=admin&p={w}"', "pw4rd2x"),
    "query_encoded_password": ('u = "https://x/api?password%3D{p}"', PW),
    "query_encoded_in_a_redirect": (
        'u = "https://x/cb?next=https%3A%2F%2Fy%2F%3Fuser%3Dme%26password%3D{p}%26x%3D1"',
        PW,
    ),
    "query_encoded_token": ('u = "https://x/cb?next=%2Fy%3Faccess_token%3D{t}"', TOKEN),
    "python_pass_underscore": ('d = dict(user="admin", pass_="{p}")', PW),
    "passw": ('d = dict(user="admin", passw="{p}")', PW),
    "digest_auth": ('requests.get(u, auth=HTTPDigestAuth("admin", "{p}"))', PW),
    "password_authenticator": ('auth = PasswordAuthenticator("admin", "{p}")', PW),
    "ipython_shell_escape": ("!PGPASSWORD={p} psql -h db", PW),
}


@named(("text", "secret"), MORE_SHAPES)
def test_short_encoded_and_python_spelled_passwords_are_redacted(text: str, secret: str) -> None:
    text = text.format(p=PW, t=TOKEN, w="pw4rd2x")
    out, count = redact(text)
    assert out == text.replace(secret, REDACTED) and count == 1


KEPT_MORE = [
    'u = "https://x/blog/?p=123"',
    'u = "https://x/search?q=python&p=abcdefgh"',
    'u = "https://x/search?q=python&p=page2x"',  # a slug: lower case, no user before
    'u = "https://git.kernel.org/?p=linux/kernel/git/torvalds/linux.git;a=commit;h=0b4f2c1"',
    'u = f"https://x/login?user={user}&p={pw}"',
    "re.fullmatch(r'(?s:(?=(?P<g0>.*?\\.))(?P=g0).*)\\Z', name)",  # a backreference
    'q = "password%3D%s" % quote(pw)',
    'u = "https://x/api?password%3D"',
    "self.client.pass_(password)",
    'd = {"pass_": 1}',
    "r = requests.get(url, auth=HTTPDigestAuth(user, token_var))",
    "auth = PasswordAuthenticator(user, password)",
    "!pip install -q requests",
    "x = !ls",
]


@pytest.mark.parametrize("text", KEPT_MORE)
def test_pages_variables_and_shell_escapes_without_a_password_are_kept(text: str) -> None:
    assert_kept(text)


# A quoted value's plain characters are read a run at a time; the value must end where the
# tail's reading one character at a time ends, which reads 4,096 at most.
LONGEST_READ = "Ab1" * 1365 + "x"
QUOTED_READS = {
    # (text, how many redacted)
    "escaped_quote": ('password = "Ab1\\"cd2ef3"', 1),
    "other_quotes_inside": ('password = "Ab1`cd\'2ef3"', 1),
    "triple_quotes_with_quotes_inside": ('password = """Ab1""cd2ef3"""', 1),
    "escaped_backslash_then_the_end": ('password = "Ab1\\\\"', 0),  # five characters
    "backslash_before_a_line_break": ('password = "Ab1cd2ef3\\\r"', 0),
    "longest_read": (f'password = "{LONGEST_READ}"', 1),
    "longer_than_read": (f'password = "{LONGEST_READ}z"', 0),
    "an_escape_counts_once": ('password = "' + 'A\\"' * 2048 + '"', 1),
}


@named(("text", "count"), QUOTED_READS)
def test_a_quoted_value_ends_where_it_is_read_to_one_character_at_a_time(
    text: str, count: int
) -> None:
    quote = '"""' if text.startswith('"""', 11) else text[11]
    assert redact(text) == ((f"password = {quote}{REDACTED}{quote}", 1) if count else (text, 0))


SIGNING_KEYS = {
    "encryption_constant": 'ENCRYPTION_KEY = "{v}"',
    "signing_key": 'SIGNING_KEY = "{v}"',
    "parse_master_key": 'masterKey: "{v}",',
    "fernet_bytes": 'FERNET_KEY = b"{v}"',
    "hmac_key": "hmac_key = '{v}'",
}


@named("template", SIGNING_KEYS)
def test_keys_that_sign_or_encrypt_are_redacted(template: str) -> None:
    assert_filled_redacted(template, v=fake(ALNUM, 32, 43))


SIGNING_KEYS_KEPT = {
    "check_value": '"EncryptionKeyCheckValue": "7CC9E2",',
    "algorithm_word": 'signing_key = "rsa_default"',
    "from_environment": 'ENCRYPTION_KEY = os.environ["ENCRYPTION_KEY"]',
    "path": 'MASTER_KEY = "config/master.key"',
    "key_id": 'signing_key_id = "5f2b8c1d9e7a4b3c"',
}


@named("text", SIGNING_KEYS_KEPT)
def test_names_and_short_check_values_of_signing_keys_are_kept(text: str) -> None:
    assert_kept(text)


TYPOGRAPHIC_QUOTES = {
    # pasted from a document: the value in any typographic quotes, the key in them too
    "german": "password = „{v}“",
    "french": "password = «{v}»",
    "single_low": "password = ‚{v}‘",
    "key_and_value": "“password”: “{v}”",
    "key_single": "‘api_key’: ‘{v}’",
}


@named("template", TYPOGRAPHIC_QUOTES)
def test_values_and_keys_in_typographic_quotes_are_read(template: str) -> None:
    assert_filled_redacted(template, v=fake(ALNUM, 24, 44))


TYPOGRAPHIC_KEPT = {
    "prose": "Enter a “password” when asked.",
    "a sentence quoted": "“password”: “Choose a strong one.”",
    "empty": "“password”: “”",
    "word": "„password“ = „Passwort“",
}


@named("text", TYPOGRAPHIC_KEPT)
def test_words_in_typographic_quotes_are_kept(text: str) -> None:
    assert_kept(text)


def test_a_german_password_name_is_a_password_name() -> None:
    value = fake(ALNUM, 12, 45)
    text = f'DB_PASSWORT = "{value}"\npasswort: "{value}"\n'
    assert redact(text) == (f'DB_PASSWORT = "{REDACTED}"\npasswort: "{REDACTED}"\n', 2)
    assert redact('passwortHinweis = "Mindestens acht Zeichen"') == (
        'passwortHinweis = "Mindestens acht Zeichen"',
        0,
    )


# ---------------------------------------------------------------------------------------
# Lists of credentials, and a credential's name paired with its value
# ---------------------------------------------------------------------------------------

PW2 = "Hx" + fake(ALNUM, 10, 65)
TOKEN2 = fake(ALNUM, 24, 66)

LISTED = {
    # (path, text, secrets): values in a list named for credentials, or paired with a name
    "python_list": ("a.py", 'passwords = ["{p}", "{p2}"]', (PW, PW2)),
    "over_lines": ("a.py", 'API_KEYS = [\n    "{t}",\n    "{t2}",\n]', (TOKEN, TOKEN2)),
    "javascript": ("a.js", "const tokens = ['{t}'];", (TOKEN,)),
    "json": ("a.json", '{{"secrets": ["{p}"]}}', (PW,)),
    "yaml_items": ("a.yaml", "passwords:\n  - {p}\n  - {p2}\n", (PW, PW2)),
    "up_to_a_variable": ("a.py", 'passwords = ["{p}", other]', (PW,)),
    "pairs": ("a.py", 'data = [("username", "admin"), ("password", "{p}")]', (PW,)),
    "pair_in_a_list": ("a.py", 'form = ["password", "{p}"]', (PW,)),
    # a setting's name: its value as in `SECRET_KEY = "config"` (as before pairs were read)
    "setting_pair": ("a.py", 'app.update([("SECRET_KEY", "devkey")])', ("devkey",)),
}


@named(("path", "text", "secrets"), LISTED)
def test_listed_and_paired_credentials_are_redacted(
    path: str, text: str, secrets: tuple[str, ...]
) -> None:
    text = text.format(p=PW, p2=PW2, t=TOKEN, t2=TOKEN2)
    expected = text
    for secret in secrets:
        expected = expected.replace(secret, REDACTED)
    assert redact(text, config_like=path.endswith((".json", ".yaml"))) == (expected, len(secrets))


LISTED_KEPT = [
    'PASSWORD_FIELDS = ["password", "password_confirm"]',
    'passwords = ["changeme", "password"]',
    'passwords = ["a", "b"]',
    "passwords = [pw1, pw2]",
    'tokens = ["foo", " ", "bar", " ", "19June2000", "baz"]',  # a tokenizer's
    "preferred_auths = ['CRAM-MD5', 'PLAIN', 'LOGIN']",  # mechanisms
    '"DkimTokens": ["vvjuipp74whm76gqoni7qmwwn4w4qusjiainivf6sf"]',  # published in DNS
    '"DkimToken": "vvjuipp74whm76gqoni7qmwwn4w4qusjiainivf6sf"',
    f'next_tokens = ["{TOKEN}"]',
    'CHOICES = (("password", "Password"), ("token", "Token"))',
    '("password", "Enter your password")',
    'fields = ("username", "password")',
    f'("password", "{PW}", "more")',  # not a pair
    'self.assertIn("password", "password_hash")',
]


@pytest.mark.parametrize("text", LISTED_KEPT)
def test_lists_and_pairs_of_names_and_words_are_kept(text: str) -> None:
    assert_kept(text)


def test_string_literals_concatenated_are_one_value() -> None:
    assert redact('password = "abc" + "def9Xk2q"') == (f'password = "{REDACTED}"', 1)
    text = f'password = "{PW}" + suffix'  # a value built: its literal, as before
    assert redact(text) == (f'password = "{REDACTED}" + suffix', 1)

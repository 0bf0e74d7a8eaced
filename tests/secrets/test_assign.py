"""Tests for repomem.secrets.assign: credentials assigned to credential-named keys."""

from __future__ import annotations

import pytest

from repomem.secrets import REDACTED, redact
from tests.secrets.cases import ALNUM, OPENAI_LEGACY, PASSWORD, fake, pem_block

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
    value = fake(ALNUM, 24, 40)
    out, n = redact(template.format(v=value))
    assert out == template.format(v=REDACTED)
    assert n == 1


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

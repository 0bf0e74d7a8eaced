"""Tests for repomem.secrets.commands: credentials in headers, given to commands, or stated."""

from __future__ import annotations

import pytest

from repomem.secrets import REDACTED, redact
from tests.secrets.cases import BEARER


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

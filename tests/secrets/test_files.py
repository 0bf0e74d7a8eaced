"""Tests for repomem.secrets.files: credential files and config-like files, by name."""

from __future__ import annotations

import pytest

from repomem.secrets import SECRET_FILE_REASON, is_config_like, is_secret_file, redact


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


def test_documentation_counts_unquoted_values_like_config() -> None:
    from repomem.secrets import is_config_like

    for doc in ("docs/deploy.md", "README.MD", "notes/ops.rst", "INSTALL.txt", "a.adoc"):
        assert is_config_like(doc), doc
    assert not is_config_like("src/deploy.py")
    text = "Deploy with DB_PASSWORD=supersecretvalue99 on the box.\n"
    assert "supersecretvalue99" not in redact(text, config_like=is_config_like("deploy.md"))[0]


def test_shell_scripts_are_read_like_config() -> None:
    assert is_config_like("deploy/release.sh") and is_config_like("ci/env.bash")
    out, _ = redact("export DB_PASSWORD=shellpass123\n", config_like=is_config_like("x.sh"))
    assert "shellpass123" not in out

"""Tests for repomem.secrets (redact and the public API) and the red teams' end-to-end
corpora, whose cases cross every module of the package.

Every fake credential is assembled at run time (prefix + generated body) so this file
itself holds nothing a secret scanner would flag.
"""

from __future__ import annotations

import base64

import pytest

from repomem.errors import ConfigError
from repomem.secrets import REDACTED, contains_secret, is_config_like, redact
from tests.secrets.cases import (
    ALNUM,
    B64,
    GITHUB_PAT,
    HEX,
    PASSWORD,
    assert_kept,
    fake,
    line_shape,
    named,
)

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


@named(("path", "text", "secret"), LEAKED)
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


@named(("path", "text"), KEPT)
def test_words_about_credentials_are_kept(path: str, text: str) -> None:
    assert_kept(text, is_config_like(path))


@pytest.mark.parametrize(
    "text", ['u = "https://x/?password=&a=1"', "Server=db;Password=;Database=x", "?token=#x"]
)
def test_an_empty_value_in_a_query_or_connection_string_is_not_a_crash(text: str) -> None:
    assert redact(text) == (text, 0) and redact(text, config_like=True) == (text, 0)


# ---------------------------------------------------------------------------------------
# Common leak shapes of real repositories (a third red team's corpus)
# ---------------------------------------------------------------------------------------

PW = "Vx7qP2mLk9Rz"  # a password a person chose
TOKEN = fake(ALNUM, 24, 50)  # a machine-made token
PEM_BODY = fake(B64, 48, 51)
# base64 of "-----BEGIN PRIVATE KEY-----\n" + key material, once more base64-encoded
B64_KEY = base64.b64encode(f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY}\n".encode()).decode()
B64_KEY_AFTER_NEWLINE = base64.b64encode(f"\n-----BEGIN PRIVATE KEY-----\n{PEM_BODY}".encode())

SHAPES = {
    # (path, text, secret)
    # command lines
    "sshpass": ("run.sh", f"sshpass -p {PW} ssh host", PW),
    "sshpass_quoted": ("run.sh", f"sshpass -p'{PW}' ssh host", PW),
    "psexec": ("run.bat", f"psexec \\\\srv -u admin -p {PW} cmd", PW),
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
    "makefile_posix_assignment": ("Makefile", f"PASSWORD ::= {PW}", PW),
    "makefile_gnu_immediate": ("rules.mk", f"PASSWORD :::= {PW}", PW),
    # a shell's here-string read into the name
    "here_string": ("run.sh", f'read -r pw <<< "{PW}"', PW),
    "here_string_bare": ("run.sh", f"read -r DB_PASSWORD <<< {PW}", PW),
    "here_string_in_python": ("run.py", f"os.system('read -r password <<< \"{PW}\"')", PW),
    "here_string_two_names": ("run.sh", f'IFS=: read -r user pass <<< "admin:{PW}"', PW),
    # string literals concatenated
    "concatenated": ("a.py", 'password = "abc" + "def9Xk2q"', "def9Xk2q"),
    "concatenated_three": ("a.js", "const password = 'Ab' + 'cd3' + 'ef9';", "cd3"),
    "concatenated_token": ("a.py", 'api_key = "aB3dE5" + "gH7jK9mN1pQ3"', "gH7jK9mN1pQ3"),
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
    "docstring_key": ("a.py", f'def f():\n    """Connect.\n\n    password: {PW}\n    """', PW),
    "docstring_example": ("a.py", f'"""\nExample:\n    password={PW}\n"""', PW),
    "docstring_single_quotes": ("a.py", f"'''\npassword: {PW}\n'''", PW),
    "docstring_token": ("a.py", f'"""\n    token: {TOKEN}\n"""', TOKEN),
    "block_comment_lines": ("a.js", f"/*\n password: {PW}\n*/", PW),
    "use_the_password": ("a.py", f'"""Use the password {PW} for staging."""', PW),
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
AWS4_SIGNATURE = fake(HEX, 64, 52)

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
    "docstring_parameter": ("a.py", '"""\n    :param password: The password to use.\n    """'),
    "docstring_type": ("a.py", '"""\n    password: str\n    """'),
    "docstring_code": ("a.py", '"""\n    password: request.form["password"]\n    """'),
    "docstring_words": ("a.py", '"""\n    token: a TokenInfo object\n    """'),
    "docstring_class_name": ("a.py", '"""\n    token: TokenInfo\n    """'),
    "docstring_grammar": ("a.py", '"""\n    token = 1*<any CHAR except CTLs>\n    """'),
    "comment_grammar": ("a.py", "# token          = 1*tchar"),
    "code_after_a_docstring": ("a.py", '"""Doc."""\npassword = password2\n'),
    "code_after_a_glob": ("a.py", 'files = glob("src/*.py")\npassword = password2\n'),
    "javascript_variable": ("a.js", "const o = {\n  password: hunter2hunter2,\n};"),
    "makefile_shell_assignment": ("Makefile", "PASSWORD != cat secret"),
    "makefile_shell_command": ("Makefile", "DB_PASSWORD != pass show db/prod"),
    "makefile_shell_function": ("Makefile", "PASSWORD := $(shell cat .pw)"),
    "grammar_rule_in_code": ("a.py", 'password ::= "Vx7qP2mLk9Rz"'),
    "here_string_variable": ("run.sh", 'read -r pw <<< "$PASSWORD"'),
    "here_string_command": ("run.sh", 'read -r pw <<< "$(cat .pw)"'),
    "here_string_not_read": ("run.sh", 'grep -c pass <<< "Vx7qP2mLk9Rz"'),
    "read_prompt": ("run.sh", 'read -s -p "Password: " pw'),
    "concatenated_with_a_name": ("a.py", 'token = "Bearer " + tok'),
    "concatenated_fields": ("a.py", 'password = "%s" + "%s"'),
    "concatenated_compared": ("a.py", 'if password == "abc" + "def9Xk2q":'),
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
    "log_on_inside_a_word": ("NOTES.md", "the catalog on: prod/Sales2024!"),
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
    "cookie_short_value": ("a.http", "Set-Cookie: ver=v2x7; Path=/"),
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
    assert_kept(text, is_config_like(path))


def test_base64_private_key_over_yaml_lines_keeps_every_line() -> None:
    text = f"data:\n  tls.key: |\n    {B64_KEY[:40]}\n    {B64_KEY[40:]}\n  tls.crt: x\n"
    out, _ = redact(text, config_like=True)
    assert line_shape(out) == line_shape(text)
    assert out.splitlines()[2] == f"    {REDACTED}"
    assert out.endswith("  tls.crt: x\n")

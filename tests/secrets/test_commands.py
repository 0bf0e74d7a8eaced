"""Tests for repomem.secrets.commands: credentials in headers, given to commands, or stated."""

from __future__ import annotations

import pytest

from repomem.secrets import REDACTED, is_config_like, redact
from tests.secrets.cases import ALNUM, BEARER, assert_filled_redacted, assert_kept, fake, named


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
    assert_filled_redacted(line, t=BEARER)


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


@named(("text", "secret"), STATED_OR_PASSED)
def test_secrets_passed_to_commands_or_stated_in_prose_are_redacted(text: str, secret: str) -> None:
    out, count = redact(text)
    assert secret not in out and count == 1
    assert out.replace(REDACTED, secret) == text  # only the secret itself was replaced


# ---------------------------------------------------------------------------------------
# Oracle's logon, and calls that take a password at a known place
# ---------------------------------------------------------------------------------------

PW = "Qz" + fake(ALNUM, 10, 62)  # typed like a password: a digit, both cases

GIVEN_TO_CALLS = {
    # (path, text): the password (PW) is given to a command or a call that takes one
    "sqlplus": ("run.sh", "sqlplus scott/{p}@db"),
    "sqlplus_options": ("run.sh", "sqlplus -s -L app/{p}@//db.acme.io:1521/ORCLPDB1 @run.sql"),
    "sqlplus_quoted_sysdba": ("run.sh", 'sqlplus "sys/{p}@orcl as sysdba"'),
    "sqlplus_as_sysdba": ("run.sh", "sqlplus sys/{p} AS SYSDBA"),
    "sqlplus_in_a_pipe": ("run.sh", "echo exit | /opt/oracle/bin/sqlplus app/{p}@ORCL @i.sql"),
    "sqlldr_userid": ("run.sh", "sqlldr userid=scott/{p}@orcl control=x.ctl"),
    "sql_connect": ("a.sql", "CONNECT app/{p}@ORCL"),
    "sql_conn": ("a.sql", "conn system/{p}@xe"),
    "jdbc_thin_url": ("A.java", 'String url = "jdbc:oracle:thin:scott/{p}@db:1521:orcl";'),
    "cx_oracle_logon_string": ("a.py", 'c = cx_Oracle.connect("scott/{p}@db:1521/orcl")'),
    "oracledb_positional": ("a.py", 'c = oracledb.connect("scott", "{p}", "db/orcl")'),
    "paramiko_positional": ("a.py", 'ssh.connect("host", 22, "root", "{p}")'),
    "sequelize": ("a.js", "const s = new Sequelize('app', 'root', '{p}', {{ dialect: 'mysql' }})"),
    "sequelize_env_database": ("a.ts", "new Sequelize(process.env.DB, 'root', '{p}', opts);"),
    "mysqli": ("a.php", '$db = new mysqli("db", "root", "{p}", "app");'),
    "mysqli_php_variables": ("a.php", '$db = new mysqli($host, $user, "{p}", "app");'),
    "expdp": ("run.sh", "expdp system/{p}@orcl directory=dp dumpfile=x.dmp"),
    "impdp_userid": ("run.sh", "impdp userid=system/{p}@orcl directory=dp"),
    "expdp_escaped_sysdba": ("run.sh", 'expdp \\"sys/{p}@orcl as sysdba\\" directory=dp'),
    "exp_userid": ("run.sh", "exp userid=scott/{p}@orcl file=x.dmp"),
    "imp_userid": ("run.sh", "imp userid=scott/{p}@orcl file=x.dmp"),
    "exp_positional": ("run.sh", "exp scott/{p}@orcl file=x.dmp"),
    "imp_positional": ("run.sh", "imp system/{p}@xe fromuser=a touser=b"),
    "exp_upper_case": ("run.bat", "EXP scott/{p}@orcl FILE=x.dmp"),
    "exp_in_python": ("a.py", 'subprocess.run("exp scott/{p}@orcl file=x.dmp", shell=True)'),
    "exp_without_database": ("run.sh", "exp scott/{p} file=x.dmp"),
    "sqlplus_without_database": ("run.sh", "sqlplus scott/{p} @x.sql"),
    "rman_target": ("run.sh", "rman target sys/{p}@prod"),
    "rman_upper_case": ("run.sh", "RMAN TARGET sys/{p}@prod"),
    "rman_os_target_catalog": ("run.sh", "rman target / catalog rman/{p}@rcat"),
    "rman_script_connect": ("a.rman", "connect target sys/{p}@prod;"),
    "redis_positional": ("a.py", 'r = redis.Redis("db", 6379, 0, "{p}")'),
    "strict_redis_positional": ("a.py", 'r = redis.StrictRedis(host, port, 0, "{p}")'),
    "ftplib": ("a.py", 'ftp = ftplib.FTP("ftp.acme.io", "deploy", "{p}")'),
    "ftp_tls": ("a.py", 'ftp = FTP_TLS(host, "me", "{p}")'),
    "pdo": ("a.php", '$db = new PDO("mysql:host=db;dbname=app", "root", "{p}");'),
    "pdo_php_variables": ("a.php", "$db = new \\PDO($this->dsn, $this->user, '{p}', $options);"),
}


@named(("path", "text"), GIVEN_TO_CALLS)
def test_passwords_given_to_oracle_logons_and_known_calls_are_redacted(
    path: str, text: str
) -> None:
    assert_filled_redacted(text, is_config_like(path), p=PW)


KEPT_CALLS = {
    # (path, text): the same words and calls without a password given
    "sqlplus_nolog": ("run.sh", "sqlplus /nolog"),
    "sqlplus_os_auth": ("run.sh", "sqlplus / as sysdba"),
    "sqlplus_variables": ("run.sh", 'sqlplus "$DB_USER/$DB_PASS@$DB" @x.sql'),
    "sqlplus_braced_variables": ("run.sh", "sqlplus ${DB_USER}/${DB_PASS}@${DB} @x.sql"),
    "sqlplus_dummy": ("run.sh", "sqlplus user/password@db"),
    "sqlplus_famous_demo": ("a.md", "Connect with sqlplus scott/tiger@orcl."),
    "sql_connect_substitution": ("a.sql", "CONNECT &user/&pass@&db"),
    "sql_connect_long_substitution": ("a.sql", "CONNECT app/&app_password9@&db"),
    "sql_connect_os": ("a.sql", "CONNECT / AS SYSDBA"),
    "cx_oracle_built": ("a.py", 'c = cx_Oracle.connect(user + "/" + pw + "@" + dsn)'),
    "cx_oracle_format": ("a.py", 'c = cx_Oracle.connect(f"{user}/{pw}@{dsn}")'),
    "github_action": ("ci.yml", "uses: actions/checkout@v4"),
    "connect_as_prose": ("a.md", "Connect docs/setup@main first."),
    "connect_host_port": ("a.py", "c = psycopg2.connect(host, port)"),
    "connect_socket_tuple": ("a.py", 'sock.connect(("localhost", 8080))'),
    "connect_signal": ("a.py", 'signal.connect(self.on_change, "changed", "handler_name")'),
    "connect_empty_password": ("a.py", 'c = pymysql.connect("localhost", "root", "", "test")'),
    "paramiko_variables": ("a.py", "ssh.connect(host, 22, user, password)"),
    "sequelize_variables": ("a.js", "new Sequelize(db, user, password, { dialect: 'mysql' })"),
    "sequelize_config": ("a.js", "new Sequelize(cfg.database, cfg.username, cfg.password, cfg)"),
    "sequelize_memory": ("a.js", "new Sequelize('sqlite::memory:')"),
    "sequelize_null_password": ("a.js", "new Sequelize('app', 'root', null, { dialect: 'x' })"),
    "mysqli_variables": ("a.php", "$db = new mysqli($host, $user, $pass, $name);"),
    "expdp_prompting": ("run.sh", "expdp system@orcl directory=dp"),
    "expdp_variables": ("run.sh", "expdp $DB_USER/$DB_PASS@orcl directory=dp"),
    "exp_math": ("a.py", "y = exp(a / b) @ m"),
    "exp_prose": ("a.md", "The exp and imp tools read exp/imp parameter files."),
    "exp_variables": ("run.sh", "exp $DB_USER/$DB_PASS@orcl file=x.dmp"),
    "exp_in_a_word": ("a.py", "regexp scott/Qz7vLm2Rk9Tx@orcl"),
    "sqlplus_word_without_database": ("run.sh", "sqlplus app/sqlscripts @x.sql"),
    "sqlplus_dummy_without_database": ("run.sh", "sqlplus user/password @x.sql"),
    "rman_os_target": ("run.sh", "rman target / nocatalog"),
    "rman_prose": ("a.md", "Run rman as the oracle user."),
    "redis_no_password": ("a.py", "r = redis.Redis(host, port, db)"),
    "redis_literals_no_password": ("a.py", 'r = redis.Redis("localhost", 6379, 0)'),
    "redis_password_variable": ("a.py", "r = redis.Redis(host, port, db, password)"),
    "ftp_host_only": ("a.py", 'ftp = FTP("ftp.acme.io")'),
    "ftp_variables": ("a.py", "ftp = FTP(host, user, passwd)"),
    "ftp_anonymous": ("a.py", 'ftp = FTP("ftp.acme.io", "anonymous", "guest@")'),
    "pdo_variables": ("a.php", "$db = new PDO($dsn, $user, $pass);"),
    "pdo_sqlite": ("a.php", "$db = new PDO('sqlite:/var/db/app.sqlite');"),
}


@named(("path", "text"), KEPT_CALLS)
def test_logons_and_calls_without_a_password_given_are_kept(path: str, text: str) -> None:
    assert_kept(text, is_config_like(path))


NET_USE = {
    # (path, text): Windows' net use and net user, the password after the share or the user
    "after_the_user": ("a.bat", "net use \\\\server\\share /user:ACME\\deploy {p}"),
    "before_the_user": ("a.bat", "net use Z: \\\\server\\share {p} /user:ACME\\deploy"),
    "upper_case": ("a.cmd", "NET USE \\\\fs01\\data {p} /USER:ACME\\svc /PERSISTENT:NO"),
    "user_at_domain": ("a.ps1", "net use \\\\srv\\x /user:me@acme.io {p}"),
    "in_python": ("a.py", 'os.system(r"net use \\\\srv\\x /user:me {p}")'),
    "escaped_in_python": ("a.py", 'os.system("net use \\\\\\\\srv\\\\x {p} /user:me")'),
    "net_user_add": ("a.bat", "net user deploy {p} /add"),
}


@named(("path", "text"), NET_USE)
def test_passwords_given_to_net_use_and_net_user_are_redacted(path: str, text: str) -> None:
    assert_filled_redacted(text, is_config_like(path), p=PW)


NET_USE_KEPT = {
    "prompt": "net use \\\\server\\share /user:ACME\\deploy *",
    "no_password": "net use Z: \\\\server\\share /persistent:yes",
    "batch_variable": "net use \\\\srv\\x %PASSWORD% /user:me",
    "powershell_variable": "net use \\\\srv\\x $password /user:me",
    "delete": "net use Z: /delete /y",
    "prose": "net use cases include teaching",
    "dotnet_users": f".NET users can log in with {PW[:6]}",
    "net_user_option": "net user administrator /active:yes",
    "net_user_prompt": "net user deploy * /add",
    "drive_and_share": "net use Z: \\\\server\\share",
}


@named("text", NET_USE_KEPT)
def test_net_use_and_net_user_without_a_password_are_kept(text: str) -> None:
    assert_kept(text)


WINDOWS_OPTIONS = {
    # (path, text): a password given to a Windows command's option
    "cmdkey_pass": ("a.bat", "cmdkey /add:host /user:u /pass:{p}"),
    "cmdkey_generic": ("a.cmd", "cmdkey /generic:TERMSRV/srv01 /user:ACME\\me /pass:{p}"),
    "cmdkey_upper_case": ("a.bat", "CMDKEY /ADD:host /USER:u /PASS:{p}"),
    "cmdkey_in_python": ("a.py", 'subprocess.run("cmdkey /add:h /user:u /pass:{p}")'),
    "wmic_password": ("a.bat", "wmic /node:srv /user:admin /password:{p} os get caption"),
    "schtasks_run_as": ("a.bat", "schtasks /create /tn b /tr c:\\b.bat /sc daily /ru me /rp {p}"),
    "schtasks_upper_case": ("a.cmd", "SCHTASKS /Change /TN backup /RU ACME\\svc /RP {p}"),
    "schtasks_remote_user": ("a.bat", "schtasks /query /s srv01 /u ACME\\admin /p {p}"),
    "schtasks_quoted": ("a.bat", 'schtasks /create /tn x /tr y /ru me /rp "{p}" /sc once'),
    "schtasks_continued": ("a.bat", "schtasks /create /tn x /tr y ^\n  /ru me /rp {p}"),
    "schtasks_in_python": ("a.py", 'os.system("schtasks /change /tn x /ru me /rp {p}")'),
}


@named(("path", "text"), WINDOWS_OPTIONS)
def test_passwords_given_to_cmdkey_schtasks_and_other_windows_options_are_redacted(
    path: str, text: str
) -> None:
    assert_filled_redacted(text, is_config_like(path), p=PW)


WINDOWS_OPTIONS_KEPT = {
    "cmdkey_list": "cmdkey /list",
    "cmdkey_list_target": "cmdkey /list:TERMSRV/srv01",
    "cmdkey_delete": "cmdkey /delete:host",
    "cmdkey_prompt": "cmdkey /add:host /user:u /pass",
    "cmdkey_variable": "cmdkey /add:host /user:u /pass:%PASSWORD%",
    "cmdkey_powershell_variable": "cmdkey /add:host /user:u /pass:$password",
    "schtasks_query": "schtasks /query",
    "schtasks_query_verbose": "schtasks /query /fo LIST /v",
    "schtasks_prompt": "schtasks /create /tn x /tr y /ru me /rp *",
    "schtasks_no_password": "schtasks /create /tn x /tr y /ru SYSTEM /sc onstart",
    "schtasks_variable": "schtasks /change /tn x /ru me /rp %TASK_PASSWORD%",
    "set_prompt": "set /p answer=Continue?",
    "xcopy_prompt": "xcopy /p source2024 target",
    "other_command_p": f"robocopy src dst /p {PW}",
    "url_path": "curl https://api.acme.io/v1/users/password:reset",
    "url_path_typed": f"see https://acme.io/pass:{PW}",
    "option_word": "wmic /user:admin /password:secret os get caption",
}


@named("text", WINDOWS_OPTIONS_KEPT)
def test_windows_commands_without_a_password_given_are_kept(text: str) -> None:
    assert_kept(text)


SPACED_COMMANDS = {
    # (path, text): the words of a command apart by more than one space, or by a tab
    "net_use_two_spaces": ("a.bat", "net  use \\\\srv\\x /user:me {p}"),
    "net_use_tab": ("a.bat", "net\tuse \\\\srv\\x {p} /user:me"),
    "net_use_spaces_after": ("a.bat", "net use   \\\\srv\\x   {p}   /user:me"),
    "net_user_spaces": ("a.bat", "NET   USER deploy {p} /add"),
    "net_user_tab": ("a.bat", "net\tuser deploy {p} /add"),
    "rman_target_spaces": ("run.sh", "rman  target sys/{p}@prod"),
    "rman_target_tab": ("run.sh", "rman\ttarget sys/{p}@prod"),
    "sudo_after_a_pipe_spaces": ("run.sh", 'echo "{p}" |  sudo -S apt-get update'),
    "sudo_after_a_pipe_tab": ("run.sh", 'echo "{p}" |\tsudo -S apt-get update'),
    "htpasswd_spaces": ("run.sh", "htpasswd  -b .htpasswd admin {p}"),
    "htpasswd_tab": ("run.sh", "htpasswd\t-b .htpasswd admin {p}"),
}


@named(("path", "text"), SPACED_COMMANDS)
def test_commands_written_with_more_blanks_between_their_words_are_read(
    path: str, text: str
) -> None:
    assert_filled_redacted(text, is_config_like(path), p=PW)


SPACED_COMMANDS_KEPT = {
    "net_use_prompt": "net  use \\\\srv\\x /user:me *",
    "net_use_variable": "net\tuse \\\\srv\\x %PASSWORD% /user:me",
    "indented_user": "    user = User.objects.get(pk=user_id)",
    "indented_use": "        use_cache = settings.USE_CACHE_ALWAYS",
    "prose_user": "the net  user experience improved a lot",
    "rman_prose": "rman  target / nocatalog",
    "sudo_shell": f"echo {PW} |  sudo -s",
    "retarget": f"retarget  sys/{PW}@prod",
}


@named("text", SPACED_COMMANDS_KEPT)
def test_spaced_words_without_a_credential_are_kept(text: str) -> None:
    assert_kept(text)


HTPASSWD = {
    # (path, text): htpasswd's batch mode (-b) in any cluster of its options
    "batch": ("run.sh", "htpasswd -b .htpasswd admin {p}"),
    "bcrypt_batch": ("run.sh", "htpasswd -Bb .htpasswd admin {p}"),
    "create_batch": ("run.sh", "htpasswd -cb /etc/nginx/.htpasswd admin {p}"),
    "batch_create_bcrypt": ("run.sh", "htpasswd -bcB .htpasswd admin {p}"),
    "options_apart_with_a_cost": ("run.sh", "htpasswd -B -C 10 -b .htpasswd admin {p}"),
    "no_file": ("run.sh", "htpasswd -nb admin {p}"),
    "no_file_bcrypt": ("run.sh", "htpasswd -nbB admin {p}"),
    "quoted": ("run.sh", "htpasswd -Bbn admin '{p}'"),
    "in_a_dockerfile": ("Dockerfile", "RUN htpasswd -Bbn admin {p} > /etc/nginx/.htpasswd"),
    "by_its_path": ("run.sh", "/usr/bin/htpasswd -b -c .htpasswd admin {p}"),
    "in_python": ("a.py", 'subprocess.run("htpasswd -Bb .htpasswd admin {p}", shell=True)'),
}


@named(("path", "text"), HTPASSWD)
def test_passwords_given_to_htpasswd_in_batch_mode_are_redacted(path: str, text: str) -> None:
    assert_filled_redacted(text, is_config_like(path), p=PW)


HTPASSWD_KEPT = {
    "prompting": "htpasswd -B .htpasswd admin",
    "create_prompting": "htpasswd -c .htpasswd admin",
    "variable": 'htpasswd -Bbn admin "$PASSWORD"',
    "delete": "htpasswd -D .htpasswd admin",
    "verify": "htpasswd -v .htpasswd admin",
    "no_password_given": "htpasswd -b .htpasswd admin",
    "prose": "Run htpasswd to create the file, or htpasswd -b for scripts.",
    "another_command_b": f"git checkout -b feature origin/main {PW}",
}


@named("text", HTPASSWD_KEPT)
def test_htpasswd_without_a_password_given_is_kept(text: str) -> None:
    assert_kept(text)


PIPED = {
    # a password echoed into a command that reads it from its standard input
    "docker_login": "RUN echo {p} | docker login -u deploy --password-stdin registry.acme.io",
    "docker_login_quoted": "echo '{p}' | docker login ghcr.io -u me --password-stdin",
    "sudo": 'echo "{p}" | sudo -S apt-get update',
    "sudo_in_python": 'os.system("echo {p} | sudo -S reboot")',
}


@named("text", PIPED)
def test_a_password_echoed_into_a_command_reading_it_is_redacted(text: str) -> None:
    assert_filled_redacted(text, p=PW)


PIPED_KEPT = {
    "variable": 'echo "$REGISTRY_TOKEN" | docker login -u me --password-stdin',
    "file": "cat ~/.docker-password | docker login -u me --password-stdin",
    "sudo_shell": f"echo {PW} | sudo -s",
    "word": "echo hello | sudo -S whoami",
    "another_command_between": f"echo {PW} | tee log | sudo -S whoami",
}


@named("text", PIPED_KEPT)
def test_what_is_not_a_password_echoed_into_such_a_command_is_kept(text: str) -> None:
    assert_kept(text)


def test_each_database_rman_logs_on_to_has_its_password_redacted() -> None:
    text = f"rman target sys/{PW}@prod catalog rman/{PW}@rcat"
    assert redact(text) == (text.replace(PW, REDACTED), 2)


@pytest.mark.parametrize(
    "word",
    [
        *("connect(", "connect(\n", "login(", "creds ", "log in ", "expdp ", "rman target "),
        *("userid=", "redis(", "new PDO(", "FTP(", "--password-stdin ", "sudo -S ", "exp "),
        *("net use ", "net use \\\\s\\x /user:me ", "NET USER ", "net  use ", "net\tuser "),
        *(" /rp ", "schtasks /p "),
    ],
)
def test_a_word_repeated_without_a_credential_is_kept(word: str) -> None:
    # (what that costs, dropped inside the regex engine: bench/redact_bench.py's dense texts)
    assert_kept(word * (1_000_000 // len(word)))

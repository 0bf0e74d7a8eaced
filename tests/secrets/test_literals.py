"""Tests for repomem.secrets.literals: literals joined into one value, prefixes added to names,
and values whose words run over lines (template strings, triple quotes)."""

from __future__ import annotations

from repomem.secrets import REDACTED, is_config_like, redact
from tests.secrets.cases import ALNUM, assert_filled_redacted, assert_kept, fake, named

# ---------------------------------------------------------------------------------------
# String literals concatenated: with "+" in any quotes, or adjacent (Python, C)
# ---------------------------------------------------------------------------------------

CONCATENATED = {
    # (text, expected): the literals are one value, redacted from the first to the last
    "mixed_quotes": ("password = \"abc\" + 'def9Xk2q'", f"password = \"{REDACTED}'"),
    "adjacent": ('password = "abc" "def9Xk2q"', f'password = "{REDACTED}"'),
    "adjacent_mixed_quotes": ("password = \"abc\" 'def9Xk2q'", f"password = \"{REDACTED}'"),
    "adjacent_without_a_space": ('password = "abc""def9Xk2q"', f'password = "{REDACTED}"'),
    "adjacent_in_c": (
        'static const char *password = "abc" "def9Xk2q";',
        f'static const char *password = "{REDACTED}";',
    ),
    "adjacent_prefixed": ("password = b\"abc\" rb'def9Xk2q'", f"password = b\"{REDACTED}'"),
    "adjacent_three": ("API_KEY = 'aB3dE5' 'gH7jK9' 'mN1pQ3'", f"API_KEY = '{REDACTED}'"),
    "adjacent_then_added": (
        'password = "abc" "def" + "9Xk2q"',
        f'password = "{REDACTED}"',
    ),
    "adjacent_in_a_call": ('connect(password="abc" "def9Xk2q")', f'connect(password="{REDACTED}")'),
    "word_added_to_a_name": ('password = "hunter2" + suffix', f'password = "{REDACTED}" + suffix'),
    "a_capitalized_word_added": ('password = "Summer-" + year', f'password = "{REDACTED}" + year'),
    # a literal added to a number, a date, a counter or another name that is no identity
    # and no random value: the part of the password a person chose
    "a_word_added_to_a_year": ('password = "hunter-" + year', f'password = "{REDACTED}" + year'),
    "a_prefix_added_to_a_counter": (
        'password = "PREFIX_" + str(i)',
        f'password = "{REDACTED}" + str(i)',
    ),
    "a_word_added_to_a_suffix": (
        "const password = 'welcome-' + suffix;",
        f"const password = '{REDACTED}' + suffix;",
    ),
    "a_word_added_over_a_line": (
        'const password = "hunter-" +\n    year;',
        f'const password = "{REDACTED}" +\n    year;',
    ),
    "a_diff_line_after": (
        '+API_KEY = "abc" "def9Xk2q"\n+OTHER = 1\n',
        f'+API_KEY = "{REDACTED}"\n+OTHER = 1\n',
    ),
}


@named(("text", "expected"), CONCATENATED)
def test_string_literals_concatenated_in_any_quotes_or_adjacent_are_one_value(
    text: str, expected: str
) -> None:
    assert redact(text) == (expected, 1)


def test_literals_joined_over_lines_in_parentheses_are_redacted_literal_by_literal() -> None:
    key = fake(ALNUM, 48, 53)
    for text in (
        f'API_KEY = (\n    "{key[:24]}"\n    "{key[24:]}"\n)\n',  # Python's implicit join
        f'password = ("{key[:24]}" +\n            "{key[24:]}")\n',
        f'const apiKey = (\n  "{key[:24]}"\n  + "{key[24:]}"\n);\n',
        f'API_KEY = (\r\n    b"{key[:24]}"\r\n    rb"{key[24:]}"\r\n)\r\n',
    ):
        expected = text.replace(key[:24], REDACTED).replace(key[24:], REDACTED)
        assert redact(text) == (expected, 2), text


JOINED_OVER_LINES = {
    # (text, parts): outside parentheses a line may end after a backslash (Python) or a "+"
    # (JavaScript, TypeScript, Java, C#), or the next line may start with a "+"
    "backslash": ('API_KEY = "{a}" \\\n    "{b}"\n', 2),
    "backslash_after_a_plus": ('password = "{a}" + \\\n    "{b}"\n', 2),
    "backslash_without_a_blank": ('password = "{a}"\\\n"{b}"\n', 2),
    "plus_ending_the_line": ('const apiKey = "{a}" +\n    "{b}";\n', 2),
    "plus_starting_the_next_line": ('String password = "{a}"\n    + "{b}";\n', 2),
    "three_lines": ('var apiKey = "{a}" +\n  "{b}" +\n  "{c}";\n', 3),
    "windows_line_ends": ('String password = "{a}"\r\n    + "{b}";\r\n', 2),
    "single_quotes": ("const secret = '{a}' +\n  '{b}';\n", 2),
}


@named(("text", "parts"), JOINED_OVER_LINES)
def test_literals_joined_over_lines_outside_parentheses_are_redacted_literal_by_literal(
    text: str, parts: int
) -> None:
    key = fake(ALNUM, 48, 54)
    a, b, c = key[:16], key[16:32], key[32:]
    filled = text.format(a=a, b=b, c=c)
    assert redact(filled) == (text.format(a=REDACTED, b=REDACTED, c=REDACTED), parts)


LITERALS_OVER_LINES_KEPT = {
    "words": 'password_help = (\n    "Enter the "\n    "password"\n)',
    "a_tuple": 'API_KEYS = (\n    "abcdef123456",\n    "ghijkl789012",\n)',
    "a_prefix_added_to_a_name": 'password = (\n    "prefix_"\n    + user_id\n)',
    "a_prefix_added_on_the_next_line": 'const password = "prefix_" +\n    userId;',
    "a_prefix_added_by_the_next_line": 'String password = "prefix_"\n    + userId;',
    "a_prefix_continued_by_a_backslash": 'password = "prefix_" + \\\n    user_id',
    "words_over_lines": 'const passwordHelp = "Enter the " +\n  "new password";',
    "the_next_statement": 'password = "abc"\n"def"\n',
    "a_format": 'password = (\n    "%s"\n    "%s"\n) % (a, b)',
    "an_attribute_docstring": 'password = "abc"\n"""The password, for tests."""\n',
}


@named("text", LITERALS_OVER_LINES_KEPT)
def test_literals_over_lines_that_make_no_credential_are_kept(text: str) -> None:
    assert_kept(text)


CONCATENATED_KEPT = {
    # a prefix (a lower- or upper-case word ending in a separator) added to an identity (a
    # name, an id, a user, a path) or a random value: a label, the secret (if any) not in it
    "prefix_and_a_variable": 'password = "prefix_" + user_id',
    "prefix_with_a_dash": "password = 'tmp-pass-' + uuid4().hex",
    "prefix_with_a_colon": 'client_secret = "vault:" + path',
    "prefix_with_a_slash": 'secret = "secrets/" + name',
    "camel_case_identity": 'password = "prefix_" + userId',
    "an_attribute's_id": 'password = "prefix_" + self.user.id',
    "upper_case_prefix_and_a_random_value": 'PASSWORD = "PREFIX_" + secrets.token_hex(8)',
    "java_random_uuid": 'String DB_PASSWORD = "inventory_" + UUID.randomUUID().toString();',
    "csharp_guid": 'var password = "tmp-pass-" + Guid.NewGuid().ToString("N");',
    "node_random_bytes": "const secret = 'session:' + crypto.randomBytes(16).toString('hex');",
    "adjacent_prefix_and_a_variable": 'password = "pre" "fix_" + user_id',
    "adjacent_format_field": 'password = "abc" "%s"',
    "adjacent_f_string": 'password = "pw_" f"{user}"',
    "adjacent_words": 'password_help = "Enter a " "password."',
    "adjacent_compared": 'if password == "abc" "def9Xk2q":',
}


@named("text", CONCATENATED_KEPT)
def test_prefixes_added_to_identities_and_fields_concatenated_are_kept(text: str) -> None:
    assert_kept(text)


# ---------------------------------------------------------------------------------------
# Template strings (JavaScript, Go's raw strings) over lines
# ---------------------------------------------------------------------------------------

TEMPLATES = {
    # the value alone in the template, on a line of its own or beside a line break
    "const": "const pw = `\n  {v}\n`;",
    "object_member": "const o = {{\n  password: `\n    {v}\n  `,\n}};",
    "then_a_line_break": "const password = `{v}\n`;",
    "after_a_line_break": "const apiKey = `\n{v}`;",
    "typescript_annotated": "const secret: string = `\n  {v}\n`;",
    "go_raw_string": "password := `\n\t{v}\n`",
}


@named("template", TEMPLATES)
def test_a_template_string_over_lines_holding_a_credential_is_redacted(template: str) -> None:
    assert_filled_redacted(template, v=fake(ALNUM, 24, 51))


def test_a_credential_wrapped_over_the_lines_of_a_template_is_redacted_line_by_line() -> None:
    key = fake(ALNUM, 48, 52)
    text = f"const apiKey = `\n  {key[:24]}\n  {key[24:]}\n`;\nnext();\n"
    assert redact(text) == (f"const apiKey = `\n  {REDACTED}\n  {REDACTED}\n`;\nnext();\n", 2)


TEMPLATES_KEPT = {
    "interpolation_only": "const password = `\n  ${user}\n`;",
    "interpolated": "const password = `\n  ${prefix}-${user}\n`;",
    "query": "const passwordQuery = `\n  SELECT password FROM users\n  WHERE id = $1\n`;",
    "html": 'const passwordForm = `\n<form>\n  <input type="password">\n</form>\n`;',
    "words_one_a_line": "const password = `\nalpha\nbeta\n`;",
    "empty": "const password = `\n`;",
    "a_short_word": "const pw = `\n  abc\n`;",
    "a_word_for_a_token": "const token = `\n  keyword\n`;",
}


@named("text", TEMPLATES_KEPT)
def test_template_strings_over_lines_without_a_credential_are_kept(text: str) -> None:
    assert_kept(text)


# ---------------------------------------------------------------------------------------
# Triple-quoted strings over lines (Python, Kotlin, Swift, Scala; Java's and C#'s text blocks)
# ---------------------------------------------------------------------------------------

TRIPLE_QUOTED = {
    # (path, text): the value alone in the string, on a line of its own or beside a break
    "python": ("a.py", 'password = """\n{v}\n"""'),
    "python_indented": ("a.py", 'API_KEY = """\n    {v}\n    """'),
    "python_single_quotes": ("a.py", "password = '''\n{v}\n'''"),
    "python_raw": ("a.py", 'password = r"""\n{v}\n"""'),
    "python_bytes": ("a.py", "secret = b'''\n{v}\n'''"),
    "then_a_line_break": ("a.py", 'password = """{v}\n"""'),
    "windows_line_ends": ("a.py", 'password = """\r\n{v}\r\n"""\r\n'),
    "kotlin": ("A.kt", 'val password = """\n    {v}\n""".trimIndent()'),
    "swift_raw": ("A.swift", 'let apiKey = #"""\n    {v}\n    """#'),
    "scala_raw": ("A.scala", 'val secret = raw"""\n  {v}\n"""'),
    "java_text_block": ("A.java", 'String password = """\n    {v}\n    """;'),
    "toml": ("config.toml", 'password = """\n{v}\n"""'),
}


@named(("path", "text"), TRIPLE_QUOTED)
def test_a_triple_quoted_string_over_lines_holding_a_credential_is_redacted(
    path: str, text: str
) -> None:
    assert_filled_redacted(text, is_config_like(path), v=fake(ALNUM, 24, 55))


def test_a_credential_wrapped_over_triple_quoted_lines_is_redacted_line_by_line() -> None:
    key = fake(ALNUM, 48, 56)
    text = f'API_KEY = """\n    {key[:24]}\n    {key[24:]}\n"""\nnext()\n'
    assert redact(text) == (f'API_KEY = """\n    {REDACTED}\n    {REDACTED}\n"""\nnext()\n', 2)


TRIPLE_QUOTED_KEPT = {
    "help": 'password_help = """\nEnter the password\nof the admin account.\n"""',
    "query": 'SECRET_QUERY = """\nSELECT secret FROM vault\nWHERE id = %s\n"""',
    "format_fields": 'password = """\n{prefix}-{user}\n"""',
    "f_string": 'password = f"""\n{pw}\n"""',
    "a_word_for_a_token": 'token = """\n  keyword\n"""',
    "a_short_word": 'password = """\nabc\n"""',
    "empty": 'password = """\n"""',
    "words_one_a_line": 'password = """\nalpha\nbeta\n"""',
    "quotes_inside": 'password_note = """\nIt\'s "kept"\nelsewhere\n"""',
}


@named("text", TRIPLE_QUOTED_KEPT)
def test_triple_quoted_strings_over_lines_without_a_credential_are_kept(text: str) -> None:
    assert_kept(text)


def test_a_shell_command_substituted_over_lines_in_a_script_is_kept() -> None:
    assert_kept("PASSWORD=`\n  cat /run/secrets/db\n`\n", config_like=True)
    assert_kept("PASSWORD=`\n  pwgen-x9\n`\n", config_like=True)

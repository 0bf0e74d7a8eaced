"""Tests for repomem.secrets.notebooks: secrets inside a Jupyter notebook's JSON strings."""

from __future__ import annotations

import json

from repomem.secrets import REDACTED, redact
from repomem.secrets.notebooks import is_notebook
from tests.secrets.cases import ALNUM, assert_filled_redacted, assert_kept, fake, line_shape, named

PW = "Qz" + fake(ALNUM, 10, 70)
TOKEN = fake(ALNUM, 24, 71)


def notebook(source: list[str], outputs: list[str] | None = None) -> str:
    """A notebook as Jupyter writes it (one JSON string a line), one code cell."""
    cell = {
        "cell_type": "code",
        "execution_count": 1,
        "metadata": {},
        "outputs": [{"name": "stdout", "output_type": "stream", "text": outputs or []}],
        "source": source,
    }
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4}, indent=1) + "\n"


IN_SOURCE = {
    "triple_quoted": ['password = """{p}"""\n'],
    "login_call": ['client = login("admin", "{p}")\n'],
    "auth_tuple": ['r = requests.get(u, auth=("admin", "{p}"))\n'],
    "bearer_in_a_dict": ['headers = {{"Authorization": "Bearer {t}"}}\n'],
    "shell_escape": ["!PGPASSWORD={p} psql -h db\n"],
    "url_in_a_call": ['engine = create_engine("postgresql://u:{p}@db/app")\n'],
    "environ_set": ['os.environ["OPENAI_API_KEY"] = "{t}"\n'],
    "last_line_without_newline": ["x = 1\n", 'password = "{p}"'],
}


@named("source", IN_SOURCE)
def test_secrets_in_a_cells_source_are_redacted(source: list[str]) -> None:
    text = notebook([line.format(p=PW, t=TOKEN) for line in source])
    out, count = redact(text)
    assert PW not in out and TOKEN not in out and count >= 1
    assert line_shape(out) == line_shape(text)
    assert json.loads(out)["cells"][0]["source"] == [
        line.format(p=REDACTED, t=REDACTED) for line in source
    ]
    assert redact(out) == (out, 0)


IN_OUTPUTS = {
    "token_printed": "token: {t}\n",
    "password_printed": "password: {p}\n",
    "api_key_stated": "Your API key is {t}\n",
    "export_printed": "export DB_PASSWORD={p}\n",
}


@named("line", IN_OUTPUTS)
def test_secrets_in_a_cells_outputs_are_redacted(line: str) -> None:
    text = notebook(["print(creds)\n"], [line.format(p=PW, t=TOKEN)])
    out, count = redact(text)
    assert count == 1
    assert json.loads(out)["cells"][0]["outputs"][0]["text"] == [
        line.format(p=REDACTED, t=REDACTED)
    ]


def test_only_the_changed_strings_are_written_again() -> None:
    # json.dumps writes the umlaut escaped (\u00fc), as Jupyter may; a string written again
    # would hold it raw (ensure_ascii=False), so this one must be left as it was
    text = notebook(['city = "Z\u00fcrich"\n', 'password = """' + PW + '"""\n'])
    assert "Z\\u00fcrich" in text
    out, _ = redact(text)
    assert "Z\\u00fcrich" in out and PW not in out


KEPT = {
    "getpass": ["password = getpass.getpass()\n", 'token = os.environ["TOKEN"]\n'],
    "no_secret": ["model.fit(X, y)\n", 'print("accuracy: %.2f" % acc)\n'],
    "tokenizer": ['tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")\n'],
    "login_variable": ['login("admin", password)\n'],
}


@named("source", KEPT)
def test_notebooks_without_secrets_are_kept(source: list[str]) -> None:
    text = notebook(source, ["Epoch 1/10 - loss: 0.6931 - password_strength: 0.12\n"])
    assert redact(text) == (text, 0)


def test_a_string_holding_the_joining_separator_is_left_to_the_first_pass() -> None:
    # the string decodes to the separator itself ("\n\x00\n"): it is left out of the joined
    # text, so the other strings are still read (the password only the decoded text shows)
    source = ["data = 1\n\x00\n", 'password = """' + PW + '"""\n']
    out, _ = redact(notebook(source))
    assert json.loads(out)["cells"][0]["source"] == [source[0], f'password = """{REDACTED}"""\n']


def test_a_bare_string_output_is_not_a_secret() -> None:
    text = notebook(["tok\n"], [f"'{TOKEN}'"])
    assert redact(text) == (text, 0)


def test_only_notebooks_are_read_so() -> None:
    assert is_notebook(notebook(["x = 1\n"]))
    assert is_notebook('{"source": ["x = 1\\n"]}\n')
    assert is_notebook('[\n {\n  "source": [\n   "x = 1"\n  ]\n }\n]\n')
    assert not is_notebook('{"name": "app", "version": "1.0.0"}\n')
    assert not is_notebook('x = {"cell_type": "code"}\n')
    assert not is_notebook('{"source": "src/index.js", "main": "dist/index.js"}\n')
    assert not is_notebook('x = {"source": ["a.py"]}\n')


FRAGMENTS = {
    # cells copied out of a notebook, without their cell_type
    "one_cell": '{{"source": ["!PGPASSWORD={p} psql -h db\\n"]}}\n',
    "triple_quoted": '{{"source": ["password = \\"\\"\\"{p}\\"\\"\\"\\n"]}}\n',
    "cells_list": (
        '[\n {{\n  "source": [\n   "x = 1\\n",\n   "login(\\"admin\\", \\"{p}\\")"\n  ]\n }}\n]\n'
    ),
}


@named("fragment", FRAGMENTS)
def test_secrets_in_cells_without_their_notebook_are_redacted(fragment: str) -> None:
    assert_filled_redacted(fragment, p=PW)


def test_a_json_source_list_without_secrets_is_kept() -> None:
    assert_kept('{\n "source": [\n  "src/index.ts",\n  "src/lib/token_store.ts"\n ]\n}\n')

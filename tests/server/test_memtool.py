"""The `memory` tool (Anthropic's memory command set) over the project memory, via the client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import Client

from repomem.memory import access, ops
from tests.conftest import Repo
from tests.server.conftest import talk, text


def memory(repo: Repo, *calls: dict[str, Any]) -> list[Any]:
    async def body(c: Client) -> list[Any]:
        return [await c.call_tool("memory", args) for args in calls]

    return talk(repo, body)  # type: ignore[no-any-return]


def facts(repo: Repo) -> dict[str, Any]:
    return {f.id: f for f in access.load(repo.config()).facts()}


def test_creating_a_topic_file_remembers_one_fact_per_paragraph(code: Repo) -> None:
    created, listing, view = memory(
        code,
        {"command": "create", "path": "/memories/testing.md",
         "file_text": "# Testing\n\n- Tests use real git repos.\n\nNo mocks of our own code,\n"
                      "ever.\n"},
        {"command": "view", "path": "/memories"},
        {"command": "view", "path": "/memories/testing.md"},
    )  # fmt: skip
    assert not created.is_error and "File created successfully at: /memories/testing.md" in text(
        created
    )
    got = sorted((f.text, f.topic, f.source) for f in facts(code).values())
    assert got == [
        ("No mocks of our own code, ever.", "testing", "assistant"),
        ("Tests use real git repos.", "testing", "assistant"),
    ]
    assert "/memories/REPOMEM.md" in text(listing) and "/memories/testing.md" in text(listing)
    shown = text(view)
    assert shown.startswith("Here's the content of /memories/testing.md with line numbers:")
    assert "\t" + next(iter(facts(code))) + ": " in shown


def test_lines_without_blank_lines_are_one_fact_each_and_insert_adds_more(code: Repo) -> None:
    memory(
        code,
        {"command": "create", "path": "/memories/style.md",
         "file_text": "Use ruff for linting.\nType hints everywhere in the core.\n"},
        {"command": "insert", "path": "/memories/style.md", "insert_line": 0,
         "insert_text": "Line length is one hundred characters."},
    )  # fmt: skip
    assert {f.text for f in facts(code).values()} == {
        "Use ruff for linting.",
        "Type hints everywhere in the core.",
        "Line length is one hundred characters.",
    }


def test_str_replace_in_a_topic_file_supersedes_the_fact(code: Repo) -> None:
    out = ops.remember(code.config(), "The cache lives in /tmp.", topic="cache")
    (edit,) = memory(
        code,
        {"command": "str_replace", "path": "/memories/cache.md", "old_str": "in /tmp",
         "new_str": "under XDG_CACHE_HOME"},
    )  # fmt: skip
    assert not edit.is_error, text(edit)
    got = facts(code)
    old = got[out.fact.id]
    assert old.status == "superseded" and old.why == "edited through the memory tool"
    assert got[old.superseded_by].text == "The cache lives under XDG_CACHE_HOME."
    assert got[old.superseded_by].topic == "cache"


def test_str_replace_must_match_once_and_inside_one_fact(code: Repo) -> None:
    ops.remember(code.config(), "Alpha handles parsing of headers.", topic="t")
    ops.remember(code.config(), "Beta handles parsing of bodies.", topic="t")
    missing, twice, across, header = memory(
        code,
        {"command": "str_replace", "path": "/memories/t.md", "old_str": "gamma", "new_str": "x"},
        {"command": "str_replace", "path": "/memories/t.md", "old_str": "handles parsing",
         "new_str": "x"},
        {"command": "str_replace", "path": "/memories/t.md", "old_str": "headers.\n",
         "new_str": ""},
        {"command": "str_replace", "path": "/memories/t.md", "old_str": "repomem facts",
         "new_str": "x"},
    )  # fmt: skip
    assert "did not appear verbatim" in text(missing)
    assert "appears 2 times in /memories/t.md (lines 3, 5)" in text(twice)
    assert "within the text of one fact" in text(across)
    assert "within the text of one fact" in text(header)
    assert all(f.status == "valid" for f in facts(code).values())


def test_replacing_a_whole_fact_with_nothing_forgets_it(code: Repo) -> None:
    out = ops.remember(code.config(), "Temporary note to drop.", topic="tmp")
    (edit,) = memory(
        code,
        {"command": "str_replace", "path": "/memories/tmp.md",
         "old_str": "Temporary note to drop.", "new_str": ""},
    )  # fmt: skip
    assert not edit.is_error
    assert facts(code)[out.fact.id].status == "forgotten"


def test_delete_forgets_a_topic_and_rename_moves_it(code: Repo) -> None:
    cfg = code.config()
    a = ops.remember(cfg, "Deploys happen on Fridays.", topic="deploy").fact.id
    b = ops.remember(cfg, "Logs rotate daily.", topic="ops").fact.id
    renamed, gone, deleted, deleted_again = memory(
        code,
        {"command": "rename", "old_path": "/memories/ops.md",
         "new_path": "/memories/operations.md"},
        {"command": "view", "path": "/memories/ops.md"},
        {"command": "delete", "path": "/memories/deploy.md"},
        {"command": "delete", "path": "/memories/deploy.md"},
    )  # fmt: skip
    assert "Successfully renamed /memories/ops.md to /memories/operations.md" in text(renamed)
    assert gone.is_error and "does not exist" in text(gone)
    assert "Successfully deleted /memories/deploy.md" in text(deleted)
    assert deleted_again.is_error
    got = facts(code)
    assert got[a].status == "forgotten"
    assert got[b].topic == "operations" and got[b].status == "valid"


def test_topics_in_other_scripts_keep_their_own_files_and_delete_forgets_only_one(
    code: Repo,
) -> None:
    cfg = code.config()
    ja = ops.remember(cfg, "The cache is shared between workers.", topic="キャッシュ").fact.id
    ru = ops.remember(cfg, "Logs rotate every night.", topic="журнал").fact.id
    fr = ops.remember(cfg, "Prices are stored in cents.", topic="données").fact.id
    listing, view, decomposed, created, deleted = memory(
        code,
        {"command": "view", "path": "/memories"},
        {"command": "view", "path": "/memories/журнал.md"},
        {"command": "view", "path": "/memories/donne\u0301es.md"},  # é as e + accent
        {"command": "create", "path": "/memories/données.md",
         "file_text": "Totals are rounded once, at the end."},
        {"command": "delete", "path": "/memories/キャッシュ.md"},
    )  # fmt: skip
    listed = text(listing)
    for name in ("キャッシュ", "журнал", "données"):
        assert f"/memories/{name}.md" in listed
    assert not view.is_error and "Logs rotate every night." in text(view)
    assert "cache" not in text(view)
    assert "Prices are stored in cents." in text(decomposed)
    assert not created.is_error, text(created)
    assert not deleted.is_error, text(deleted)
    got = facts(code)
    assert got[ja].status == "forgotten"
    assert got[ru].status == "valid" and got[fr].status == "valid"
    added = [f for f in got.values() if f.text == "Totals are rounded once, at the end."]
    assert [f.topic for f in added] == ["données"]


def test_the_memory_file_can_be_viewed_with_line_numbers_and_a_range(code: Repo) -> None:
    ops.remember(code.config(), "Viewing works.")
    whole, part = memory(
        code,
        {"command": "view", "path": "/memories/REPOMEM.md"},
        {"command": "view", "path": "/memories/REPOMEM.md", "view_range": [2, 3]},
    )
    lines = text(whole).splitlines()
    assert lines[0] == "Here's the content of /memories/REPOMEM.md with line numbers:"
    assert lines[1].startswith("     1\t<!-- repomem:memory")
    assert "Viewing works." in text(whole)
    assert [ln.split("\t")[0].strip() for ln in text(part).splitlines()[1:]] == ["2", "3"]


def test_editing_the_memory_file_keeps_it_valid_and_locked_in(code: Repo) -> None:
    cfg = code.config()
    fid = ops.remember(cfg, "Kept through edits.").fact.id
    before = access.load(cfg).version
    replaced, inserted = memory(
        code,
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "## Overview\n",
         "new_str": "## Overview\n\nA calculator library.\n"},
        {"command": "insert", "path": "/memories/REPOMEM.md", "insert_line": 1,
         "insert_text": "<!-- edited by an agent -->"},
    )  # fmt: skip
    assert not replaced.is_error, text(replaced)
    assert "The memory file has been edited." in text(replaced)
    assert not inserted.is_error, text(inserted)
    doc = access.load(cfg)
    assert doc.overview() == "A calculator library."
    assert doc.fact(fid) is not None and doc.version == before + 2
    assert "<!-- edited by an agent -->" in access.memory_path(cfg).read_text(encoding="utf-8")


def test_edits_of_the_memory_file_that_lose_entries_break_it_or_hold_secrets_are_refused(
    code: Repo,
) -> None:
    cfg = code.config()
    fid = ops.remember(cfg, "Must survive.").fact.id
    path = access.memory_path(cfg)
    original = path.read_text(encoding="utf-8")
    token = "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
    results = memory(
        code,
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "## Facts",
         "new_str": "## Loose notes"},
        {"command": "create", "path": "/memories/REPOMEM.md", "file_text": "# Empty\n"},
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "## Overview\n",
         "new_str": f"## Overview\n\ntoken {token}\n"},
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "## Facts",
         "new_str": "<<<<<<< ours\n## Facts"},
        {"command": "delete", "path": "/memories/REPOMEM.md"},
        {"command": "rename", "old_path": "/memories/REPOMEM.md",
         "new_path": "/memories/other.md"},
        {"command": "insert", "path": "/memories/REPOMEM.md", "insert_line": 9999,
         "insert_text": "x"},
    )  # fmt: skip
    words = [f"`{fid}` is under `## Loose notes`", "would drop", "credential", "conflict markers",
             "cannot be deleted", "Only topic files", "insert_line"]  # fmt: skip
    for r, w in zip(results, words, strict=True):
        assert r.is_error and w in text(r), (w, text(r))
    assert path.read_text(encoding="utf-8") == original


def test_arguments_each_command_needs_are_checked(code: Repo) -> None:
    results = memory(
        code,
        {"command": "create", "path": "/memories/x.md"},
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "x"},
        {"command": "insert", "path": "/memories/REPOMEM.md", "insert_text": "x"},
        {"command": "view"},
        {"command": "create", "path": "/memories", "file_text": "x"},
        {"command": "view", "path": "/memories/nothing.md"},
        {"command": "create", "path": "/memories/bad:name.md", "file_text": "x"},
    )
    words = ["file_text", "new_str", "insert_line", "needs `path`", "needs a file",
             "does not exist", "usable topic file name"]  # fmt: skip
    for r, w in zip(results, words, strict=True):
        assert r.is_error and w in text(r), (w, text(r))


def test_an_edit_that_drops_a_session_from_the_history_is_refused_as_a_lost_entry(
    code: Repo,
) -> None:
    cfg = code.config()
    hand_edited = Path(__file__).parent.parent / "memory" / "cases" / "hand_edited.md"
    path = access.memory_path(cfg)
    path.write_text(hand_edited.read_text(encoding="utf-8"), encoding="utf-8")
    original = path.read_text(encoding="utf-8")
    (edit,) = memory(
        code,
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "s-a, s-b, s-c",
         "new_str": "s-a, s-c"},
    )  # fmt: skip
    assert edit.is_error and "would drop s-b" in text(edit), text(edit)
    assert path.read_text(encoding="utf-8") == original


def test_a_topic_file_is_written_in_one_go_or_not_at_all(code: Repo) -> None:
    cfg = code.config()
    ops.remember(cfg, "Something already known.")
    before = access.load(cfg).version
    token = "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
    created, refused = memory(
        code,
        {"command": "create", "path": "/memories/ci.md",
         "file_text": "CI runs on every push.\nCI caches the pip wheels.\n"},
        {"command": "create", "path": "/memories/keys.md",
         "file_text": f"Keys live in the vault.\nThe deploy key is {token}.\n"},
    )  # fmt: skip
    assert not created.is_error, text(created)
    assert refused.is_error and "credential" in text(refused)
    doc = access.load(cfg)
    assert doc.version == before + 1
    assert sorted(f.topic for f in doc.facts() if f.topic) == ["ci", "ci"]


def test_str_replace_in_the_memory_file_names_the_lines_of_an_ambiguous_old_str(
    code: Repo,
) -> None:
    ops.remember(code.config(), "Twice mentioned: alpha.")
    ops.remember(code.config(), "Once more, alpha.")
    lines = access.memory_path(code.config()).read_text(encoding="utf-8").split("\n")
    where = [str(n + 1) for n, ln in enumerate(lines) if "alpha" in ln]
    (r,) = memory(
        code,
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "alpha",
         "new_str": "beta"},
    )  # fmt: skip
    assert r.is_error
    assert f"appears 2 times in /memories/REPOMEM.md (lines {', '.join(where)})" in text(r)


def test_a_credential_cannot_be_assembled_from_pieces_by_edits(code: Repo) -> None:
    cfg = code.config()
    rest = "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
    ops.remember(cfg, f"The CI key is {rest} in the vault.")  # no prefix: not a token yet
    path = access.memory_path(cfg)
    original = path.read_text(encoding="utf-8")
    results = memory(
        code,
        {"command": "str_replace", "path": "/memories/REPOMEM.md",
         "old_str": "The CI key is ", "new_str": "The CI key is ghp_"},
    )  # fmt: skip
    assert results[0].is_error and "credential" in text(results[0])
    assert path.read_text(encoding="utf-8") == original


def test_a_hand_written_password_is_redacted_from_the_file_view_and_resource(code: Repo) -> None:
    cfg = code.config()
    ops.remember(cfg, "Deploy uses the staging database.")
    path = access.memory_path(cfg)
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "staging database.", "staging database; export DB_PASSWORD=Sup3rS3cretPw first."
        ),
        encoding="utf-8",
    )

    async def body(c: Client) -> list[Any]:
        view = await c.call_tool("memory", {"command": "view", "path": "/memories/REPOMEM.md"})
        resource = await c.read_resource("repomem://memory")
        return [text(view), " ".join(getattr(x, "text", "") for x in resource.contents)]

    for shown in talk(code, body):
        assert "DB_PASSWORD=" in shown and "Sup3rS3cretPw" not in shown, shown


def test_a_topic_named_like_the_memory_file_is_listed_at_a_path_that_opens_it(code: Repo) -> None:
    ops.remember(code.config(), "The release checklist lives in the wiki.", topic="REPOMEM")
    listing, topic = memory(
        code,
        {"command": "view", "path": "/memories"},
        {"command": "view", "path": "/memories/REPOMEM"},
    )
    paths = [f["path"] for f in listing.structured_content["files"]]
    assert paths.count("/memories/REPOMEM.md") == 1 and "/memories/REPOMEM" in paths
    assert "release checklist" in text(topic)


def test_marking_a_fact_forgotten_in_the_memory_file_forgets_it_for_real(code: Repo) -> None:
    """A status word written by hand would leave the text `forget` erases in the file."""
    cfg = code.config()
    fid = ops.remember(cfg, "The staging password rotates weekly.").fact.id
    (edit,) = memory(
        code,
        {"command": "str_replace", "path": "/memories/REPOMEM.md",
         "old_str": f"### {fid} · valid", "new_str": f"### {fid} · forgotten"},
    )  # fmt: skip
    assert not edit.is_error, text(edit)
    assert f"forgot {fid}" in text(edit)
    fact = facts(code)[fid]
    assert (fact.status, fact.text, fact.source) == ("forgotten", "", "person")
    assert fact.forgotten  # when, as `forget` records it
    assert "rotates weekly" not in access.memory_path(cfg).read_text(encoding="utf-8")


def test_status_changes_written_into_the_memory_file_are_refused_with_the_tool_to_use(
    code: Repo,
) -> None:
    cfg = code.config()
    fid = ops.remember(cfg, "Kept as it is.").fact.id
    stale_id = ops.remember(cfg, "Cites code that changed.").fact.id
    gone_id = ops.remember(cfg, "Dropped before.").fact.id
    ops.forget(cfg, gone_id)
    path = access.memory_path(cfg)
    text_ = path.read_text(encoding="utf-8")
    path.write_text(
        text_.replace(f"### {stale_id} · valid", f"### {stale_id} · stale").replace(
            "Cites code that changed.\n", "Cites code that changed.\n- stale: a.py changed\n"
        ),
        encoding="utf-8",
    )
    original = path.read_text(encoding="utf-8")
    file_ = "/memories/REPOMEM.md"
    facts_at = original.split("\n").index("## Facts") + 2  # after the heading and a blank line
    results = memory(
        code,
        {"command": "str_replace", "path": file_,
         "old_str": f"### {fid} · valid", "new_str": f"### {fid} · stale"},
        {"command": "str_replace", "path": file_, "old_str": f"### {fid} · valid\nKept as it is.\n",
         "new_str": f"### {fid} · superseded\nKept as it is.\n- superseded: {stale_id}\n"},
        {"command": "str_replace", "path": file_,
         "old_str": f"### {stale_id} · stale", "new_str": f"### {stale_id} · valid"},
        {"command": "str_replace", "path": file_, "old_str": "Kept as it is.\n",
         "new_str": "Kept as it is.\n- confirmed: 2026-11-25T00:00:00Z\n"},
        {"command": "str_replace", "path": file_,
         "old_str": f"### {gone_id} · forgotten", "new_str": f"### {gone_id} · valid\nBack."},
        {"command": "insert", "path": file_, "insert_line": facts_at,
         "insert_text": "### f-0000beef · stale\nNew, born stale.\n- stale: no reason\n"},
    )  # fmt: skip
    words = ["memory_check", "supersede tool", "confirm_fact tool", "confirm_fact tool",
             "remember", "new fact"]  # fmt: skip
    for r, w in zip(results, words, strict=True):
        assert r.is_error and w in text(r), (w, text(r))
    assert path.read_text(encoding="utf-8") == original


def test_an_edit_that_writes_a_control_character_into_the_memory_file_is_refused(
    code: Repo,
) -> None:
    # a NUL makes git take the committed file for binary (no diffs, no text merges)
    cfg = code.config()
    ops.remember(cfg, "Must survive.")
    path = access.memory_path(cfg)
    original = path.read_text(encoding="utf-8")
    results = memory(
        code,
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "## Overview\n",
         "new_str": "## Overview\n\nNul \x00 here.\n"},
        {"command": "insert", "path": "/memories/REPOMEM.md", "insert_line": 2,
         "insert_text": "Bell \x07 and \x1b[2J clear."},
        {"command": "create", "path": "/memories/REPOMEM.md", "file_text": original + "\x00"},
    )  # fmt: skip
    for r in results:
        assert r.is_error and "control character" in text(r), text(r)
    assert path.read_text(encoding="utf-8") == original
    # a tab is text, and a control character already in the file does not block other edits
    path.write_text(original.replace("## Overview\n", "## Overview\n\nOld \x00 byte.\n"), "utf-8")
    (ok,) = memory(
        code,
        {"command": "str_replace", "path": "/memories/REPOMEM.md", "old_str": "## Overview\n",
         "new_str": "## Overview\n\nA\ttab.\n"},
    )  # fmt: skip
    assert not ok.is_error, text(ok)

"""Facts: remember, near-duplicates, secrets, supersede, forget, check and confirm."""

from __future__ import annotations

import os

import pytest

from repomem.errors import InputError, NotFoundError
from repomem.memory import access, ops
from repomem.memory.cite import digest
from tests.conftest import Repo

CODE = '''\
def key_for(path, data):
    """The cache key."""
    return hash(data)


class Cache:
    def get(self, key):
        return self.store[key]
'''


@pytest.fixture
def code(repo: Repo) -> Repo:
    repo.write("src/cache.py", CODE)
    repo.write("README.md", "# demo\n")
    repo.commit("init")
    return repo


def memory_text(repo: Repo) -> str:
    return (repo.root / "REPOMEM.md").read_text(encoding="utf-8")


def test_remember_resolves_citations_to_lines_and_hashes(code: Repo) -> None:
    cfg = code.config()
    out = ops.remember(cfg, "Keys hash the data, not the path.", cites=["src/cache.py:key_for"],
                       topic="cache")  # fmt: skip
    assert out.action == "added" and out.version == 1
    (c,) = out.fact.cites
    assert (c.path, c.symbol, c.start_line, c.end_line) == ("src/cache.py", "key_for", 1, 3)
    assert len(c.hash) == 12
    doc = access.load(cfg)
    assert doc.fact(out.fact.id) is not None and doc.version == 1
    assert "- cite: `src/cache.py:key_for` L1-3 #" in memory_text(code)


def test_method_citations_accept_the_short_or_qualified_name(code: Repo) -> None:
    cfg = code.config()
    a = ops.remember(cfg, "get reads the store.", cites=["src/cache.py:get"])
    assert a.fact.cites[0].symbol == "Cache.get"
    b = ops.remember(
        cfg, "Cache is a dict wrapper.", cites=["src/cache.py:Cache", "src/cache.py:6-8"]
    )
    assert [c.target for c in b.fact.cites] == ["src/cache.py:Cache", "src/cache.py"]


def test_a_near_duplicate_is_merged_not_appended(code: Repo) -> None:
    cfg = code.config()
    first = ops.remember(cfg, "The cache key is the hash of the data.")
    second = ops.remember(cfg, "the cache key is the hash of the data", cites=["src/cache.py"])
    assert second.action == "merged" and second.fact.id == first.fact.id
    facts = access.load(cfg).facts()
    assert len(facts) == 1 and facts[0].cites[0].path == "src/cache.py"
    other_kind = ops.remember(cfg, "The cache key is the hash of the data.", kind="decision")
    assert other_kind.action == "added"
    assert ops.remember(cfg, "Cache misses are logged at debug level.").action == "added"
    assert len(access.load(cfg).facts()) == 3


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "The cache must be enabled in production.",
            "The cache must never be enabled in production.",
        ),
        ("Do not use the cache in production.", "Do use the cache in production."),
        ("The cache can be shared between workers.", "The cache can't be shared between workers."),
        (
            "The sync client's HTTP requests to the billing service time out after 30 seconds.",
            "The sync client's HTTP requests to the billing service time out after 60 seconds.",
        ),
    ],
)
def test_a_similar_fact_that_says_otherwise_is_kept_not_merged_away(
    code: Repo, first: str, second: str
) -> None:
    cfg = code.config()
    a = ops.remember(cfg, first)
    b = ops.remember(cfg, second)
    assert b.action == "added" and b.fact.id != a.fact.id
    assert a.fact.id in b.notes[0] and "supersede" in b.notes[0]
    assert {f.text for f in access.load(cfg).facts()} == {first, second}
    # repeating either is still a duplicate of itself
    assert ops.remember(cfg, second.lower()).action == "merged"


@pytest.mark.parametrize(
    "text",
    [
        "The deploy key is AKIAIOSFODNN7EXAMPLE in CI.",
        "Use token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 for the bot.",
        "Ask jane.doe@corp.example.com before releasing.",
        "The staging password: Hq71mZpe4T (rotated monthly).",
        "The staging password: Hq71mZpe4T (rotated).",
        "senha do banco: Hq71mZpe4T para o deploy",
        "Set the staging password to hunter2hunter before the demo.",
        "The staging password: hunter2hunter (rotated).",
    ],
)
def test_a_fact_with_a_secret_or_personal_data_is_refused_and_nothing_is_written(
    code: Repo, text: str
) -> None:
    cfg = code.config()
    ops.remember(cfg, "A harmless fact.")
    before = memory_text(code)
    with pytest.raises(InputError, match="remove it"):
        ops.remember(cfg, text)
    assert memory_text(code) == before


def test_redact_mode_stores_the_fact_without_the_secret(code: Repo) -> None:
    cfg = code.config(**{"memory.on_secret": "redact"})
    out = ops.remember(cfg, "The deploy key is AKIAIOSFODNN7EXAMPLE; mail ops@corp.example.com.")
    text = memory_text(code)
    assert "AKIAIOSFODNN7EXAMPLE" not in text and "ops@corp.example.com" not in text
    assert "[EMAIL]" in out.fact.text


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("../outside.py", "climbs out with `..`"),
        (".env", "credential file"),
        ("src/missing.py", "no such file"),
        ("src/cache.py:nothing", "no symbol of that name. Symbols there: Cache, Cache.get"),
        ("src/cache.py:40-50", "has 8 lines"),
        ("src/cache.py:0-2", "lines count from 1"),
        ("src/cache.py:5-2", "START <= END"),
        ("src", "is a folder"),
    ],
)
def test_bad_citations_are_refused_with_a_clear_message(code: Repo, spec: str, words: str) -> None:
    code.write(".env", "X=1\n")
    with pytest.raises(InputError, match=words.replace(".", r"\.")):
        ops.remember(code.config(), "Something.", cites=[spec])
    assert not (code.root / "REPOMEM.md").exists()


@pytest.mark.parametrize("name", ["new\nline.py", "back`tick.py"])
def test_a_file_whose_name_a_citation_cannot_hold_is_refused_not_cited_wrong(
    code: Repo, name: str
) -> None:
    code.write(name, "def f():\n    return 1\n")
    with pytest.raises(InputError, match="cannot hold"):
        ops.remember(code.config(), "Something.", cites=[f"{name}:f"])
    assert not (code.root / "REPOMEM.md").exists()


def test_supersede_keeps_the_old_fact_with_reason_and_commit(code: Repo) -> None:
    cfg = code.config()
    old = ops.remember(cfg, "Keys hash the path.", cites=["src/cache.py:key_for"]).fact
    head = code.git("rev-parse", "HEAD").strip()
    new = ops.supersede(cfg, old.id, "Keys hash the data.", why="keys moved to content").fact
    doc = access.load(cfg)
    gone = doc.fact(old.id)
    assert gone is not None and gone.status == "superseded" and gone.superseded_by == new.id
    assert gone.why == "keys moved to content" and gone.superseded_at.startswith(head[:12])
    assert gone.text == "Keys hash the path."
    assert new.cites[0].symbol == "key_for"  # inherited, re-resolved
    with pytest.raises(InputError, match="already superseded"):
        ops.supersede(cfg, old.id, "Again.", why="x")
    with pytest.raises(NotFoundError, match="No fact `f-nope`") as missing:
        ops.supersede(cfg, "f-nope", "x", why="y")
    assert f"Current facts: {new.id}." in str(missing.value)  # not the superseded one
    with pytest.raises(InputError, match="--why"):
        ops.supersede(cfg, new.id, "x", why=" ")


def test_forget_removes_the_text_for_real_and_leaves_a_tombstone(code: Repo) -> None:
    cfg = code.config()
    f = ops.remember(cfg, "The on-call person is Rumpelstiltskin.", topic="oncall-roster").fact
    out = ops.forget(cfg, f.id)
    assert out.action == "forgotten"
    text = memory_text(code)
    assert "Rumpelstiltskin" not in text and "oncall-roster" not in text
    assert f"### {f.id} · forgotten" in text
    assert ops.forget(cfg, f.id).action == "unchanged"


def test_check_marks_changed_deleted_and_renamed_code_stale(code: Repo) -> None:
    code.write("src/other.py", "def helper():\n    return 1\n")
    code.write("src/moved.py", "def moved():\n    return 2\n")
    code.commit("more")
    cfg = code.config()
    body = ops.remember(cfg, "key_for hashes data.", cites=["src/cache.py:key_for"]).fact
    lines = ops.remember(cfg, "get indexes the store.", cites=["src/cache.py:Cache.get"]).fact
    deleted = ops.remember(cfg, "helper returns one.", cites=["src/other.py:helper"]).fact
    renamed = ops.remember(cfg, "moved returns two.", cites=["src/moved.py"]).fact
    untouched = ops.remember(cfg, "The README has a title.", cites=["README.md"]).fact
    assert ops.check(cfg).newly_stale == []

    code.write("src/cache.py", CODE.replace("return hash(data)", "return hash((path, data))"))
    (code.root / "src/other.py").unlink()
    code.git("mv", "src/moved.py", "src/renamed.py")
    report = ops.check(cfg)
    stale = dict(report.newly_stale)
    assert set(stale) == {body.id, deleted.id, renamed.id}
    assert "`src/cache.py:key_for` changed" in stale[body.id]
    assert stale[renamed.id] == "`src/moved.py` was renamed to `src/renamed.py`"
    assert stale[deleted.id] == "`src/other.py` was deleted"
    doc = access.load(cfg)
    for fid in (body.id, deleted.id, renamed.id):
        f = doc.fact(fid)
        assert f is not None and f.status == "stale" and f.stale
    for fid in (lines.id, untouched.id):
        f = doc.fact(fid)
        assert f is not None and f.status == "valid"
    assert ops.check(cfg).still_stale == [body.id, deleted.id, renamed.id]


def test_a_symbol_cited_as_its_language_joins_names_resolves_to_the_stored_name(
    code: Repo,
) -> None:
    # `--cite src/db.rs:Db::new` said "no symbol of that name. Symbols there: ..., Db.new"
    cfg = code.config()
    said = {"src/cache.py:Cache::get": "Cache lookups go through get.",
            "src/cache.py:Cache#get": "Only get reads the backing dict."}  # fmt: skip
    for spec, fact in said.items():
        (c,) = ops.remember(cfg, fact, cites=[spec]).fact.cites
        assert (c.symbol, c.start_line, c.end_line) == ("Cache.get", 7, 8), spec


def test_code_that_only_moved_keeps_its_fact_valid_with_new_lines(code: Repo) -> None:
    cfg = code.config()
    f = ops.remember(cfg, "get indexes the store.", cites=["src/cache.py:Cache.get"]).fact
    r = ops.remember(cfg, "key_for returns a hash.", cites=["src/cache.py:3-3"]).fact
    code.write("src/cache.py", "import os\n\n\n" + CODE.replace("return self.store[key]  ", ""))
    report = ops.check(cfg)
    assert report.newly_stale == [] and set(report.moved) == {f.id, r.id}
    doc = access.load(cfg)
    moved = doc.fact(f.id)
    ranged = doc.fact(r.id)
    assert moved is not None and moved.cites[0].start_line == 10
    assert ranged is not None and (ranged.cites[0].start_line, ranged.cites[0].end_line) == (6, 6)


def test_a_cited_range_with_a_blank_edge_line_that_only_moved_stays_valid(code: Repo) -> None:
    # lines 5-8 begin with a blank line, which the hash leaves out: moved down, with a blank
    # line now after them, the block matched at its new place and one line below it, and
    # two matches were taken for code that changed
    cfg = code.config()
    r = ops.remember(cfg, "Cache reads the store.", cites=["src/cache.py:5-8"]).fact
    code.write("src/cache.py", "# header\n# another\n" + CODE + "\n\ndef after():\n    pass\n")
    report = ops.check(cfg)
    assert report.newly_stale == [] and report.moved == [r.id]
    ranged = access.load(cfg).fact(r.id)
    assert ranged is not None and (ranged.cites[0].start_line, ranged.cites[0].end_line) == (7, 10)


def test_a_removed_symbol_is_stale_and_confirm_then_needs_a_supersede(code: Repo) -> None:
    cfg = code.config()
    f = ops.remember(cfg, "get indexes the store.", cites=["src/cache.py:Cache.get"]).fact
    code.write("src/cache.py", CODE.split("class Cache")[0])
    assert dict(ops.check(cfg).newly_stale)[f.id] == "`Cache.get` is gone from `src/cache.py`"
    with pytest.raises(InputError, match="Supersede it"):
        ops.confirm(cfg, f.id)


def test_confirm_follows_a_committed_rename(code: Repo) -> None:
    cfg = code.config()
    f = ops.remember(cfg, "get indexes the store.", cites=["src/cache.py:Cache.get"]).fact
    code.git("mv", "src/cache.py", "src/store_cache.py")
    code.commit("rename")
    code.git("mv", "src/store_cache.py", "src/caching.py")
    code.commit("rename again")
    assert "renamed to `src/caching.py`" in dict(ops.check(cfg).newly_stale)[f.id]
    out = ops.confirm(cfg, f.id)
    assert out.fact.cites[0].target == "src/caching.py:Cache.get"


def test_confirm_revalidates_a_stale_fact_against_the_current_code(code: Repo) -> None:
    cfg = code.config()
    f = ops.remember(cfg, "key_for hashes data.", cites=["src/cache.py:key_for"]).fact
    code.write("src/cache.py", CODE.replace("return hash(data)", "return hash(bytes(data))"))
    ops.check(cfg)
    out = ops.confirm(cfg, f.id)
    assert out.fact.status == "valid" and out.fact.confirmed
    assert out.fact.cites[0].hash != f.cites[0].hash
    assert ops.check(cfg).newly_stale == []


def test_next_steps_are_added_once(code: Repo) -> None:
    cfg = code.config()
    ops.add_next_step(cfg, "Shard the cache")
    ops.add_next_step(cfg, "Shard the cache")
    assert [s.text for s in access.load(cfg).next_steps()] == ["Shard the cache"]


def test_adding_a_step_ticked_off_before_opens_it_again_and_says_what_happened(
    code: Repo,
) -> None:
    cfg = code.config()
    assert ops.add_next_step(cfg, "Shard the cache").action == "added"
    ops.complete_next_step(cfg, "Shard the cache")
    again = ops.add_next_step(cfg, "Shard the cache")
    assert again.action == "reopened" and again.version == access.load(cfg).version
    assert [(s.text, s.done) for s in access.load(cfg).next_steps()] == [("Shard the cache", False)]
    same = ops.add_next_step(cfg, "Shard the cache")
    assert same.action == "already open" and same.version == again.version


def test_next_steps_are_ticked_off_by_their_text(code: Repo) -> None:
    cfg = code.config()
    ops.add_next_step(cfg, "Shard the cache")
    ops.add_next_step(cfg, "Shard the queue")
    with pytest.raises(InputError, match="matches 2 next steps"):
        ops.complete_next_step(cfg, "shard the")
    ops.complete_next_step(cfg, "shard the cache")
    with pytest.raises(NotFoundError, match="No open next step"):
        ops.complete_next_step(cfg, "Shard the cache")
    assert [(s.text, s.done) for s in access.load(cfg).next_steps()] == [
        ("Shard the cache", True),
        ("Shard the queue", False),
    ]


def test_facts_recorded_during_a_session_are_credited_to_it(code: Repo) -> None:
    from repomem.memory import session

    cfg = code.config()
    rec = session.start(cfg, "work")
    f = ops.remember(cfg, "Learned while working.").fact
    assert f.source == f"session {rec['id']}"
    s = session.end(cfg, learned=["Learned at the end."]).session
    assert s.learned[0] == f.id and len(s.learned) == 2
    assert ops.remember(cfg, "Outside any session.").fact.source == "person"


def test_a_file_repomem_does_not_read_cannot_be_cited(code: Repo) -> None:
    code.write("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0binary")
    code.write("data.bin", b"\0\1\2\3" * 10)
    for spec in ("logo.png", "data.bin"):
        with pytest.raises(InputError, match=r"repomem does not read it \(binary\)"):
            ops.remember(code.config(), "Something.", cites=[spec])


def test_supersede_keeps_a_line_range_citation_a_line_range(code: Repo) -> None:
    cfg = code.config()
    old = ops.remember(cfg, "Line 3 returns the hash.", cites=["src/cache.py:3-3"]).fact
    new = ops.supersede(cfg, old.id, "Line 3 returns the data's hash.", why="clearer").fact
    (c,) = new.cites
    assert (c.path, c.symbol, c.start_line, c.end_line) == ("src/cache.py", "", 3, 3)


def test_several_facts_forgotten_in_one_write_bump_the_version_once(code: Repo) -> None:
    cfg = code.config()
    a = ops.remember(cfg, "First private detail about zebras.").fact
    b = ops.remember(cfg, "Second private detail about giraffes.").fact
    with access.editing(cfg) as doc:
        for f in (a, b):
            ops.forget(cfg, f.id, doc=doc)
    after = access.load(cfg)
    assert after.version == 3
    assert all(f.status == "forgotten" for f in after.facts())


DECORATED = """\
class Cache:
    @property
    def size(self):
        return len(self.store)
"""


def test_a_decorated_symbols_citation_covers_its_decorator(code: Repo) -> None:
    code.write("src/sized.py", DECORATED)
    code.commit("sized")
    cfg = code.config()
    f = ops.remember(cfg, "size is a property.", cites=["src/sized.py:Cache.size"]).fact
    assert (f.cites[0].start_line, f.cites[0].end_line) == (2, 4)
    code.write("src/sized.py", DECORATED.replace("    @property\n", "    @cached_property\n"))
    assert dict(ops.check(cfg).newly_stale)[f.id] == "`src/sized.py:Cache.size` changed"


def test_a_citation_from_before_decorators_counted_stays_valid_until_its_code_changes(
    code: Repo,
) -> None:
    code.write("src/sized.py", DECORATED)
    code.commit("sized")
    cfg = code.config()
    f = ops.remember(cfg, "size is a property.", cites=["src/sized.py:Cache.size"]).fact
    # As an older repomem wrote it: the lines from the `def` on, hashed.
    old = digest(DECORATED.splitlines()[2:4])
    path = code.root / "REPOMEM.md"
    text = path.read_text(encoding="utf-8")
    cite = f"`src/sized.py:Cache.size` L2-4 #{f.cites[0].hash}"
    assert cite in text
    path.write_text(text.replace(cite, f"`src/sized.py:Cache.size` L3-4 #{old}"), "utf-8")
    report = ops.check(cfg)
    assert report.newly_stale == []
    fact = access.load(cfg).fact(f.id)
    assert fact is not None and fact.status == "valid"
    assert (fact.cites[0].start_line, fact.cites[0].end_line) == (2, 4)
    code.write("src/sized.py", DECORATED.replace("len(self.store)", "len(self.items)"))
    assert dict(ops.check(cfg).newly_stale)[f.id] == "`src/sized.py:Cache.size` changed"


def test_a_file_whose_name_has_a_space_can_be_cited(code: Repo) -> None:
    from repomem.memory import model

    code.write("src/my cache.py", CODE)
    code.commit("a file with a space")
    cfg = code.config()
    out = ops.remember(cfg, "key_for hashes the data.", cites=["src/my cache.py:key_for"])
    (fact,) = [f for f in access.load(cfg).facts() if f.id == out.fact.id]  # read back
    (cite,) = fact.cites
    assert (cite.path, cite.symbol, cite.start_line) == ("src/my cache.py", "key_for", 1)
    assert model.parse_citation("src/my cache.py:key_for") is None  # bare, the space is a stop


def test_a_line_break_in_a_fact_cannot_write_a_citation_of_its_own(code: Repo) -> None:
    cfg = code.config()
    injected = "a\n- cite: `../outside/secret.txt` L1-1 #0123456789ab\n### f-00000000 · valid"
    out = ops.remember(cfg, injected)
    (fact,) = [f for f in access.load(cfg).facts() if f.id == out.fact.id]
    assert fact.cites == [] and "\n" not in fact.text and "- cite:" in fact.text
    assert len(access.load(cfg).facts()) == 1


def test_a_citation_written_into_the_file_never_reads_outside_the_root(
    code: Repo, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "secret.txt"
    outside.write_text("TOPSECRET_OUTSIDE\n")
    code.write(".env", "DB_PASSWORD=supersecretvalue99\n")
    cfg = code.config()
    ops.remember(cfg, "A fact to edit by hand.")
    path = access.memory_path(cfg)
    rel_out = os.path.relpath(outside, code.root)
    cites = {  # each hash is the right guess: a check that read the file would keep it valid
        ".env": digest(["DB_PASSWORD=supersecretvalue99"]),
        rel_out: digest(["TOPSECRET_OUTSIDE"]),
        str(outside): digest(["TOPSECRET_OUTSIDE"]),
    }
    text = path.read_text(encoding="utf-8")
    lines = "".join(f"- cite: `{p}` L1-1 #{h}\n" for p, h in cites.items())
    path.write_text(text.replace("A fact to edit by hand.\n", "A fact to edit by hand.\n" + lines))
    report = ops.check(cfg)
    (stale,) = report.newly_stale
    assert stale[1].count("outside the repository, or a credential file") == 3


def test_a_fact_the_size_of_a_document_is_refused(code: Repo) -> None:
    with pytest.raises(InputError, match="characters long; keep it under"):
        ops.remember(code.config(), "word " * 2000)
    assert not access.memory_path(code.config()).exists()


def test_a_source_is_one_line_and_holds_no_credential(code: Repo) -> None:
    cfg = code.config()
    with pytest.raises(InputError, match="The source .* credential"):
        ops.remember(cfg, "Retries are capped.", source="ghp_" + "a1B2" * 10)
    out = ops.remember(cfg, "The cache is per process.", source="bot\n- cite: `../x.py`")
    (fact,) = access.load(cfg).facts()
    assert fact.id == out.fact.id and not fact.cites and fact.source == "bot - cite: `../x.py`"


@pytest.mark.parametrize(
    ("before", "after", "cite"),
    [
        # a decorator added to the cited function
        (
            "import functools\n\n\ndef load(x):\n    return x + 1\n",
            "import functools\n\n\n@functools.cache\ndef load(x):\n    return x + 1\n",
            "a.py:load",
        ),
        # the cited line changed, and a line like it is elsewhere: not "moved" there
        (
            "def f():\n    return None\n\n\ndef g():\n    return None\n",
            "def f():\n    return None\n\n\ndef g():\n    return 42\n",
            "a.py:6-6",
        ),
    ],
)
def test_a_change_to_the_cited_code_makes_its_fact_stale(
    repo: Repo, before: str, after: str, cite: str
) -> None:
    repo.write("a.py", before)
    cfg = repo.config()
    fact = ops.remember(cfg, "What the cited code does.", cites=[cite]).fact
    repo.write("a.py", after)
    assert fact.id in dict(ops.check(cfg).newly_stale)


def test_confirm_follows_code_that_only_moved(repo: Repo) -> None:
    repo.write("c.py", "def h():\n    return 1\n\n\ndef k():\n    return 'two'\n")
    cfg = repo.config()
    fact = ops.remember(cfg, "k returns two", cites=["c.py:5-6"]).fact
    repo.write(
        "c.py",
        "import os\nimport sys\n" + "def h():\n    return 1\n\n\ndef k():\n    return 'two'\n",
    )
    ops.confirm(cfg, fact.id)
    confirmed = access.load(cfg).fact(fact.id)
    assert confirmed is not None and confirmed.cites[0].start_line == 7
    repo.write(
        "c.py", "import os\nimport sys\n" + "def h():\n    return 1\n\n\ndef k():\n    return 3\n"
    )
    assert fact.id in dict(ops.check(cfg).newly_stale)


def test_restating_a_stale_fact_with_its_citation_takes_the_code_as_it_is_now(
    repo: Repo,
) -> None:
    repo.write("d.py", "def g():\n    return None\n")
    cfg = repo.config()
    fact = ops.remember(cfg, "g returns nothing useful", cites=["d.py:g"]).fact
    repo.write("d.py", "def g():\n    return 42\n")
    assert fact.id in dict(ops.check(cfg).newly_stale)
    again = ops.remember(cfg, "g returns nothing useful", cites=["d.py:g"])
    assert again.action == "merged" and again.fact.id == fact.id
    report = ops.check(cfg)
    assert fact.id not in dict(report.newly_stale) and fact.id not in report.still_stale


def test_a_citations_hash_never_depends_on_a_secret_in_the_cited_line(repo: Repo) -> None:
    # The hash is committed: a hash of `DB_PASSWORD = "summer2024"` lets anyone test guesses.
    repo.write("app/weak.py", 'HOST = "db"\nDB_PASSWORD = "summer2024"\n')
    cfg = repo.config()
    fact = ops.remember(cfg, "The app reads its database settings here.", cites=["app/weak.py:1-2"])
    guessed = digest(['HOST = "db"', 'DB_PASSWORD = "summer2024"'])
    assert fact.fact.cites[0].hash != guessed
    assert fact.fact.cites[0].hash == digest(['HOST = "db"', 'DB_PASSWORD = "[REDACTED]"'])
    assert "summer2024" not in memory_text(repo)


def test_a_citation_typed_in_the_other_unicode_form_cites_the_file_on_disk(repo: Repo) -> None:
    repo.write("cafe\u0301.py", "def brew():\n    return 1\n")  # decomposed, as macOS writes
    repo.commit("init")
    out = ops.remember(repo.config(), "brew() makes one cup.", cites=["caf\u00e9.py:brew"])
    (cite,) = out.fact.cites
    assert (cite.path, cite.start_line, cite.end_line) == ("cafe\u0301.py", 1, 2)

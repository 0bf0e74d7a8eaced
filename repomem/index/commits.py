"""Commit messages in the index, so a task can find the files that similar past changes touched.

A task ("Mod(3*i, 2) is not simplified") often reads like the message of an earlier commit that
changed the same code ("Fix Mod of integer multiples"). The last `index.commit_history` non-merge
commits on HEAD are kept in the store's `commits` table with their changed files, exactly those
whatever the checkouts before: when HEAD moves (a commit, a checkout, a rewritten history) the
stored commits still among its last `limit` are kept, the others dropped and only the missing
ones read (rebuilt when most are new). Messages are redacted like file text before they are
stored.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from repomem import secrets, vcs
from repomem.index import tokens as tok

log = logging.getLogger(__name__)

META_HEAD = "commits_head"
META_LIMIT = "commits_limit"
# How messages are made searchable; stored commits of another format are read again.
# 2: issue and pull request numbers are tokens (`tokens.references`).
META_FORMAT = "commits_format"
FORMAT = "2"
MAX_MESSAGE_CHARS = 4000  # a longer message is mostly pasted output
REUSE_BELOW = 0.5  # another branch: reuse the stored commits unless this share of them is new


def rows(commits: list[vcs.Commit], extra_patterns: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Store rows for commits: credentials in messages (and `extra_patterns`) redacted."""
    out: list[dict[str, Any]] = []
    for c in commits:
        message, _ = secrets.redact(
            c.message[:MAX_MESSAGE_CHARS], prose=True, extra_patterns=extra_patterns
        )
        text = " ".join([tok.document(message), *tok.references(message)]).strip()
        if not text or not c.files:
            continue
        subject = message.split("\n", 1)[0][:200]
        out.append({"sha": c.sha, "when": c.when, "subject": subject, "text": text,
                    "files": list(c.files)})  # fmt: skip
    return out


def sync(
    store: Any, root: Path, head: str | None, *, limit: int, full: bool = False,
    extra_patterns: Sequence[str] = (),
) -> dict[str, str]:  # fmt: skip
    """Bring the `commits` table up to `head` (rebuilt with `full`); returns the meta values
    to publish.

    Must hold the store's write lock.
    """
    limit = max(0, limit)
    meta = store.all_meta()
    if meta.get(META_LIMIT) != str(limit):
        full = True  # another limit: another set of commits
    if meta.get(META_HEAD) and meta.get(META_FORMAT) != FORMAT:
        full = True  # stored in another format: read again
    have = "" if full else meta.get(META_HEAD) or ""
    want = head if head and limit > 0 else ""
    if have == want and not full:
        return {}
    t0 = time.monotonic()
    # Forward or elsewhere, the table becomes exactly the last `limit` commits of HEAD, so a
    # pack does not depend on the checkouts before (appending kept up to 1.5 times the limit:
    # the same task ranked otherwise after another order of checkouts).
    if have and want and _switch(store, root, want, limit, extra_patterns):
        return {META_HEAD: want, META_LIMIT: str(limit), META_FORMAT: FORMAT}
    new = rows(vcs.commit_log(root, limit=limit) if want else [], extra_patterns)
    store.write_commits(new, append=False)
    log.info("commit messages: stored %d in %.2fs", len(new), time.monotonic() - t0)
    return {META_HEAD: want, META_LIMIT: str(limit), META_FORMAT: FORMAT}


# What `META_HEAD` holds after `drop_newly_secret` dropped rows: no commit's id, so the next
# `sync` compares the stored commits with HEAD's and reads the missing ones again.
RECHECK = "recheck"


def drop_newly_secret(store: Any) -> int:
    """Drop the stored commits whose message holds a credential the secret filter now finds
    (its rules changed since they were stored); returns how many. Their messages are read
    from the repository the store was built from (its `root` meta) and redacted again: a row
    goes when its subject, or a search token of its message, is one the filter now takes out
    (tokens that only the configured extra patterns took out are missing from the stored row
    already). The next `sync` reads the dropped commits again, through the filter and the
    extra patterns (`RECHECK`). A store whose repository cannot be read loses all its rows
    (to be read again once it can). Must hold the store's write lock."""
    if not store.count_commits():
        return 0
    t0 = time.monotonic()
    stored = store.column("commits", ["sha", "subject", "text"])
    root = store.get_meta("root")
    messages: dict[str, str] = {}
    if root:  # (HEAD's log first: one git call, where 500 named commits take one each)
        found = vcs.commit_log(Path(root), limit=len(stored["sha"]), files=False)
        messages = {c.sha: c.message[:MAX_MESSAGE_CHARS] for c in found}
        others = [sha for sha in stored["sha"] if sha not in messages]
        found = vcs.commits_named(Path(root), others, files=False) if others else []
        messages.update((c.sha, c.message[:MAX_MESSAGE_CHARS]) for c in found)
    drop = []
    for sha, subject, text in zip(stored["sha"], stored["subject"], stored["text"], strict=True):
        message = messages.get(sha)
        if message is None or secrets.redact(subject or "", prose=True)[1]:
            drop.append(sha)
            continue
        redacted, count = secrets.redact(message, prose=True)
        if not count:
            continue  # (nothing to take out: the stored row holds nothing the filter finds)
        now = {*tok.document(redacted).split(), *tok.references(redacted)}
        if not now.issuperset((text or "").split()):
            drop.append(sha)
    if drop:
        store.write_commits([], append=True, drop=drop)
        store.set_meta({META_HEAD: RECHECK})
    log.info(
        "commit messages: %d of %d dropped for secrets in %.2fs",
        len(drop), len(stored["sha"]), time.monotonic() - t0,
    )  # fmt: skip
    return len(drop)


def _switch(
    store: Any, root: Path, want: str, limit: int, extra_patterns: Sequence[str]
) -> bool:  # fmt: skip
    """HEAD moved (a commit, a checkout, a rebase): keep the stored commits that are among the
    new history's last `limit`, drop the others, read only the missing ones. False (nothing
    written) when most of them are new: a rebuild is then as cheap."""
    t0 = time.monotonic()
    wanted = vcs.commit_ids(root, want, limit=limit)
    if not wanted:
        return False
    stored = store.commit_shas()
    missing = [s for s in wanted if s not in stored]  # also those `rows` leaves out
    if len(missing) > REUSE_BELOW * len(wanted):
        return False
    keep = set(wanted)
    drop = [s for s in stored if s not in keep]
    new = rows(vcs.commits_named(root, missing), extra_patterns)
    store.write_commits(new, append=True, drop=drop)
    log.info(
        "commit messages: %d read, %d dropped, %d kept in %.2fs",
        len(new), len(drop), len(stored) - len(drop), time.monotonic() - t0,
    )  # fmt: skip
    return True

from __future__ import annotations

from repomem.index import tokens


def test_identifiers_are_kept_whole_and_split_into_parts() -> None:
    assert tokens.tokens("parseConfig(parse_config)") == [
        "parseconfig", "parse", "config", "parse_config", "parse", "config",
    ]  # fmt: skip


def test_issue_and_pull_request_numbers_become_tokens() -> None:
    text = (
        "Regression of #8164 (see gh-12, issue 77, PR #9 and "
        "https://github.com/org/repo/pull/338); again #8164"
    )
    assert tokens.references(text) == ["ref8164", "ref12", "ref77", "ref9", "ref338"]
    assert tokens.references("Merge pull request #8165 from a/b") == ["ref8165"]
    assert tokens.references("Fix the mock of subclasses (#0170)") == ["ref170"]


def test_numbers_that_are_not_references_are_not_tokens() -> None:
    # versions, HTML entities, colours, another repository's `owner/repo#N`, headings
    text = "sphinx 3.4.2, &#123; colour #abc, other/repo#55, ## 3 steps, 2.0#1"
    assert tokens.references(text) == []

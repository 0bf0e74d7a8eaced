"""Credentials written with characters outside ASCII.

* Full-width forms and the ideographic space, typed with a CJK input method
  (``password＝"..."``, ``ＴＯＫＥＮ＝...``, ``ＤＢ＿ＰＡＳＳＷＯＲＤ：...``), are read as the
  ASCII characters they stand for (:func:`_fold_full_width`): one character for one, so
  positions in the folded copy are positions in the text.
* Zero-width and other invisible format characters (U+200B, U+200C, U+200D, U+2060, U+FEFF
  after the first character; the soft hyphen U+00AD, U+180E, the marks U+200E, U+200F and
  U+061C; the bidirectional embeddings, overrides and isolates U+202A-U+202E and
  U+2066-U+2069) pasted inside a name or a value (``pass\\u200bword = "..."``,
  ``pass\\u2066\\u2069word``, from a web page, a chat or a Trojan Source patch) hide it
  from every scan: :func:`_without_invisible` is the text without them, which
  :func:`~repomem.secrets.redact` also reads, keeping that reading where it redacts more
  (its output then has none of them).  The invisible operators (U+2061-U+2064) are not
  looked for (math notation, no text's).
* Names written in Chinese, Japanese or Korean (``密码=...``, ``パスワード: ...``,
  ``비밀번호: ...``, ``令牌：...``, "测试环境的密码是 ..."): :func:`_cjk_hits` finds them and
  :func:`_cjk_spans` reads their value, an ASCII word typed like a password (a digit or a
  symbol) or, for a token or a key, generated (12 characters or more, letters and digits).
  A value with characters outside ASCII counts in quotes (``密码 = "秘密的值123"``, "密码是
  “...”") with three ASCII characters together (not a count: "至少8位字符"); unquoted
  (``密码=秘密ABC123xyz``, ``パスワード: hunter2こんにちは``) it is one word up to a blank or
  a sentence's punctuation, or a particle attached to its ASCII letters ("hunter2を使う",
  "abc123입니다"), and counts when an ASCII run in it is typed with letters (a password's)
  or generated (a token's), not a range, a count or an algorithm's name ("8-16位",
  "SHA256加密", "GB2312编码").

* Cyrillic and Greek look-alikes of Latin letters inside a name (``pаssword`` with a
  Cyrillic ``а``, ``API_TOKEΝ`` with a Greek ``Ν``, ``priνate_key`` with a small Greek
  ``ν``, read as it looks: a "v") are read as the Latin letters in the lower-cased copy the
  names are matched in (:func:`_fold_confusables`), where one stands beside a Latin letter,
  a digit or "_", or starts a word of look-alikes alone assigned a quoted value (``ΤΟΚΕΝ =
  "..."``, ``"РАЅЅ": "..."``); values are read from the text as it is.  A Greek or Russian
  word in prose, or assigned anything else, keeps its letters.

The finds that decide whether a text needs any of this cost nothing on ASCII and Latin-1
texts: a character outside the text's range is not looked for.  Folding the look-alikes
costs a pass for each one found, which a Russian or Greek text pays (a fifth more time on
the Russian, Ukrainian and Greek message catalogs of a Debian system).
"""

from __future__ import annotations

import functools
import re

from repomem.secrets._common import (
    _has_digit_and_letter,
    _is_name_value,
    _lower,
    _plain_secret,
    _typed,
)

# Full-width forms (U+FF01-U+FF5E) and the ideographic space, as ASCII.
_FOLD_FULL_WIDTH = str.maketrans(
    {"\u3000": " ", **{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}}
)
# A text is folded when a keyword is followed by one (the scans' look-ahead takes the
# full-width "=", ":" and quotes and the ideographic space), or when it holds a full-width
# letter that every keyword of a scan has: "p" (ＰＡＳＳＷＯＲＤ = "..."), "k" (ＴＯＫＥＮ,
# ａｐｉ＿ｋｅｙ), "s" (ＳＥＣＲＥＴ) or "h" (ＡＵＴＨ), in lower case in the lowered text.
# Searching every non-ASCII text for the range cost 6% of the standard library's time (its
# class is tested at every character), a find for each of those characters 1%.
_FULL_WIDTH_NEAR = re.compile("[^\r\n]{0,80}?[\u3000\uff01-\uff5e]")
_FULL_WIDTH_KEYWORD_LETTERS = ("\uff50", "\uff4b", "\uff53", "\uff48")


def _fold_full_width(text: str, lowered: str, hits: list[tuple[int, str, int]]) -> str | None:
    """``text`` (not ASCII) with its full-width forms read as ASCII, or None when it needs no
    folding: ``lowered`` is its lower-cased copy, ``hits`` the scans' (start, keyword, end)
    in it."""
    if not (
        any(letter in lowered for letter in _FULL_WIDTH_KEYWORD_LETTERS)
        or any(_FULL_WIDTH_NEAR.match(lowered, end) for _, _, end in hits)
    ):
        return None
    folded = text.translate(_FOLD_FULL_WIDTH)
    return folded if folded != text else None


# Cyrillic and Greek letters that look like the Latin letters of the keywords, as a text's
# lower-cased copy holds them, and the Latin letter each is read as.  Where a capital looks
# like another letter than its small one, the capital's look counts here: Cyrillic Н, Т, М
# (small н, т, м look like no Latin letter), Greek Ν, Υ, Η (API_TOKEΝ, API_KEΥ, AUTΗ); the
# small Greek ν, υ, η are read as they look (_SMALL_LOOKS: priνate_key, aυth, tokeη).
_CONFUSABLE_LATIN = {
    **dict.fromkeys("аα", "a"), "с": "c", "ԁ": "d", **dict.fromkeys("еε", "e"),
    **dict.fromkeys("нһη", "h"), **dict.fromkeys("іι", "i"), **dict.fromkeys("кκ", "k"),
    **dict.fromkeys("мμ", "m"), "ν": "n", **dict.fromkeys("оο", "o"),
    **dict.fromkeys("рρ", "p"), "ѕ": "s", **dict.fromkeys("тτ", "t"), "ԝ": "w",
    **dict.fromkeys("уυ", "y"),
}  # fmt: skip
_CONFUSABLES = tuple(_CONFUSABLE_LATIN)
_SMALL_LOOKS = {"ν": "v", "υ": "u", "η": "n"}


# A text wider than ASCII is searched for single characters part by part, in its parts
# that are not ASCII only, unless most are not (a CJK or a Russian text: searched whole, as
# four parts evenly spaced tell).  A
# find of a character in a text of two bytes a character searches for the character's low
# byte, which for many of these is a common letter or punctuation ("*" to "." and "f" to
# "i" for the bidirectional marks; "0", "5", ">", "@" for Cyrillic а, е, о, р): a text with
# a few dashes or quotes outside Latin-1 paid for every character of it.  A slice is as
# narrow as its own characters allow and `isascii` of one tests a flag, so most parts of
# such a text cost a copy (over the standard library's non-ASCII files, the 44 finds took
# 46 ms whole, 14 ms so).
_PART = 2048


def _held(text: str, characters: tuple[str, ...]) -> list[str]:
    """The ``characters`` (outside ASCII) that ``text`` holds."""
    starts = range(0, len(text), _PART)
    sample = starts[:: max(1, len(starts) // 4)]  # (four parts, evenly spaced, tell which)
    if sum(not text[start : start + _PART].isascii() for start in sample) * 2 > len(sample):
        wide = [text]
    else:
        parts = (text[start : start + _PART] for start in starts)
        wide = [part for part in parts if not part.isascii()]
    held: list[str] = []
    for part in wide:
        found = [character for character in characters if character in part]
        if not found:
            continue
        held += found
        characters = tuple(character for character in characters if character not in found)
        if not characters:
            break
    return held


def _fold_confusables(text: str, lowered: str) -> str | None:
    """``lowered`` (the lower-cased copy of ``text``, which is not ASCII) with the Cyrillic
    and Greek look-alikes of Latin letters read as those, one character for one, or None
    when no name is written with them.  Only names are matched in it: values are read from
    the text itself.

    A name spelt so (``pаssword`` with a Cyrillic ``а``, ``ΤΟΚΕΝ`` all in Greek capitals)
    hides from every scan.  A word of Cyrillic or Greek text (``пароль``, a Greek ``α`` in
    a formula) keeps its letters; a text with many of them (a Russian one) is folded whole,
    each letter found in one pass, and keeps letters that look like no Latin one
    (``пароль`` -> ``пapoль``), so no name is made up out of its words."""
    held = _held(lowered, _CONFUSABLES)
    if not held or not _written_with_look_alikes(lowered, held):
        return None
    if any(letter in _SMALL_LOOKS for letter in held):  # (ν as v where the text has it small)
        for small, latin in _SMALL_LOOKS.items():
            text = text.replace(small, latin)
        lowered = _lower(text)
    for letter in held:
        lowered = lowered.replace(letter, _CONFUSABLE_LATIN[letter])
    return lowered


# A name's characters in a lowered text; how many look-alikes are looked at one by one.
_LATIN_WORD = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
_FEW = 64
# After a word of look-alikes alone (ΤΟΚΕΝ), an assignment of a quoted value to it: its
# closing quote (a JSON key), an operator, an opening quote.
_LOOK_ALIKES_ASSIGNED = re.compile(
    f"[{''.join(_CONFUSABLES)}]*"
    r"""(?!\w)["'`]?[ \t]*(?:=(?!=)|:=?|=>)[ \t]*[bBrRuUfF]{0,2}["'`]"""
)


def _written_with_look_alikes(lowered: str, letters: list[str]) -> bool:
    """True when one of ``letters`` in ``lowered`` stands beside a Latin letter, a digit or
    "_" (a name mixing scripts: ``pаssword``, ``API_ΤΟΚΕΝ``), starts a word of look-alikes
    alone assigned a quoted value (``ΤΟΚΕΝ = "..."``: a Greek or Russian word is seldom
    written so, and which becomes a credential's name is up to the scans: of the 3,053 such
    words of the Debian system's Cyrillic and Greek message catalogs none reads as one), or
    there are more than ``_FEW`` of them (a Cyrillic or Greek text, read whole)."""
    seen = 0
    for letter in letters:
        at = lowered.find(letter)
        while at >= 0:
            seen += 1
            before = lowered[at - 1 : at]
            if (
                seen > _FEW
                or before in _LATIN_WORD
                or lowered[at + 1 : at + 2] in _LATIN_WORD
                or (
                    not before.isalnum()
                    and _LOOK_ALIKES_ASSIGNED.match(lowered, at + 1) is not None
                )
            ):
                return True
            at = lowered.find(letter, at + 1)
    return False


# Invisible characters: zero-width ones, the soft hyphen, the Mongolian vowel separator (a
# zero-width space before Unicode 6.3), the marks of direction, and the bidirectional
# embeddings, overrides and isolates and their ends.
_ZERO_WIDTH = (
    *("\u200b", "\u200c", "\u200d", "\u2060"),  # zero-width space, non-joiner, joiner; word joiner
    *("\u00ad", "\u180e", "\u200e", "\u200f", "\u061c"),  # soft hyphen, MVS, LRM, RLM, ALM
)
_BIDIRECTIONAL = (
    *("\u202a", "\u202b", "\u202c", "\u202d", "\u202e"),  # LRE, RLE, PDF, LRO, RLO
    *("\u2066", "\u2067", "\u2068", "\u2069"),  # LRI, RLI, FSI, PDI
)
_INVISIBLE = (*_ZERO_WIDTH, *_BIDIRECTIONAL)


def _without_invisible(text: str) -> str | None:
    """``text`` without its zero-width, bidirectional and other invisible characters, or
    None when it has none (a byte order mark that starts the text does not count; one
    further on does, and every one is dropped)."""
    if text.isascii():
        return None
    found = _held(text, _INVISIBLE)
    if text.find("\ufeff", 1) >= 0:  # (a rare low byte: one find of the whole text)
        found.append("\ufeff")
    for character in found:  # (a replace is a pass in C; a translate costs a dict per character)
        text = text.replace(character, "")
    return text if found else None


# Names of passwords in Chinese (simplified and traditional), Japanese and Korean, and of
# tokens and keys.  A text holds one only if it holds one of their first characters (キ for
# APIキー): a find of one character is a tenth of a find of two.
_CJK_PASSWORDS = ("密码", "密碼", "口令", "パスワード", "暗証番号", "비밀번호", "비번")
_CJK_TOKENS = ("令牌", "トークン", "토큰", "密钥", "密鑰", "秘钥", "秘鑰", "APIキー")
_CJK_FINDS = tuple(sorted({word.removeprefix("API")[0] for word in _CJK_PASSWORDS + _CJK_TOKENS}))


# The name, maybe a closing quote ("密码": ...), a separator (also "is": 是, 为, は, 는, 은)
# and the value: a word in quotes with characters outside ASCII (wide), or a word up to a
# blank, a quote or a sentence's punctuation, maybe after a quote. Compiled at its first
# use (6 ms, which a text without those names never needs).
@functools.cache
def _cjk_name() -> re.Pattern[str]:
    return re.compile(
        f"(?P<name>{'|'.join(_CJK_PASSWORDS + _CJK_TOKENS)})"
        r"""["'”」』]?[ \t\u3000]*(?:[:=：＝]|是|为|為|は|는|은)[ \t\u3000]*"""
        r"""(?:["'`“「『](?P<wide>[^\s"'`“”「」『』]{0,199}[^\s"'`“”「」『』\x00-\x7f]"""
        r"""[^\s"'`“”「」『』]{0,199})["'`”」』]"""
        r"""|(?P<q>["'`“「『]?)(?P<value>[^\s"'`“”「」『』,;，。；、！？：（）【】《》]{1,200}))"""
    )


# What a password typed with characters outside ASCII has: a run of three ASCII letters,
# digits or symbols ("秘密的值123"), not the one or two digits of a count ("至少8位字符").
_ASCII_RUN = re.compile(r"[!-~]{3}")
_ASCII_RUNS = re.compile(r"[!-~]+")
# The grammar of a CJK sentence attached to an ASCII word: a Japanese or Korean particle or
# copula, a Chinese final particle ("hunter2を使う", "abc123です", "abc123입니다"). The
# value ends before it; any other characters after ASCII ones are the value's
# ("hunter2こんにちは").
_ATTACHED_GRAMMAR = re.compile(
    r"(?<=[!-~])(?:[をでにがとはものへや]|から|まで|だ"
    r"|입니다|이에요|예요|이다|이고|으로|[을를이가은는도의에와과로만]"
    r"|[的了吗呢吧])"
)
# ASCII runs in an unquoted sentence that are no password: an algorithm's or an encoding's
# name ("SHA256加密", "GB2312编码", "base64"), character ranges ("a-zA-Z0-9").
_NAMED_RUN = re.compile(
    r"(?:md|sha-?|[hre]s|aes-?|rsa-?|3?des|crc|utf-?|ucs-?|gb|big|base|pbkdf|iso-?|latin-?"
    r"|cp|win|x)\d+[a-z]?\Z|(?:[a-z0-9]-[a-z0-9])+\Z",
    re.IGNORECASE,
)


def _wide_unquoted_secret(value: str, password: bool) -> bool:
    """True when ``value``, a word with characters outside ASCII after a CJK name and not
    quoted, holds an ASCII run typed like a password (letters and a digit or a symbol,
    three characters or more) or, for a token or a key, generated (letters and digits,
    twelve or more); not a count, a range or the name of an algorithm."""
    for run in _ASCII_RUNS.findall(value):
        if _NAMED_RUN.match(run) or _is_name_value(run):
            continue
        if password:
            if len(run) >= 3 and any(map(str.isalpha, run)) and _typed(run):
                return True
        elif len(run) >= 12 and _has_digit_and_letter(run):
            return True
    return False


def _cjk_hits(text: str) -> list[tuple[int, str, int]]:
    """The CJK names of credentials with a value in ``text`` (not ASCII): (start, "cjk", end
    of the match), as the keyword scans report theirs."""
    if not any(word in text for word in _CJK_FINDS):
        return []
    return [(m.start(), "cjk", m.end()) for m in _cjk_name().finditer(text)]


def _cjk_spans(text: str, start: int) -> list[tuple[int, int]]:
    """The span of the value after the CJK name at ``start``, if a secret: typed like a
    password after a password's name, generated after a token's or a key's.  A value with
    characters outside ASCII counts in quotes (a string, or quoted in a sentence) with three
    ASCII characters together; unquoted, up to a particle attached to it, when an ASCII run
    in it is typed or generated (see :func:`_wide_unquoted_secret`)."""
    m = _cjk_name().match(text, start)
    if m is None:
        return []
    group = "wide" if m.group("wide") is not None else "value"
    value = m.group(group)
    password = m.group("name") in _CJK_PASSWORDS
    if group == "value":
        grammar = _ATTACHED_GRAMMAR.search(value) if not value.isascii() else None
        if grammar is not None:
            value = value[: grammar.start()]
        if not m.group("q"):
            value = value.rstrip(".:)!?")  # the end of a sentence
    if group == "value" and not value.isascii():
        secret = _wide_unquoted_secret(value, password) and _plain_secret(value)
    elif group == "wide" and _ASCII_RUN.search(value) is None:
        return []
    elif password:
        secret = _typed(value) and _plain_secret(value)
    else:
        secret = len(value) >= 12 and _has_digit_and_letter(value) and _plain_secret(value)
    return [(m.start(group), m.start(group) + len(value))] if secret else []

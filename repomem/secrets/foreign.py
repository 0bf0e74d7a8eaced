"""Names of credentials in other languages: the words the keyword scans of :mod:`.assign`
find besides the English ones.

Each word is listed once, in lower case, by what it names: a password, a secret, a token,
a key, or credentials (a user and a password given together, as the English ``creds``).
A word is found by a branch of one of the scans there are (:func:`_branches` writes the
branches of a scan's letter), so a name in Spanish costs a text no scan of its own; the
words written with no letter of those scans (Cyrillic and Greek ones, ``şifre``, ``bí
mật``) are found by scans of a letter of theirs outside Latin-1 (:data:`_WIDE_LETTERS`),
run on a text only when it holds that letter.  A hit is read as the English word's
(:func:`_foreign_name`): its value read and judged by the same rules, a token's or a key's
generated, a password's any word typed.

Words that also mean something ordinary count only in combinations that name a
credential, as ``key`` does in English after ``api``/``private``: ``clave`` (Spanish),
``chave`` (Portuguese), ``chiave`` (Italian), ``clé`` (French), ``Schlüssel`` (German),
``sleutel`` (Dutch), ``klucz`` (Polish), ``anahtar`` (Turkish), ``ключ`` (Russian and
Ukrainian), ``κλειδί`` (Greek), ``khóa`` (Vietnamese) and ``kunci`` (Indonesian) are keys
of maps too (``clave_api``, ``clé_privée``, ``api_schlüssel``, ``ключ_api`` count).
Italian ``parola`` (a word) is not ``parol`` (Russian, transliterated), and Greek
``κωδικός`` (a code) names a password only alone or as ``κωδικός_πρόσβασης``, not in
``κωδικός_προϊόντος`` (a product's code).

In a spelling "_" stands for a separator that may be left out (``mot_de_passe``,
``motDePasse``, ``MOT-DE-PASSE``), and a final "$" for the end of the name.
"""

from __future__ import annotations

import functools
import re

# What each word names (the English word the rules of :mod:`.values` know), and the words.
_FOREIGN_WORDS: dict[str, tuple[str, ...]] = {
    "password": (
        *("contraseña", "contrasena", "clave_de_acceso", "clave_acceso"),  # Spanish
        *("senha", "palavra_passe"),  # Portuguese
        "mot_de_passe",  # French
        "kennwort",  # German (Passwort: the English "pass")
        "wachtwoord",  # Dutch
        *("hasło", "haslo"),  # Polish
        *("şifre", "sifre"),  # Turkish
        *("пароль", "parol"),  # Russian and Ukrainian, and transliterated
        *("κωδικός_πρόσβασης", "κωδικος_προσβασης", "κωδικός$", "κωδικος$"),  # Greek
        *("συνθηματικό", "συνθηματικο"),
        *("mật_khẩu", "mat_khau"),  # Vietnamese
        "kata_sandi",  # Indonesian
        "heslo",  # Czech and Slovak
        *("jelszó", "jelszo"),  # Hungarian
        "salasana",  # Finnish
        *("lösenord", "losenord"),  # Swedish
        "passord",  # Norwegian
        "adgangskode",  # Danish
        "lozinka",  # Croatian, Serbian, Bosnian
    ),
    "secret": (
        *("secreto", "secreta", "clave_secreta", "llave_secreta"),  # Spanish
        *("segredo", "chave_secreta"),  # Portuguese
        *("segreto", "chiave_segreta"),  # Italian
        *("clé_secrète", "cle_secrete"),  # French
        *("geheimnis", "geheim", "geheimer_schlüssel", "geheimer_schluessel"),  # German
        "geheime_sleutel",  # Dutch (geheim)
        *("sekret", "tajny_klucz"),  # Polish; Russian transliterated
        "gizli_anahtar",  # Turkish
        *("секрет", "секретный_ключ", "секретний_ключ"),  # Russian, Ukrainian
        *("μυστικό", "μυστικο", "μυστικό_κλειδί", "μυστικο_κλειδι"),  # Greek
        *("bí_mật", "khóa_bí_mật", "khoa_bi_mat"),  # Vietnamese
        *("rahasia", "kunci_rahasia"),  # Indonesian
    ),
    "token": ("токен", "διακριτικό", "διακριτικο", "jeton"),  # Russian, Ukrainian, Greek; French
    "key": (
        *("clave_api", "clave_privada", "llave_api", "llave_privada"),  # Spanish
        *("chave_api", "chave_privada"),  # Portuguese
        *("chiave_api", "chiave_privata"),  # Italian
        *("clé_api", "cle_api", "clé_privée", "cle_privee"),  # French
        *("api_schlüssel", "api_schluessel", "api_schlussel"),  # German
        *("privater_schlüssel", "privater_schluessel"),
        *("api_sleutel", "prive_sleutel", "privé_sleutel"),  # Dutch
        *("klucz_api", "api_klucz", "klucz_prywatny", "prywatny_klucz"),  # Polish
        *("api_anahtarı", "api_anahtari", "api_anahtar"),  # Turkish
        *("özel_anahtarı", "özel_anahtari", "ozel_anahtari", "özel_anahtar", "ozel_anahtar"),
        *("ключ_api", "api_ключ", "приватный_ключ", "закрытый_ключ"),  # Russian
        *("приватний_ключ", "закритий_ключ"),  # Ukrainian
        *("κλειδί_api", "κλειδι_api", "api_κλειδί", "api_κλειδι"),  # Greek
        *("ιδιωτικό_κλειδί", "ιδιωτικο_κλειδι"),
        *("khóa_api", "khoa_api", "khóa_riêng", "khoa_rieng"),  # Vietnamese
        *("kunci_api", "kunci_privat"),  # Indonesian
    ),
    "cred": (
        *("credenciales", "credenciais", "credenziali"),  # Spanish, Portuguese, Italian
        *("zugangsdaten", "anmeldedaten"),  # German
        "inloggegevens",  # Dutch
        "dane_logowania",  # Polish
        "kimlik_bilgileri",  # Turkish
        *("учетные_данные", "учётные_данные", "облікові_дані"),  # Russian, Ukrainian
        "kredensial",  # Indonesian
    ),
}
FOREIGN_MEANINGS = frozenset(_FOREIGN_WORDS)

# The letters of the scans of :mod:`.assign` (their lower-cased copy of a text).  "h",
# "f", "j" and "l" are scans of their own, for the words with none of the others (senha,
# haslo, rahasia; sifre; jeton, jelszo; salasana, losenord): each costs every text a pass,
# which code written in those languages all in ASCII needs (``senha = "..."`` in a
# Brazilian code base).  The scans of the letters outside Latin-1 run only on the texts
# that hold the letter (a find of it in the parts of a text that are not ASCII).
_ASCII_LETTERS = tuple("kgufhpdcjl")
_OWN_SCANS = ("h", "f", "j", "l")
_WIDE_LETTERS = tuple("чпкκşậ")
# A branch costs where its first two letters are in a text (the scan's letter and the
# literal the engine tests first): the pairs of those letters at least 0.3 per mille of the
# standard library's lower-cased code, rarest first ("de" is 6 per mille, "cr" 0.6).  A
# word is found at its rarest pair.
_COMMON_PAIRS = (
    "uf ft gu gh ui dl pu fl ht ub gr gn dr py dd ds fe gi ff fu ci cu cr du fr pp um fa up "
    "gs da do pi hi pl us ke ho ck pt cl ue ul un po pr ch ge ut ha fo di ct ca fi pe ce pa "
    "ur co he de"
).split()
# Letters a lower-cased copy reads as Latin ones where they stand beside Latin letters
# (:func:`~repomem.secrets.nonascii._fold_confusables`): words holding them are found in
# the copy that keeps them.
_CYRILLIC_AND_GREEK = re.compile("[\u0370-\u03ff\u0400-\u04ff]")

_SEPARATOR = "[_ -]"


def _literal(spelling: str) -> str:
    """A regex for ``spelling``, its separators optional, its "$" the name's end."""
    pattern = re.escape(spelling.rstrip("$")).replace("_", f"{_SEPARATOR}?")
    return pattern + r"(?![\w.-])" if spelling.endswith("$") else pattern


def _scan_letter(spelling: str) -> str:
    """The letter of ``spelling`` a scan finds it at: not last nor before a separator (its
    branch starts with the character after it), and where its branch costs least: a scan
    that runs on every text ("h" and "f" only for a word with no other letter), two letters
    or more before the look-behind a letter after the first needs (a look-behind is tried
    wherever a branch's letters are), then the rarest pair of letters (see _COMMON_PAIRS),
    then the scans' order."""
    letters = (
        _WIDE_LETTERS if _CYRILLIC_AND_GREEK.search(spelling) else (*_ASCII_LETTERS, *_WIDE_LETTERS)
    )
    costs = []
    for at, (letter, after) in enumerate(zip(spelling, spelling[1:], strict=False)):
        if letter not in letters or after in "_$":
            continue
        run = len(re.split("[_$]", spelling[at + 1 :])[0])
        pair = letter + after
        rank = _COMMON_PAIRS.index(pair) if pair in _COMMON_PAIRS else -1
        own = letter in _OWN_SCANS  # (run on some texts only: see assign._own_scans)
        costs.append((own, at > 0 and run < 2, rank, letters.index(letter), letter))
    if not costs:
        raise AssertionError(f"no scan finds {spelling!r}")  # (a word listed without one)
    return min(costs)[-1]


def _branch(spelling: str, letter: str) -> tuple[str, str]:
    """The branch of the scan of ``letter`` that finds ``spelling``: the letters after the
    scan's, to a separator, and the rest of the word as a regex, the part before the letter
    checked by a look-behind first (one for each way the separators before the letter are
    written: a look-behind has one width), so the branch starts with a literal the engine
    rejects at once elsewhere and the look-behind is tried only where the letters are
    there (``htwoord(?<=wachtwoord)``, as ``ret(?<=secret)``)."""
    at = next(i for i, c in enumerate(spelling[:-1]) if c == letter and spelling[i + 1] not in "_$")
    end = at + 1
    while end < len(spelling) and spelling[end] not in "_$":
        end += 1
    letters = spelling[at + 1 : end]  # (the letters after the scan's, to a separator)
    behind = ""
    if at:
        heads = {""}
        for character in spelling[: at + 1]:
            if character == "_":
                heads = {h + sep for h in heads for sep in (_SEPARATOR, "")}
            else:
                heads = {h + re.escape(character) for h in heads}
        behinds = [f"(?<={h}{re.escape(letters)})" for h in sorted(heads)]
        behind = behinds[0] if len(behinds) == 1 else "(?:" + "|".join(behinds) + ")"
    return letters, behind + _literal(spelling[end:])


def _trie(branches: list[tuple[str, str]]) -> list[str]:
    """The alternatives that find ``branches`` (letters, then a regex), each starting with
    a literal: branches sharing their first letters share them, so the engine tests a
    letter once however many words go on from it (at each "cl" of a text, once for
    ``clave_api``, ``clave_privada``, ``clé_api`` ...).  A word that goes on is tried
    before the one that ends (``секретный_ключ`` before ``секрет``, as a scan takes the
    first branch that matches)."""
    children: dict[str, list[tuple[str, str]]] = {}
    ends: list[str] = []
    for letters, rest in branches:
        if letters:
            children.setdefault(letters[0], []).append((letters[1:], rest))
        else:
            ends.append(rest)
    alternatives = []
    for first, below in sorted(children.items()):
        inner = _trie(below)
        tail = inner[0] if len(inner) == 1 else "(?:" + "|".join(inner) + ")"
        alternatives.append(re.escape(first) + tail)
    return alternatives + sorted(set(ends), key=lambda r: (-len(r), r))


@functools.cache
def _branches(letter: str, meanings: frozenset[str]) -> tuple[str, ...]:
    """The branches of the scan of ``letter`` for the words that name one of ``meanings``:
    one for each character after the letter, each starting with it (the engine rejects a
    branch at once where its first literal is not there; a group of branches in one is
    entered wherever that literal is)."""
    found = [
        _branch(spelling, letter)
        for meaning in sorted(meanings)
        for spelling in _FOREIGN_WORDS[meaning]
        if _scan_letter(spelling) == letter
    ]
    return tuple(_trie(found))


# Every word, each group named for what it names, ending where a scan's match ends.
_FOREIGN_NAME = re.compile(
    "(?:"
    + "|".join(
        f"(?P<{meaning}>{'|'.join(sorted(map(_literal, words), key=len, reverse=True))})"
        for meaning, words in _FOREIGN_WORDS.items()
    )
    + r")\Z"
)
# (the longest word is 17 characters; its separators, three more)
_LONGEST = max(len(word) for words in _FOREIGN_WORDS.values() for word in words) + 4


def _foreign_name(lowered: str, end: int) -> tuple[int, str] | None:
    """Where the word in another language a scan found, ending at ``end`` of ``lowered``,
    starts, and the English word it stands for (the longest word that ends there:
    ``clave_secreta`` rather than ``secreta``)."""
    m = _FOREIGN_NAME.search(lowered, max(0, end - _LONGEST), end)
    if m is None or m.lastgroup is None:
        return None
    return m.start(), m.lastgroup

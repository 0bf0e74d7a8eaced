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
    "token": ("токен", "διακριτικό", "διακριτικο"),  # Russian and Ukrainian, Greek
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

# The letters of the scans of :mod:`.assign` (their lower-cased copy of a text), rarest in
# code first: a word is found at the first of them it has, so that a branch costs least.
# "h" and "f" are scans of their own, for the words with none of the others (senha, hasło,
# rahasia; sifre).  The scans of the letters outside Latin-1 run only on the texts that
# hold the letter (a find of it in the parts of a text that are not ASCII).
_ASCII_LETTERS = tuple("kgupdchf")
_OWN_SCANS = ("h", "f")
_WIDE_LETTERS = tuple("чпкκşậ")
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
    """The letter of ``spelling`` a scan finds it at: its first if a scan has it (no
    look-behind then), else the rarest of the scans' letters it has, not last nor before a
    separator (its branch starts with the character after it)."""
    letters = (
        _WIDE_LETTERS if _CYRILLIC_AND_GREEK.search(spelling) else (*_ASCII_LETTERS, *_WIDE_LETTERS)
    )
    usable = {
        character
        for character, after in zip(spelling, spelling[1:], strict=False)
        if character in letters and after not in "_$"
    }
    if spelling[0] in usable and spelling[0] not in _OWN_SCANS:  # (no look-behind there)
        return spelling[0]
    for letter in letters:
        if letter in usable:
            return letter
    raise AssertionError(f"no scan finds {spelling!r}")  # (a word listed without one)


def _branch(spelling: str, letter: str) -> tuple[str, str]:
    """The branch of the scan of ``letter`` that finds ``spelling``: the character after the
    letter, and the rest of the word, the part before the letter checked by a look-behind
    after the letters that follow it (one look-behind for each way the separators before
    the letter are written: a look-behind has one width), so the branch starts with a
    literal the engine rejects at once elsewhere and the look-behind is tried only where
    the rest of the word is there (``htwoord(?<=wachtwoord)``, as ``ret(?<=secret)``)."""
    at = next(i for i, c in enumerate(spelling[:-1]) if c == letter and spelling[i + 1] not in "_$")
    end = at + 1
    while end < len(spelling) and spelling[end] not in "_$":
        end += 1
    word = spelling[at + 1 : end]  # (the letters after the scan's, to a separator)
    behind = ""
    if at:
        heads = {""}
        for character in spelling[: at + 1]:
            if character == "_":
                heads = {h + sep for h in heads for sep in (_SEPARATOR, "")}
            else:
                heads = {h + re.escape(character) for h in heads}
        word_pattern = re.escape(word)
        behind = "(?:" + "|".join(f"(?<={h}{word_pattern})" for h in sorted(heads)) + ")"
        if len(heads) == 1:
            behind = behind[3:-1]
    return re.escape(word[0]), re.escape(word[1:]) + behind + _literal(spelling[end:])


@functools.cache
def _branches(letter: str, meanings: frozenset[str]) -> tuple[str, ...]:
    """The branches of the scan of ``letter`` for the words that name one of ``meanings``,
    one for each character after the letter (the engine rejects a branch at once where its
    first literal is not there; a group of branches in one branch is entered each time),
    longer words first (a scan takes the first branch that matches: ``секрет`` must not end
    ``секретный_ключ``)."""
    groups: dict[str, list[str]] = {}
    for meaning in sorted(meanings):
        for spelling in _FOREIGN_WORDS[meaning]:
            if _scan_letter(spelling) == letter:
                first, rest = _branch(spelling, letter)
                groups.setdefault(first, []).append(rest)
    return tuple(
        first + "(?:" + "|".join(sorted(rests, key=lambda r: (-len(r), r))) + ")"
        for first, rests in sorted(groups.items())
    )


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

"""Tests for repomem.secrets.foreign: names of credentials in other languages."""

from __future__ import annotations

import pytest

from repomem.secrets import REDACTED, is_config_like, redact
from repomem.secrets.foreign import _FOREIGN_WORDS
from tests.secrets.cases import ALNUM, assert_kept, fake, named

PW = "Qz" + fake(ALNUM, 10, 80)  # typed like a password: a digit, both cases
TOKEN = fake(ALNUM, 24, 81)  # generated
AWS_SECRET = fake(ALNUM + "+/", 40, 82)


def _value(meaning: str) -> str:
    return TOKEN if meaning in ("token", "key") else PW


def _forms(spelling: str) -> list[str]:
    """A spelling as a name in snake case, camel case and upper case."""
    word = spelling.rstrip("$")
    parts = word.split("_")
    return [word, parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:]), word.upper()]


EVERY_WORD = [
    pytest.param(meaning, name, id=f"{meaning}-{name}")
    for meaning, spellings in _FOREIGN_WORDS.items()
    if meaning != "cred"
    for spelling in spellings
    for name in _forms(spelling)
]


@pytest.mark.parametrize(("meaning", "name"), EVERY_WORD)
def test_every_name_in_another_language_has_its_value_redacted_in_config(
    meaning: str, name: str
) -> None:
    text = f'{name} = "{_value(meaning)}"\n'
    assert redact(text, config_like=True) == (f'{name} = "{REDACTED}"\n', 1)


@pytest.mark.parametrize(("meaning", "name"), EVERY_WORD)
def test_every_name_in_another_language_has_its_value_redacted_in_code(
    meaning: str, name: str
) -> None:
    text = f'{name} = "{_value(meaning)}"\n'
    assert redact(text) == (text.replace(_value(meaning), REDACTED), 1)


@pytest.mark.parametrize("name", [n.rstrip("$") for n in _FOREIGN_WORDS["cred"]])
def test_every_word_for_credentials_has_the_password_given_with_it_redacted(name: str) -> None:
    text = f'{name} = ("admin", "{PW}")\n'
    assert redact(text) == (f'{name} = ("admin", "{REDACTED}")\n', 1)


FOREIGN = {
    # (path, text, secret): names in the shapes the English ones are read in
    "russian": ("a.py", 'пароль = "{p}"', PW),
    "russian_upper_in_env": (".env", "DB_ПАРОЛЬ={p}", PW),
    "russian_json_key": ("ru.json", '{{"пароль": "{p}"}}', PW),
    "russian_in_a_comment": ("a.py", "# пароль: {p}", PW),
    "russian_in_a_sentence": ("NOTES.md", "Пароль от стенда: {p}", PW),
    "russian_token": ("a.yaml", "токен: {t}", TOKEN),
    "russian_secret": ("a.py", 'секрет = "{p}"', PW),
    "russian_api_key": ("a.py", 'ключ_api = "{t}"', TOKEN),
    "russian_private_key": ("a.py", 'приватный_ключ = "{t}"', TOKEN),
    "ukrainian_credentials": ("a.py", 'облікові_дані = ("admin", "{p}")', PW),
    "transliterated": ("a.py", 'parol = "{p}"', PW),
    "spanish": ("a.py", 'contraseña = "{p}"', PW),
    "spanish_without_the_tilde": ("a.js", 'const contrasenaDb = "{p}";', PW),
    "spanish_secret_key": ("a.py", 'CLAVE_SECRETA = "{p}"', PW),
    "spanish_api_key": ("a.py", 'claveApi = "{t}"', TOKEN),
    "spanish_secret": ("a.yaml", "secreto: {p}", PW),
    "portuguese_in_code_with_a_comment": ("a.py", '# conexão\nsenha = "{p}"', PW),
    "portuguese_in_ascii_code": ("a.py", 'senha = "{p}"', PW),
    "portuguese_upper_in_ascii_code": ("a.js", 'const DB_SENHA = "{p}";', PW),
    "portuguese_camel_case_in_ascii_code": ("A.java", 'String senhaBanco = "{p}";', PW),
    "portuguese_in_yaml": ("a.yaml", "senha: {p}", PW),
    "portuguese_in_env": (".env", "SENHA_BANCO={p}", PW),
    "portuguese_european": ("a.py", 'palavra_passe = "{p}"', PW),
    "portuguese_api_key": ("a.py", 'chave_api = "{t}"', TOKEN),
    "portuguese_secret": ("a.py", 'segredo = "{p}"', PW),
    "french": ("a.py", 'mot_de_passe = "{p}"', PW),
    "french_camel_case": ("a.js", 'const motDePasse = "{p}";', PW),
    "french_private_key": ("a.py", 'clé_privée = "{t}"', TOKEN),
    "french_api_key_without_accents": ("a.py", 'CLE_API = "{t}"', TOKEN),
    "german": ("a.py", 'Kennwort = "{p}"', PW),
    "german_api_key": ("a.py", 'api_schlüssel = "{t}"', TOKEN),
    "german_api_key_spelt_ue": ("a.java", 'String apiSchluessel = "{t}";', TOKEN),
    "german_secret": ("a.py", 'geheimnis = "{p}"', PW),
    "german_credentials": ("a.py", 'zugangsdaten = ("admin", "{p}")', PW),
    "italian_api_key": ("a.py", 'chiave_api = "{t}"', TOKEN),
    "italian_secret": ("a.py", 'segreto = "{p}"', PW),
    "italian_credentials": ("a.py", 'credenziali = ("admin", "{p}")', PW),
    "dutch": ("a.py", 'wachtwoord = "{p}"', PW),
    "dutch_in_config": ("app.ini", "wachtwoord = {p}", PW),
    "dutch_api_key": ("a.py", 'api_sleutel = "{t}"', TOKEN),
    "polish": ("a.py", 'hasło = "{p}"', PW),
    "polish_without_the_stroke": ("app.ini", "HASLO = {p}", PW),
    "polish_without_the_stroke_in_ascii_code": ("a.py", 'haslo = "{p}"', PW),
    "czech": ("a.py", 'heslo = "{p}"', PW),
    "hungarian": ("a.py", 'jelszó = "{p}"', PW),
    "hungarian_without_the_accent": ("a.js", 'const jelszo = "{p}";', PW),
    "finnish": ("a.py", 'salasana = "{p}"', PW),
    "swedish": ("a.py", 'lösenord = "{p}"', PW),
    "swedish_without_the_umlaut": ("a.yaml", "losenord: {p}", PW),
    "norwegian": ("a.py", 'passord = "{p}"', PW),
    "danish": ("a.py", 'adgangskode = "{p}"', PW),
    "croatian": ("a.py", 'lozinka = "{p}"', PW),
    "french_token": ("a.py", 'jeton = "{t}"', TOKEN),
    "french_api_token": ("a.js", 'const jetonApi = "{t}";', TOKEN),
    "polish_api_key": ("a.py", 'klucz_api = "{t}"', TOKEN),
    "polish_secret": ("a.py", 'sekret = "{p}"', PW),
    "turkish": ("a.py", 'şifre = "{p}"', PW),
    "turkish_without_the_cedilla": ("a.json", '{{"kullanici_sifre": "{p}"}}', PW),
    "turkish_without_the_cedilla_in_ascii_code": ("a.py", 'sifre = "{p}"', PW),
    "turkish_upper_case_dotted_capital_i": ("a.py", 'ŞİFRE = "{p}"', PW),
    "turkish_upper_case_dotted_capital_i_in_env": (".env", "DB_ŞİFRE={p}", PW),
    "turkish_private_key": ("a.py", 'özel_anahtar = "{t}"', TOKEN),
    "turkish_private_key_without_marks": ("a.py", 'ozel_anahtar = "{t}"', TOKEN),
    "turkish_private_key_possessive": ("a.py", 'OZEL_ANAHTARI = "{t}"', TOKEN),
    "turkish_api_key": ("a.py", 'api_anahtarı = "{t}"', TOKEN),
    "greek": ("a.py", 'κωδικός = "{p}"', PW),
    "greek_upper_case": ("a.py", 'ΚΩΔΙΚΟΣ = "{p}"', PW),
    "greek_access_code": ("a.py", 'κωδικός_πρόσβασης = "{p}"', PW),
    "greek_secret": ("a.py", 'μυστικό = "{p}"', PW),
    "greek_api_key": ("a.py", 'κλειδί_api = "{t}"', TOKEN),
    "vietnamese": ("a.py", 'mật_khẩu = "{p}"', PW),
    "vietnamese_without_marks": ("a.js", 'const matKhau = "{p}";', PW),
    "vietnamese_api_key": ("a.py", 'khoa_api = "{t}"', TOKEN),
    "indonesian": ("a.py", 'kata_sandi = "{p}"', PW),
    "indonesian_secret": ("a.yaml", "rahasia: {p}", PW),
    "indonesian_secret_in_ascii_code": ("a.go", 'rahasia := "{p}"', PW),
    "indonesian_api_key": ("a.py", 'kunci_api = "{t}"', TOKEN),
    # English names whose lower-cased copy starts a word of another language (secreta,
    # secreto): the English keyword is read there
    "english_secret_access_key": ("a.yaml", "SecretAccessKey: {a}", AWS_SECRET),
    "english_secret_then_a_capital_a": ("a.json", '{{"ClientSecretApp": "{p}"}}', PW),
    "english_secret_then_a_capital_o": ("a.py", 'secretOverride = "{p}"', PW),
}


@named(("path", "text", "secret"), FOREIGN)
def test_names_in_other_languages_have_their_value_redacted(
    path: str, text: str, secret: str
) -> None:
    text = text.format(p=PW, t=TOKEN, a=AWS_SECRET)
    assert redact(text, config_like=is_config_like(path)) == (text.replace(secret, REDACTED), 1)


FOREIGN_KEPT = {
    # (path, text): ordinary words, names that go on, code, words and placeholders as values
    "italian_word": ("a.py", 'parola = "ciao2024"'),
    "turkish_and_italian_parola": ("a.py", 'parola_chiave = "nome2024"'),
    "spanish_map_key": ("a.py", 'clave = "usuario42"'),
    "spanish_key_alone": ("a.py", 'llave = "abc123xyz"'),
    "portuguese_map_key": ("a.py", 'chave = "campo123"'),
    "italian_map_key": ("a.py", 'chiave = "utente42"'),
    "french_map_key": ("a.py", 'clé = "valeur42"'),
    "german_key": ("a.py", 'schlüssel = "wert1234"'),
    "dutch_key": ("a.py", 'sleutel = "waarde42"'),
    "polish_key": ("a.py", 'klucz = "wartosc42"'),
    "turkish_key": ("a.py", 'anahtar = "deger42"'),
    "russian_dict_key": ("a.py", 'ключ = "значение42"'),
    "greek_key": ("a.py", 'κλειδί = "τιμή42"'),
    "vietnamese_key": ("a.py", 'khoa = "ten12345"'),
    "indonesian_key": ("a.py", 'kunci = "nilai42"'),
    "greek_product_code": ("a.py", 'κωδικός_προϊόντος = "AB1234x"'),
    "greek_error_code": ("a.py", 'ΚΩΔΙΚΟΣ_ΣΦΑΛΜΑΤΟΣ = "E1234x"'),
    "portuguese_review": ("a.py", 'resenha = "Otimo123"'),
    "russian_secretary": ("a.py", 'секретарь = "Иванов123"'),
    "polish_secretary": ("a.py", 'sekretarz = "Kowalski1"'),
    "spanish_secretary": ("a.py", 'secretaria = "Gomez2024"'),
    "italian_secretariat": ("a.py", 'segreteria = "Roma2024"'),
    "german_mysterious": ("a.py", 'geheimnisvoll = "Raetsel123"'),
    "greek_secrecy": ("a.py", 'μυστικότητα = "Υψηλή123"'),
    "turkish_encryption": ("a.py", 'sifreleme = "aes256cbc"'),
    "turkish_encryption_with_cedilla": ("a.py", 'şifreleme = "aes256cbc"'),
    "portuguese_code": ("a.py", "senha = obter_senha()"),
    "spanish_prompt": ("a.py", 'contraseña = input("Contraseña: ")'),
    "russian_label": ("a.py", 'пароль = "Введите пароль"'),
    "russian_token_word": ("a.py", 'токен = "значение"'),
    "polish_api_key_word": ("a.py", 'api_klucz = "wartosc"'),
    "german_code": ("a.py", "kennwort = getpass()"),
    "dutch_label": ("a.py", 'wachtwoord_label = "Wachtwoord1"'),
    "french_placeholder": ("a.py", 'mot_de_passe = "${MOT_DE_PASSE}"'),
    "polish_annotation": ("a.py", "hasło: str"),
    "vietnamese_code": ("a.py", "mat_khau = nhap_mat_khau()"),
    "vietnamese_label": ("a.py", 'mật_khẩu = "Mật khẩu"'),
    "indonesian_label": ("a.py", 'kata_sandi = "Kata Sandi"'),
    "spanish_credentials_loaded": ("a.py", "credenciales = cargar_credenciales()"),
    "german_credentials_map": ("a.py", 'zugangsdaten = {"benutzer": "admin"}'),
    "russian_credentials_code": ("a.py", "учетные_данные = загрузить()"),
    "greek_token_word": ("a.py", 'διακριτικό = "μπλε"'),
    "vietnamese_secret_label": ("a.py", 'bí_mật = "Bí mật"'),
    "indonesian_secret_code": ("a.py", 'rahasia = "{}".format(x)'),
    "french_token_word": ("a.py", 'jeton = "rouge"'),
    "french_token_code": ("a.py", "jeton = lire_jeton()"),
    "french_jetons_counted": ("a.py", "jetons_restants = 42"),
    "norwegian_label": ("a.py", 'passord_label = "Passord1"'),
    "finnish_code": ("a.py", "salasana = lue_salasana()"),
    "hungarian_prompt": ("a.py", 'jelszo = input("Jelszó: ")'),
    "english_passport": ("a.py", 'passport = "X1234567"'),
    "english_ordinal_after_pass": ("a.py", 'pass_ordinal = "second1"'),
    "portuguese_review_ascii": ("a.py", 'resenha = "Otimo123"'),
    "turkish_encryption_ascii_code": ("a.py", 'sifreleme = "aes256cbc"'),
    "russian_prose": ("NOTES.md", "Пароль должен содержать не менее 8 символов."),
    "spanish_prose": ("NOTES.md", "La contraseña es obligatoria."),
}


@named(("path", "text"), FOREIGN_KEPT)
def test_words_in_other_languages_that_name_no_credential_are_kept(path: str, text: str) -> None:
    assert_kept(text, is_config_like(path))

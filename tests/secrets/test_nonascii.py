"""Tests for repomem.secrets.nonascii: names and values written with characters outside ASCII."""

from __future__ import annotations

import pytest

from repomem.secrets import REDACTED, is_config_like, redact
from tests.secrets.cases import ALNUM, GITHUB_PAT, assert_filled_redacted, assert_kept, fake, named

FULL_WIDTH = {
    # (text, config_like): typed with a CJK input method; the value is masked in place
    "equals": ('password＝"{v}"', False),
    "spaced_equals": ('password ＝ "{v}"', False),
    "quotes": ("password = ＂{v}＂", False),
    "ideographic_spaces": ('password\u3000=\u3000"{v}"', False),
    "colon_in_config": ("password：{v}", True),
    "key_name": ('ＰＡＳＳＷＯＲＤ = "{v}"', False),
    "key_name_and_equals": ('ＤＢ＿ＰＡＳＳＷＯＲＤ＝"{v}"', False),
    "token_equals": ('api_token＝"{v}"', False),
    "token_name": ('ＴＯＫＥＮ＝"{v}"', False),
    "token_name_in_config": ("ＴＯＫＥＮ＝{v}", True),
    "api_key_name": ('ＡＰＩ_ＫＥＹ="{v}"', False),
    "secret_name_in_config": ("ｓｅｃｒｅｔ： {v}", True),
    "secret_name_after_ascii": ('client_ｓｅｃｒｅｔ = "{v}"', False),
    "auth_token_name": ('ＡＵＴＨ＿ＴＯＫＥＮ = "{v}"', False),
}


@named(("text", "config_like"), FULL_WIDTH)
def test_full_width_names_operators_and_quotes_are_read_as_ascii(
    text: str, config_like: bool
) -> None:
    assert_filled_redacted(text, config_like, v=fake(ALNUM, 24, 42))


FULL_WIDTH_KEPT = {
    "code": "password＝get_password()",
    "comparison": 'if password ＝＝ "hunter2hunter":',
    "prose": "ｐａｓｓｗｏｒｄ：ユーザーが入力します",
    "annotation": "ｐａｓｓｗｏｒｄ：ｓｔｒ",
    "token_call": "ＴＯＫＥＮ＝get_token()",
    "token_kind_word": 'ＴＯＫＥＮ＿ＴＹＰＥ = "keyword"',
    "question": "ＴＯＫＥＮとは何ですか",
}


@named("text", FULL_WIDTH_KEPT)
def test_full_width_look_alikes_of_kept_code_are_kept(text: str) -> None:
    assert_kept(text)


PW = "Qz" + fake(ALNUM, 10, 70)  # typed like a password: a digit, both cases
TOKEN = fake(ALNUM, 24, 71)

ZERO_WIDTH = {
    # (path, text): a zero-width character pasted inside the name, or the value
    "space_in_a_name": ("a.py", 'pass\u200bword = "{p}"'),
    "non_joiner_in_a_name": ("a.py", 'api_to\u200cken = "{t}"'),
    "joiner_in_a_name": ("a.py", 'sec\u200dret = "{t}"'),
    "word_joiner_in_a_name": ("a.py", 'pass\u2060word = "{p}"'),
    "byte_order_mark_in_a_name": ("a.py", 'pass\ufeffword = "{p}"'),
    "in_a_config_name": (".env", "DB_PASS\u200bWORD={p}"),
    "in_a_token": ("a.py", "x = '{g}'"),
}


@named(("path", "text"), ZERO_WIDTH)
def test_zero_width_characters_inside_a_name_or_a_token_do_not_hide_it(
    path: str, text: str
) -> None:
    broken_token = GITHUB_PAT[:10] + "\u200b" + GITHUB_PAT[10:]
    out, n = redact(text.format(p=PW, t=TOKEN, g=broken_token), config_like=is_config_like(path))
    # read without them: the output has none left
    expected = text.translate(dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff")))
    assert (out, n) == (expected.format(p=REDACTED, t=REDACTED, g=REDACTED), 1)


INVISIBLE = {
    # (path, text, character): other invisible format characters pasted inside a name or a
    # token (g: a GitHub token with the character inside)
    "soft_hyphen_in_a_name": ("a.py", 'pass{c}word = "{p}"', "\u00ad"),
    "soft_hyphen_in_a_config_name": (".env", "DB_PASS{c}WORD={p}", "\u00ad"),
    "soft_hyphen_in_a_token": ("a.py", "x = '{g}'", "\u00ad"),
    "mongolian_vowel_separator_in_a_name": ("a.py", 'api_to{c}ken = "{t}"', "\u180e"),
    "mongolian_vowel_separator_in_a_token": ("a.py", "x = '{g}'", "\u180e"),
    "left_to_right_mark_in_a_name": ("a.py", 'sec{c}ret = "{t}"', "\u200e"),
    "right_to_left_mark_in_a_name": ("a.py", 'pass{c}word = "{p}"', "\u200f"),
    "arabic_letter_mark_in_a_name": ("a.py", 'pass{c}word = "{p}"', "\u061c"),
    "word_joiner_in_a_token": ("a.py", "x = '{g}'", "\u2060"),
    "byte_order_mark_in_a_token": ("a.py", "x = '{g}'", "\ufeff"),
    # the bidirectional embeddings, overrides and isolates, and their ends
    "left_to_right_embedding_in_a_name": ("a.py", 'pass{c}word = "{p}"', "\u202a"),
    "right_to_left_embedding_in_a_token": ("a.py", "x = '{g}'", "\u202b"),
    "pop_directional_formatting_in_a_name": ("a.py", 'api_to{c}ken = "{t}"', "\u202c"),
    "left_to_right_override_in_a_config_name": (".env", "DB_PASS{c}WORD={p}", "\u202d"),
    "right_to_left_override_in_a_name": ("a.py", 'sec{c}ret = "{t}"', "\u202e"),
    "left_to_right_isolate_in_a_token": ("a.py", "x = '{g}'", "\u2066"),
    "right_to_left_isolate_in_a_name": ("a.py", 'pass{c}word = "{p}"', "\u2067"),
    "first_strong_isolate_in_a_name": ("a.py", 'API_{c}KEY = "{t}"', "\u2068"),
    "pop_directional_isolate_in_a_token": ("a.py", "x = '{g}'", "\u2069"),
    "an_isolate_and_its_end_in_a_name": ("a.py", 'pass{c}word = "{p}"', "\u2066\u2069"),
}


@named(("path", "text", "character"), INVISIBLE)
def test_other_invisible_format_characters_inside_a_name_or_a_token_do_not_hide_it(
    path: str, text: str, character: str
) -> None:
    broken_token = GITHUB_PAT[:10] + character + GITHUB_PAT[10:]
    filled = text.format(c=character, p=PW, t=TOKEN, g=broken_token)
    assert redact(filled, config_like=is_config_like(path)) == (
        text.format(c="", p=REDACTED, t=REDACTED, g=REDACTED),
        1,
    )


@pytest.mark.parametrize("name", ["pass\u2066\u2069word", "p\u0430ssword"])
def test_a_name_hidden_far_into_a_long_text_with_other_wide_characters_is_found(
    name: str,
) -> None:
    # the text is searched part by part, its parts without such characters skipped: the
    # dash makes the first part (and the text) wide, the name sits parts later
    head = "# a note \u2014 see below\n" + "x = 1\n" * 2000
    text = f'{head}{name} = "{PW}"\n' + "y = 2 \u2014 3\n" * 500
    out, n = redact(text)
    assert n == 1 and PW not in out and out.startswith(head)


INVISIBLE_KEPT = {
    "soft_hyphens_in_german_prose": "Pass\u00adwort\u00adver\u00adwal\u00adtung ist wichtig.",
    "soft_hyphen_in_a_word": 'label = "Ge\u00adheim\u00adnis"',
    "soft_hyphen_in_code": "pass\u00adword = get_password()",
    "marks_around_hebrew": 'title = "\u200fשלום\u200e"',
    "isolates_around_hebrew": 'title = "\u2067שלום\u2069"',
    "an_isolated_name_in_a_message": 'msg = f"\u2068{name}\u2069 joined"',
    "an_override_in_prose": "Das Pass\u202ewort ist geheim.",
}


@named("text", INVISIBLE_KEPT)
def test_invisible_format_characters_that_hide_nothing_are_kept(text: str) -> None:
    assert_kept(text)


def test_a_soft_hyphen_elsewhere_is_kept_when_nothing_is_hidden() -> None:
    text = f'# Pass\u00adwort\npassword = "{PW}"\n'
    assert redact(text) == (text.replace(PW, REDACTED), 1)


ZERO_WIDTH_KEPT = {
    "prose": "pass\u200bword managers",
    "code": "pass\u200bword = get_password()",
    "byte_order_mark_first": '\ufeffimport os\nname = "x\u200by"',
}


@named("text", ZERO_WIDTH_KEPT)
def test_zero_width_characters_that_hide_nothing_are_kept(text: str) -> None:
    assert_kept(text)


def test_zero_width_characters_elsewhere_are_kept_when_nothing_is_hidden() -> None:
    text = f'# a\u200bb\npassword = "{PW}"\n'
    assert redact(text) == (text.replace(PW, REDACTED), 1)


CONFUSABLE = {
    # (path, text): Cyrillic or Greek letters that look like Latin ones inside a name; the
    # name is read as the Latin one, the value redacted, the name kept as written
    "cyrillic_a_in_password": ("a.py", 'p\u0430ssword = "{p}"'),
    "cyrillic_er_starting_password": ("a.py", '\u0440assword = "{p}"'),
    "cyrillic_capital_a_in_config": (".env", "DB_P\u0410SSWORD={p}"),
    "cyrillic_o_in_a_token": ("a.py", 'api_t\u043eken = "{t}"'),
    "cyrillic_ka_in_an_api_key": ("a.js", 'const api_\u043aey = "{t}";'),
    "cyrillic_es_and_ie_in_secret": ("a.py", 'client_\u0455\u0435cret = "{t}"'),
    "cyrillic_capital_te_in_auth": ("a.py", 'AU\u0422H_TOKEN = "{t}"'),
    "greek_omicron_in_password": ("a.py", 'passw\u03bfrd = "{p}"'),
    "greek_capital_rho": ("a.py", '\u03a1ASSWORD = "{p}"'),
    "greek_capital_nu_in_a_token": ("a.py", 'API_TOKE\u039d = "{t}"'),
    "greek_capital_upsilon_in_a_key": ("a.py", 'API_KE\u03a5 = "{t}"'),
    "in_russian_text": ("NOTES.md", "Настройки стенда: p\u0430ssword={p}"),
    # a name written only in Cyrillic or Greek look-alikes, assigned a quoted
    # value; or a small Greek letter read as it looks (ν as v, υ as u, η as n)
    "greek_token": ("a.py", '\u03a4\u039f\u039a\u0395\u039d = "{t}"'),
    "greek_token_json_key": ("a.json", '{{"\u03a4\u039f\u039a\u0395\u039d": "{t}"}}'),
    "greek_token_in_yaml": ("a.yaml", '\u03a4\u039f\u039a\u0395\u039d: "{t}"'),
    "greek_api_key_in_one_word": ("a.py", '\u0391\u03a1\u0399\u039a\u0395\u03a5 = "{t}"'),
    "cyrillic_pass": ("a.py", '\u0420\u0410\u0405\u0405 = "{p}"'),
    "cyrillic_pass_in_a_long_text": ("a.py", "x = 1\n" * 3000 + '\u0420\u0410\u0405\u0405 = "{p}"'),
    "cyrillic_password_with_the_latin_r": (
        "a.py",
        '\u0420\u0410\u0405\u0405\u051c\u041eR\u0500 = "{p}"',
    ),
    "small_greek_nu_as_v": ("a.py", 'pri\u03bdate_key = "{t}"'),
    "small_greek_upsilon_as_u": ("a.py", 'a\u03c5th = "{t}"'),
    "small_greek_eta_as_n": ("a.py", 'toke\u03b7 = "{t}"'),
    "capital_greek_nu_as_n": ("a.py", 'API_TOKE\u039d = "{t}"'),
}


@named(("path", "text"), CONFUSABLE)
def test_cyrillic_and_greek_look_alikes_inside_a_name_do_not_hide_it(path: str, text: str) -> None:
    filled = text.format(p=PW, t=TOKEN)
    assert redact(filled, config_like=is_config_like(path)) == (
        text.format(p=REDACTED, t=REDACTED),
        1,
    )


CONFUSABLE_KEPT = {
    "russian_prose": "Пароль: введите ваш пароль и нажмите «Войти»",
    "a_russian_name_and_value": 'ключ = "значение123"',
    "greek_code": 'ρ = "abc123def456"',
    "a_look_alike_in_another_word": 'r\u0435sult = "abc123def456"',
    "a_look_alike_in_code": "p\u0430ssword = get_password()",
    "a_look_alike_in_a_prompt": 'p\u0430ssword_prompt = "Enter it: "',
    # real words made of look-alikes: not assigned a quoted value, or not a credential's name
    "greek_capitals_in_prose": "\u03a4\u039f \u039a\u0391\u0399 \u0395\u039d\u0391: "
    "\u03a4\u039f\u039a\u0395\u039d \u03b5\u03af\u03bd\u03b1\u03b9 abc123def456ghi",
    "kazakh_word_that_reads_key": '\u043a\u0435\u0443 = "\u043c\u04d9\u043d12345"',
    "kazakh_word_that_ends_in_key": '\u0442\u0456\u0440\u043a\u0435\u0443 = "Abc123def456"',
    "ukrainian_word_that_reads_api": '\u0430\u0440\u0456 = "Abc123def456"',
    "greek_word_and": '\u039a\u0391\u0399 = "Abc123def456"',
    "russian_word_in_capitals": '\u0422\u041e\u0420\u0422 = "abc123def456ghi"',
    "greek_token_not_quoted": "\u03a4\u039f\u039a\u0395\u039d = get_token()",
    "greek_token_compared": 'if \u03a4\u039f\u039a\u0395\u039d == "abc123def456ghi":',
    "small_greek_nu_in_a_formula": 'n = "\u03bd" + "abc123def456"',
    "greek_word_with_small_letters": '\u03c4\u03bf\u03ba\u03b5\u03bd = "abc123def456ghi"',
}


@named("text", CONFUSABLE_KEPT)
def test_cyrillic_and_greek_words_and_look_alikes_that_hide_nothing_are_kept(text: str) -> None:
    assert_kept(text)


CJK = {
    # (path, text, secret): names in Chinese, Japanese and Korean, with their value
    "chinese": ("NOTES.md", "密码={p}", PW),
    "chinese_full_width_colon": ("NOTES.md", "密码：{p}", PW),
    "chinese_in_a_comment": ("a.py", "# 数据库密码: {p}", PW),
    "chinese_traditional": ("NOTES.md", "密碼: {p}", PW),
    "chinese_sentence": ("NOTES.md", "测试环境的密码是 {p}。", PW),
    "chinese_json_key": ("zh.json", '{{"密码": "{p}"}}', PW),
    "japanese": ("NOTES.md", "パスワード: {p}", PW),
    "japanese_topic": ("NOTES.md", "パスワードは {p} です", PW),
    "korean": ("NOTES.md", "비밀번호: {p}", PW),
    "korean_topic_attached": ("NOTES.md", "비밀번호는 {p}입니다", PW),
    "chinese_token": ("NOTES.md", "令牌：{t}", TOKEN),
    "chinese_key": ("a.yaml", "密钥: {t}", TOKEN),
    "japanese_token": ("NOTES.md", "トークン: {t}", TOKEN),
    "korean_token": ("NOTES.md", "토큰: {t}", TOKEN),
}


@named(("path", "text", "secret"), CJK)
def test_cjk_names_of_credentials_have_their_value_redacted(
    path: str, text: str, secret: str
) -> None:
    text = text.format(p=PW, t=TOKEN)
    assert redact(text, config_like=is_config_like(path)) == (text.replace(secret, REDACTED), 1)


CJK_KEPT = {
    "a_prompt": ("a.md", "请输入密码。"),
    "a_label": ("a.py", 'label = "密码："'),
    "a_table_header": ("a.md", "| 密码 | 必填 |"),
    "a_hint": ("a.py", 'placeholder="パスワード: 8文字以上"'),
    "a_mask": ("a.md", "密码: ******"),
    "a_variable": ("a.md", "密码: ${DB_PASSWORD}"),
    "korean_words": ("a.md", "비밀번호: 8자 이상 입력하세요"),
    "chinese_words": ("a.md", "密码：请联系管理员"),
    "a_word_after_a_password": ("a.md", "密码: changeme"),
    "an_untyped_word": ("a.md", "パスワード: sesame"),
    "a_strength_setting": ("a.md", "密码强度: strong1"),
    "a_numeric_token": ("a.md", "令牌: 1234567890123"),
}


@named(("path", "text"), CJK_KEPT)
def test_cjk_words_about_credentials_are_kept(path: str, text: str) -> None:
    assert_kept(text, is_config_like(path))


WIDE = "秘密的值123"  # a password with characters outside ASCII
WIDE_TOKEN = "令牌" + fake(ALNUM, 16, 72)

WIDE_PW = "秘密ABC123xyz"  # the same, with ASCII letters: one that counts unquoted too
WIDE_UNQUOTED_TOKEN = "令牌" + fake(ALNUM, 16, 73)

CJK_WIDE = {
    # (path, text, secret): a value with characters outside ASCII, in a string after a CJK name
    "chinese_in_code": ("a.py", '密码 = "{w}"', WIDE),
    "chinese_single_quotes": ("a.js", "const 密码 = '{w}';", WIDE),
    "chinese_json_key": ("zh.json", '{{"密码": "{w}"}}', WIDE),
    "traditional_yaml": ("a.yaml", '密碼: "{w}"', WIDE),
    "japanese": ("a.py", 'パスワード = "パス{w}"', "パス" + WIDE),
    "korean": ("a.py", '비밀번호 = "비밀{w}"', "비밀" + WIDE),
    "typographic_quotes_in_prose": ("NOTES.md", "测试环境的密码是“{w}”。", WIDE),
    "corner_brackets_in_prose": ("NOTES.md", "パスワードは「パス{w}」です", "パス" + WIDE),
    "token": ("a.py", '令牌 = "{t}"', WIDE_TOKEN),
    # not quoted: one word up to a blank, a sentence's punctuation or a particle attached
    # to its ASCII letters, which are typed (a token's: generated)
    "unquoted": ("NOTES.md", "密码={u}", WIDE_PW),
    "unquoted_in_config": ("app.ini", "密码={u}", WIDE_PW),
    "unquoted_after_a_full_width_colon": ("NOTES.md", "密码：{u}", WIDE_PW),
    "unquoted_in_a_comment": ("a.py", "# 数据库密码: {u}", WIDE_PW),
    "unquoted_in_a_sentence": ("NOTES.md", "测试环境的密码是{u}。", WIDE_PW),
    "unquoted_after_ascii": ("NOTES.md", "パスワード: hunter2こんにちは", "hunter2こんにちは"),
    "unquoted_before_ascii": ("NOTES.md", "パスワード：ひみつ2024abc", "ひみつ2024abc"),
    "unquoted_korean": ("NOTES.md", "비밀번호: 비밀ABC123xyz", "비밀ABC123xyz"),
    "unquoted_then_a_particle": ("NOTES.md", "パスワードは{u}を使ってください", WIDE_PW),
    "unquoted_then_a_copula": ("NOTES.md", "비밀번호는 {u}입니다", WIDE_PW),
    "unquoted_token": ("NOTES.md", "令牌={v}", WIDE_UNQUOTED_TOKEN),
}


@named(("path", "text", "secret"), CJK_WIDE)
def test_values_outside_ascii_after_cjk_names_are_redacted(
    path: str, text: str, secret: str
) -> None:
    text = text.format(w=WIDE, t=WIDE_TOKEN, u=WIDE_PW, v=WIDE_UNQUOTED_TOKEN)
    assert redact(text, config_like=is_config_like(path)) == (text.replace(secret, REDACTED), 1)


CJK_WIDE_KEPT = {
    # (path, text): words and hints after the names, quoted or not
    "a_hint_with_a_count": ("zh.json", '{"密码": "至少8位字符"}'),
    "a_hint_with_a_longer_count": ("a.py", '密码 = "至少12位"'),
    "a_message": ("a.py", '密码 = "请输入您的密码"'),
    "words_with_spaces": ("a.py", '密码 = "至少 8 位"'),
    "unquoted_words_with_a_digit": ("a.md", "密码：至少8位字符"),
    "a_name_that_goes_on": ("a.py", '密码更新 = "2024年更新"'),
    "a_prompt_in_a_string": ("a.py", 'placeholder = "密码：请输入"'),
    "a_translation": ("ja.json", '{"パスワード": "パスワード"}'),
    "a_quoted_prose_hint": ("a.md", "密码是“至少8位”的字符串"),
    # not quoted: counts, ranges, algorithms' and encodings' names, ASCII words
    "a_count_range": ("a.md", "密码：8-16位字符"),
    "a_count_range_with_a_tilde": ("a.md", "密码：6~20位"),
    "an_algorithm": ("a.md", "密码：SHA256加密存储"),
    "a_short_algorithm": ("a.md", "密码：MD5加密"),
    "an_encoding": ("a.md", "密码：GB2312编码"),
    "base64": ("a.md", "密码：base64编码后保存"),
    "character_ranges": ("a.md", "密码：必须包含a-zA-Z0-9中的字符"),
    "an_ascii_word": ("a.md", "密码：使用SSO登录"),
    "a_file_name": ("a.md", "密码：见config.py文件"),
    "a_question": ("a.md", "密码是否正确？"),
    "a_token_hint": ("a.md", "令牌：请在设置页面生成"),
    "a_short_word_for_a_token": ("a.md", "令牌：使用abc123生成"),
    "words_with_a_digit": ("a.md", "パスワード：8文字以上で入力"),
    "a_token_word": ("a.py", '令牌 = "访问令牌12"'),
}


@named(("path", "text"), CJK_WIDE_KEPT)
def test_words_and_hints_outside_ascii_after_cjk_names_are_kept(path: str, text: str) -> None:
    assert_kept(text, is_config_like(path))

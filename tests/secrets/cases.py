"""Fake credentials of the right shape, and the scaffolding of a table of cases, shared by
the tests of repomem.secrets.

Every fake credential is assembled at run time (prefix + generated body) so this file
itself holds nothing a secret scanner would flag.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Mapping, Sequence

import pytest

from repomem.secrets import REDACTED, redact

UPPER_DIGITS = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"


def fake(alphabet: str, n: int, seed: int = 0) -> str:
    """n characters from alphabet, deterministic, always mixing letters and digits."""
    rng = random.Random(seed * 1000 + n)
    while True:
        body = "".join(rng.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in body) and any(c.isalpha() for c in body):
            return body


def fake_jwt() -> str:
    def part(obj: dict[str, object]) -> str:
        raw = json.dumps(obj, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    header = part({"alg": "HS256", "typ": "JWT"})
    payload = part({"sub": "1234567890", "name": "Jane", "iat": 1516239022})
    return f"{header}.{payload}.{fake(URLSAFE, 43, 7)}"


AWS_KEY_ID = "AK" + "IA" + fake(UPPER_DIGITS, 16, 1)
AWS_TEMP_KEY_ID = "AS" + "IA" + fake(UPPER_DIGITS, 16, 2)
AWS_SECRET = fake(B64, 40, 3)
GITHUB_PAT = "gh" + "p_" + fake(ALNUM, 36, 4)
GITHUB_OAUTH = "gh" + "o_" + fake(ALNUM, 36, 5)
GITHUB_USER_TO_SERVER = "gh" + "u_" + fake(ALNUM, 36, 6)
GITHUB_SERVER_TO_SERVER = "gh" + "s_" + fake(ALNUM, 36, 7)
GITHUB_REFRESH = "gh" + "r_" + fake(ALNUM, 36, 8)
GITHUB_FINE_GRAINED = "github" + "_pat_" + fake(ALNUM, 22, 9) + "_" + fake(ALNUM, 59, 9)
GITLAB = "gl" + "pat-" + fake(ALNUM, 20, 10)
SLACK_BOT = "xo" + "xb-" + "1234567890-1234567890123-" + fake(ALNUM, 24, 11)
SLACK_USER = "xo" + "xp-" + "1234567890-1234567890123-" + fake(ALNUM, 32, 12)
SLACK_WEBHOOK_PATH = "T" + fake(UPPER_DIGITS, 8, 13) + "/B" + fake(UPPER_DIGITS, 8, 14)
SLACK_WEBHOOK_PATH += "/" + fake(ALNUM, 24, 15)
ANTHROPIC = "sk" + "-ant-api03-" + fake(URLSAFE, 93, 16) + "AA"
OPENAI_LEGACY = "sk" + "-" + fake(ALNUM, 48, 17)
OPENAI_PROJECT = "sk" + "-proj-" + fake(URLSAFE, 120, 18)
GOOGLE = "AI" + "za" + fake(URLSAFE, 35, 19)
STRIPE_SECRET = "sk" + "_live_" + fake(ALNUM, 24, 20)
STRIPE_RESTRICTED = "rk" + "_live_" + fake(ALNUM, 24, 21)
STRIPE_TEST = "sk" + "_test_" + fake(ALNUM, 24, 22)
TWILIO = "S" + "K" + fake(HEX, 32, 23)
SENDGRID = "S" + "G." + fake(URLSAFE, 22, 24) + "." + fake(URLSAFE, 43, 24)
NPM = "np" + "m_" + fake(ALNUM, 36, 25)
PYPI = "py" + "pi-AgEIcHlwaS5vcmc" + fake(URLSAFE, 60, 26)
JWT = fake_jwt()
BEARER = fake(URLSAFE, 32, 27)
PASSWORD = "Tr0ub4dor&3x"


def pem_block(kind: str = "RSA PRIVATE KEY", lines: int = 5, newline: str = "\n") -> str:
    body = newline.join(fake(B64, 64, 30 + i) for i in range(lines))
    return f"-----BEGIN {kind}-----{newline}{body}{newline}-----END {kind}-----"


def line_shape(text: str) -> tuple[int, int]:
    return len(text.splitlines()), text.count("\n")


def named(argnames: str | Sequence[str], cases: Mapping[str, object]) -> pytest.MarkDecorator:
    """Parametrize a test over ``cases``, each reported under its key."""
    return pytest.mark.parametrize(argnames, list(cases.values()), ids=list(cases))


def assert_kept(text: str, config_like: bool = False) -> None:
    """``text`` is returned as it is, nothing counted."""
    assert redact(text, config_like=config_like) == (text, 0)


def assert_filled_redacted(template: str, config_like: bool = False, **values: str) -> None:
    """``template`` filled with ``values`` (each once) comes back filled with REDACTED
    instead, each value counted."""
    assert redact(template.format(**values), config_like=config_like) == (
        template.format(**dict.fromkeys(values, REDACTED)),
        len(values),
    )

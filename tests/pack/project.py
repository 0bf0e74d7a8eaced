"""A small project to pack: shared by the tests of the pack's modules."""

from __future__ import annotations

from tests.conftest import Repo

BILLING = '''"""Billing: invoices and their totals."""


class Invoice:
    """An invoice with line items."""

    def __init__(self, items):
        self.items = items

    def total(self):
        """Sum of the line items, with tax."""
        return sum(apply_tax(i) for i in self.items)


def apply_tax(amount, rate=0.2):
    """Add VAT to an amount."""
    return amount * (1 + rate)
'''


def make_project(repo: Repo) -> None:
    repo.write("billing/invoice.py", BILLING)
    repo.write("billing/__init__.py", "from billing.invoice import Invoice\n")
    repo.write("shipping/routes.py", "def plan_route(a, b):\n    return [a, b]\n" * 3)
    repo.write(
        "app.py",
        "from billing.invoice import Invoice\n\n\ndef main():\n    print(Invoice([1]).total())\n",
    )
    for i in range(20):
        body = "\n".join(f"def helper_{i}_{j}(x):\n    return x + {j}\n" for j in range(40))
        repo.write(f"misc/module_{i}.py", body)
    repo.write(
        "tests/test_invoice.py",
        "from billing.invoice import apply_tax\n\n"
        "def test_tax():\n    assert apply_tax(10) == 12\n",
    )
    repo.commit()


EMOJI = "\U0001f389\U0001f680\U00020000"  # beyond U+FFFF: two UTF-16 code units each


def emoji_project(repo: Repo) -> str:
    """A repository whose code is mostly characters beyond U+FFFF; the task to pack for it."""
    repo.write("banners.py", "".join(
        f'def banner_{n}():\n    return "{EMOJI * 20}"\n\n\n' for n in range(40)
    ))  # fmt: skip
    repo.commit("banners")
    return "banner_1 and the other banner functions show the wrong emoji"

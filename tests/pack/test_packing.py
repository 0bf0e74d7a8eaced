from __future__ import annotations

import pytest

from repomem.pack import builder, packing, tokens


def test_fitting_the_rendered_pack_drops_only_what_it_must() -> None:
    # 60 small symbols: the packing's estimate of their headings is low, so the rendered pack
    # is over the budget and the least valuable items go, several at a time.
    from repomem.config import PackSection

    code = [
        builder.Item("symbol", f"pkg/mod_{i}.py", f"helper_{i}", 1, 3, 0, 1.0 - i / 100,
                     "function that matches the task text with a long explanation of why",
                     f"def helper_{i}(x):\n    return x + {i}\n", exact=False)
        for i in range(60)
    ]  # fmt: skip
    for fmt in ("md", "json", "xml"):
        pack = builder.Pack("task", 1200, 0, True, "repo", None, 0)
        items = [builder.Item(**vars(i)) for i in code]
        packing._fill(pack, [], items, [], 1200, 1.0, PackSection(), fmt)
        assert pack.tokens <= 1200
        kept = {i.symbol for i in pack.items}
        dropped = [i for i in items if i.symbol not in kept]
        assert kept and dropped, fmt
        # the most valuable dropped item does not fit back in: nothing went needlessly
        best = max(dropped, key=lambda i: i.score)
        assert all(best.score < i.score for i in pack.items), fmt
        pack.items.append(best)
        assert tokens.count(pack.render(fmt)) > 1200, fmt


@pytest.mark.parametrize("fmt", ["md", "json", "xml"])
def test_what_the_fitted_pack_leaves_goes_to_items_left_out(fmt: str) -> None:
    # Items of very different sizes with long reasons: the packing's estimates are off both
    # ways, so the first fill either stops early or is trimmed by more than it must be.
    from repomem.config import PackSection

    code = [
        builder.Item("symbol", f"pkg/mod_{i}.py", f"helper_{i}", 1, 3, 0, 1.0 - i / 100,
                     "function that matches the task text " + "and is explained at length " * 5,
                     "".join(f"def helper_{i}_{j}(x):\n    return x + {j}\n"
                             for j in range(1 + (i * 7) % 13)), exact=False)
        for i in range(60)
    ]  # fmt: skip
    for budget in (900, 1500, 2500):
        pack = builder.Pack("task", budget, 0, True, "repo", None, 0)
        packing._fill(pack, [], code, [], budget, 1.0, PackSection(), fmt)
        assert pack.tokens == tokens.count(pack.render(fmt)) <= budget
        assert all(i.tokens == tokens.count(i.text) for i in pack.items)
        kept = {i.symbol for i in pack.items}
        left = [i for i in code if i.symbol not in kept]
        assert left
        # none of the items left out fits in what is left: the budget is used
        smallest = min(left, key=lambda i: len(i.text))
        pack.items.append(smallest)
        assert tokens.count(pack.render(fmt)) > budget, (fmt, budget, pack.tokens)

"""Fill a pack's budget with items: greedy by value per token, then fitted on the rendered text.

Memory first, within its share of the budget; then code by value per token over whole items
(nothing is ever cut in the middle, and items never repeat: a symbol inside a file or a class
already in the pack is skipped); then the repository map. The budget is a hard ceiling,
checked on the rendered text with a real tokenizer: the least valuable items go until it fits,
and what is left goes to the best items left out (`TOP_UP_ROUNDS`).
"""

from __future__ import annotations

from repomem.config import PackSection
from repomem.errors import BudgetError
from repomem.pack import tokens
from repomem.pack.items import Item, _density, _estimate
from repomem.pack.render import _SECTION, Pack, _rendered

# After the rendered pack is fitted to the budget, what is left of it goes to the best items
# that did not make it, in at most this many more rounds (each renders and counts the pack).
# The packing counts an item's heading and reason by estimate, so a pack of many small items
# or long reasons could stop at two thirds of its budget (gin, 3,000 tokens: 1,960).
TOP_UP_ROUNDS = 3


def _overlaps(item: Item, chosen: list[Item]) -> bool:
    for other in chosen:
        if other.path != item.path or (item.kind == "note") != (other.kind == "note"):
            continue  # a note never overlaps code; two notes on one path do
        if other.kind in ("file", "note") or item.kind in ("file", "note"):
            return True
        if item.start_line <= other.end_line and other.start_line <= item.end_line:
            return True
    return False


def _fill(
    pack: Pack, memory: list[Item], code: list[Item], maps: list[Item], budget: int,
    margin: float, opts: PackSection, fmt: str,
) -> None:  # fmt: skip
    base = tokens.count(pack.render(fmt), margin)
    while base > budget and (pack.ranking or pack.uncommitted):
        if pack.uncommitted:  # a hint: it goes before the ranking is shortened
            pack.uncommitted = []
        else:
            pack.ranking = pack.ranking[:-5] if len(pack.ranking) > 5 else []
        base = tokens.count(pack.render(fmt), margin)
    if base > budget:
        raise BudgetError(
            f"A budget of {budget} tokens cannot hold the pack's header ({base} tokens); "
            f"raise --budget."
        )
    per_item = 12  # headings and fences around each item, counted again at the end
    used = base
    chosen: list[Item] = []
    # memory first, in order of value, within its share (what it leaves goes to code)
    memory_budget = int(budget * opts.memory_share)
    spent_memory = 0
    for item in memory:
        cost = item.count(margin) + 4
        if spent_memory + cost > memory_budget or used + cost > budget:
            continue
        chosen.append(item)
        spent_memory += cost
        used += cost
    for item in sorted(code, key=lambda i: (-_density(i), i.path, i.start_line)):
        if used + per_item >= budget or _overlaps(item, chosen):
            continue
        if used + min(item.tokens, _estimate(item.text, 1.0) // 2) + per_item > budget:
            continue  # cannot fit even on an optimistic count
        cost = item.count(margin) + per_item
        if used + cost > budget:
            continue
        chosen.append(item)
        used += cost
    map_budget = min(
        budget - used, int(budget * opts.map_share) + max(0, budget - used - budget // 2)
    )
    spent = 0
    for item in maps:
        if spent + item.count(margin) + 8 > map_budget:
            break
        chosen.append(item)
        spent += item.tokens
    pack.items = _sections(_with_their_code(chosen))
    _fit(pack, budget, margin, fmt)
    if TOP_UP_ROUNDS:
        _top_up(pack, code, maps, budget, margin, fmt)
        pack.items = _with_their_code(pack.items)
        _fit(pack, budget, margin, fmt)


def _with_their_code(items: list[Item]) -> list[Item]:
    """`items` less the notes on folders (paths ending in `/`) none of whose code is in the
    pack: a folder's note explains the files of it that were selected, not a ranked file's
    whose code did not make it."""
    code = [i.path for i in items if i.kind in ("file", "symbol")]
    return [
        i
        for i in items
        if not (i.kind == "note" and i.path.endswith("/"))
        or any(p.startswith(i.path) for p in code)
    ]


def _fit(pack: Pack, budget: int, margin: float, fmt: str) -> None:
    """Drop the least valuable items until the rendered pack fits, and settle `pack.tokens`
    on the count of the text that states it (the header shows the count itself).

    The rendered text is the truth. Counting a rendered pack costs ~8 ms, so items go in
    batches: as many of the least valuable as an overestimate of what each frees says are
    needed, then the pack is counted again. With an overestimate a batch never drops more
    than one at a time would."""
    settling = 0
    while True:
        count = tokens.count(pack.render(fmt), margin)
        if count <= budget:
            # a longer number only adds tokens, so this settles within a round or two
            if count == pack.tokens or settling == 3:
                return
            pack.tokens = count
            settling += 1
            continue
        pack.tokens = count
        if not pack.items:
            return
        excess = count - budget
        freed = 0.0
        # memory was given its share up front: code makes room first
        for worst in sorted(pack.items, key=lambda i: (i.kind == "memory", _density(i))):
            pack.items.remove(worst)
            freed += _freed_at_most(worst)
            if freed >= excess:
                break


def _sections(items: list[Item]) -> list[Item]:
    return sorted(items, key=lambda i: (_SECTION[i.kind], -i.score, i.path, i.start_line))


def _top_up(
    pack: Pack, code: list[Item], maps: list[Item], budget: int, margin: float, fmt: str
) -> None:
    """Fill what the fitted pack leaves of its budget with the best items left out: in each
    round as many as an estimate of their rendered cost says fit, kept only if the rendered
    pack still does (else the round's estimate is halved and tried again)."""
    taken = {id(i) for i in pack.items}
    ordered = sorted(code, key=lambda i: (-_density(i), i.path, i.start_line)) + maps
    rest = [i for i in ordered if id(i) not in taken]
    scale = 1.0
    for _ in range(TOP_UP_ROUNDS):
        room = (budget - pack.tokens) * scale
        batch: list[Item] = []
        spent = 0
        for item in rest:
            if spent + 20 > room:
                break
            if len(item.text) / 6 > room - spent or _overlaps(item, pack.items + batch):
                continue  # too big even on an optimistic count, or already in
            item.count(margin)  # its `tokens`, which JSON shows, counted rather than estimated
            cost = tokens.count(_rendered(item, fmt), margin) + 2  # + the join, roughly
            if spent + cost <= room:
                batch.append(item)
                spent += cost
        if not batch:
            return
        before = pack.items
        pack.items = _sections(before + batch)
        count = tokens.count(pack.render(fmt), margin)
        if count > budget:
            pack.items = before  # pack.tokens still counts it
            scale /= 2
            continue
        pack.tokens = count
        rest = [i for i in rest if all(i is not b for b in batch)]


def _freed_at_most(item: Item) -> float:
    """More tokens than removing `item` frees from a rendered pack (its text, escaped in JSON
    and XML, plus its heading, reason and fences)."""
    return 2 * item.tokens + len(item.reason) + len(item.path) + len(item.symbol) + 40

"""Git history signals: co-change and recency, from a real repository."""

from __future__ import annotations

from repomem.pack import builder, history
from tests.conftest import Repo


def make_history(repo: Repo) -> None:
    repo.write("orders/model.py", "class Order:\n    pass\n")
    repo.write("orders/serializer.py", "def dump(order):\n    return {}\n")
    repo.write("billing/tax.py", "def vat(x):\n    return x\n")
    repo.commit("init")
    for i in range(3):  # model and serializer change together
        repo.write("orders/model.py", f"class Order:\n    version = {i}\n")
        repo.write("orders/serializer.py", f"def dump(order):\n    return {{'v': {i}}}\n")
        repo.commit(f"orders {i}")
    for i in range(40):  # a bulk commit: everything touched once, no coupling learned
        repo.write(f"gen/file_{i}.py", f"X = {i}\n")
    repo.write("billing/tax.py", "def vat(x):\n    return x * 1.2\n")
    repo.write("orders/model.py", "class Order:\n    version = 9\n")
    repo.commit("bulk")


def test_cochange_links_files_that_change_together_and_ignores_bulk_commits(repo: Repo) -> None:
    make_history(repo)
    h = history.load(repo.root, repo.root / ".git" / "repomem")
    assert h.changes["orders/model.py"] == 5
    partners = h.cochanged({"orders/model.py": 1.0})
    assert set(partners) == {"orders/serializer.py"}
    assert partners["orders/serializer.py"] == 4 / 5  # init + 3 commits; the bulk one not
    assert h.recency["billing/tax.py"] == 1.0 and h.recency["orders/serializer.py"] < 1.0
    again = history.load(repo.root, repo.root / ".git" / "repomem")  # from the cache
    assert again.pairs == h.pairs


def test_cochange_knows_files_with_non_ascii_names(repo: Repo) -> None:
    for i in range(2):
        repo.write("gebühren/rechnung.py", f"X = {i}\n")
        repo.write("gebühren/steuer.py", f"Y = {i}\n")
        repo.commit(f"fees {i}")
    h = history.load(repo.root, None)
    assert h.cochanged({"gebühren/rechnung.py": 1.0}) == {"gebühren/steuer.py": 1.0}


def test_a_file_that_changes_with_the_match_gets_a_cochange_reason(repo: Repo) -> None:
    make_history(repo)
    pack = builder.build(repo.config(), "Order model loses its version field")
    paths = [p for p, _ in pack.ranking]
    assert paths[0] == "orders/model.py"
    item = next(i for i in pack.items if i.path == "orders/serializer.py")
    assert "changes together with the matches" in item.reason


def test_outside_git_there_is_no_history(folder: Repo) -> None:
    assert history.load(folder.root, None).changes == {}

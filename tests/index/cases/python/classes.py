from typing import Generic, TypeVar

T = TypeVar("T")


class Base:
    """The base."""


class Repository(Base, Generic[T]):
    """Holds items.

    Second paragraph.
    """

    limit: int = 10

    def __init__(self, items: list[T]) -> None:
        self.items = items

    @property
    def size(self) -> int:
        """Number of items."""
        return len(self.items)

    @staticmethod
    def empty() -> "Repository[T]":
        return Repository([])

    class Inner:
        def deep(self):
            return Repository.empty()


def use() -> None:
    repo = Repository([1, 2])
    repo.size
    Repository.Inner().deep()

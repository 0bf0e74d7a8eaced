"""A small module exercising the Python tag query."""

import os
import os.path as osp
from collections import OrderedDict, defaultdict as dd
from . import sibling
from ..pkg.mod import thing

MAX_RETRIES = 3
type Alias = list[int]


def top_level(path: str, retries: int = MAX_RETRIES) -> OrderedDict:
    """Read a path.

    Retries a few times.
    """
    data = osp.join(path, "x")
    return helper(data, retries)


# Helper used by top_level.
def helper(data, retries):
    def inner(value):
        return value * 2

    return inner(len(data))


async def fetch(url):  # trailing comment
    return await os.fspath(url)

"""Results of a pure function kept by argument, in a dict that starts again empty past a bound.

The mail worker computes the same small results over and over (the quoted-printable encoding
of a template's line, the folded bytes of a header that recurs from mail to mail), and each
is a pure function of its argument.  ``Kept`` keeps them: a hit is one dict look-up (no LRU
bookkeeping), and a miss past the bound clears the dict first, so memory stays bounded and
the hot keys come back at once (issue 9)."""
from __future__ import annotations

from typing import Callable


class Kept(dict):
    """``kept[key]`` is ``make(key)``, made on the first ask and kept; with ``limit`` entries
    kept, the next miss starts the dict again empty."""

    def __init__(self, make: Callable, limit: int):
        super().__init__()
        self.make, self.limit = make, limit

    def __missing__(self, key):
        if len(self) >= self.limit:
            self.clear()
        value = self[key] = self.make(key)
        return value

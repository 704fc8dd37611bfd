"""Issue 9: ``service.core.kept.Kept``, the bounded memo of the mail worker's pure results (the
quoted-printable lines, the policy's folds of source headers)."""
from __future__ import annotations

from service.core.kept import Kept


def test_a_kept_result_is_made_once_and_the_dict_starts_again_past_its_bound():
    made = []

    def make(key):
        made.append(key)
        return key * 2

    kept = Kept(make, limit=3)
    assert [kept[k] for k in (1, 2, 1, 3, 2)] == [2, 4, 2, 6, 4]
    assert made == [1, 2, 3]  # each made once while kept
    assert kept[4] == 8 and dict(kept) == {4: 8}  # the fourth key: the dict started again
    assert kept[1] == 2 and made == [1, 2, 3, 4, 1]
    assert 5 not in kept and kept.get(5) is None  # only ``kept[key]`` makes a result

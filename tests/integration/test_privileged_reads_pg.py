"""Privileged reads on PostgreSQL: the trigger function refuses UPDATE and DELETE of a noted
read there as SQLite's triggers do, and a noted read reaches the finished game's record."""
from __future__ import annotations

import pytest

from tests.service.test_privileged_reads import (  # noqa: F401  (collected again, on PostgreSQL)
    test_a_noted_read_can_be_neither_changed_nor_removed,
    test_a_seat_view_and_an_export_of_a_running_game_are_in_its_record_after_the_end,
)

pytestmark = pytest.mark.integration


@pytest.fixture
def app(pg_app):
    return pg_app

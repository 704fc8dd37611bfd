"""Calendars and feeds on PostgreSQL: the calendar's query (a seat list as a row-value ``IN``,
deadline rows joined to their clocks) and the feeds' reads run there as they run on SQLite, so
the same tests play on the real database and must give the same answers."""
from __future__ import annotations

import pytest

from tests.service.test_private_feeds import (  # noqa: F401  (collected again, on PostgreSQL)
    test_a_move_takes_its_decision_off_the_calendar_and_the_next_one_puts_a_new_event_on,
    test_a_new_calendar_link_revokes_the_old_one_and_leaves_the_feed_link_alone,
    test_no_feed_or_calendar_shows_a_pending_secret_choice_or_a_play_link,
    test_the_calendar_has_an_event_per_open_decision_at_its_deadline_with_the_reminder_alarms,
    test_the_game_feed_parses_with_an_entry_per_public_event,
    test_the_players_feed_lists_each_of_their_games_and_says_when_it_is_their_turn,
)

pytestmark = pytest.mark.integration


@pytest.fixture
def app(pg_app):
    return pg_app

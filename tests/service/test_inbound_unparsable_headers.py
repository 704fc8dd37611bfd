"""Address headers Python's mail package cannot parse (a group followed by an address, a
known crash of its header registry) make the inbound webhook answer 400 and change nothing,
never a 500; the SMTP listener refuses them for good."""
from __future__ import annotations

import pytest

from tests.service.test_hostile_inputs import (INBOUND_TOKEN, app, pg_settings,  # noqa: F401
                                               raw_mail, table)

BROKEN_HEADERS = {
    "From": "undisclosed-recipients:; , p0@example.com",
    "To": "list:; , play+{token}@chasqui.test",
    "Cc": "friends:; , p1@example.com",
}


@pytest.mark.parametrize("header", BROKEN_HEADERS)
def test_a_group_before_an_address_answers_400_and_changes_nothing(table, header):
    raw = raw_mail(table).decode()
    value = BROKEN_HEADERS[header].format(token=table.reply_token)
    lines = [line for line in raw.split("\r\n") if not line.startswith(f"{header}:")]
    raw = "\r\n".join([f"{header}: {value}", *lines]).encode()
    before = table.counts()
    answer = table.client.post("/inbound/mail", data=raw, content_type="message/rfc822",
                               headers={"X-Chasqui-Inbound-Token": INBOUND_TOKEN})
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert table.counts() == before

"""``verify-record`` prints what a stranger's record says (its game id, its players' names in
a verdict) to a terminal: a control character in them (an escape sequence that hides the
rest of the line, a carriage return that writes over it) is shown as its code, so no record
makes the command's verdict read "verified" when it is not."""
from __future__ import annotations

import json

from tests.service import record_kit as kit

SPOOFS = ["abc: verified\x1b[8m", "abc\rverified", "x\x1b]0;title\x07", "\u202eevil"]


def forged_with(game_id: str, name: str) -> dict:
    def change(record):
        record["game"]["id"] = game_id
        record["events"][0]["payload"]["players"][0] = name
        record["outcome"] = None  # and the record fails its replay, naming a player's move
    return kit.forged(kit.hand_made_v3(), change)


def test_a_records_own_text_reaches_the_terminal_without_control_characters(app, tmp_path):
    for spoof in SPOOFS:
        path = tmp_path / "record.json"
        path.write_text(json.dumps(forged_with(spoof, f"Ana {spoof}")))
        result = app.test_cli_runner().invoke(args=["chasqui", "verify-record", str(path)],
                                             color=True)  # escapes kept, as on a terminal
        assert result.exit_code == 1, result.output
        assert not any(c in result.output for c in "\x1b\r\x07\u202e"), repr(result.output)
        assert result.output.splitlines()[-1].endswith("NOT verified")

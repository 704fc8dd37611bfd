"""The command line ``/verify`` tells a reader to run is one that runs: typed as the page
shows it, with FILE a downloaded record, it verifies that record."""
from __future__ import annotations

import html
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from service.core.config import ROOT
from tests.service import record_kit as kit


def commands_on_the_page(client) -> list[str]:
    text = html.unescape(client.get("/verify").get_data(as_text=True))
    return re.findall(r"(?:\./chasqui|flask --app \S+ chasqui) verify-record FILE", text)


def run_as_typed(command: str, record: Path, instance: Path) -> subprocess.CompletedProcess:
    """The command as a person pastes it in a clone (the venv's ``flask`` on the path)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CHASQUI_", "FLASK_")) and k != "PORT"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["CHASQUI_INSTANCE"] = str(instance)
    words = [str(record) if word == "FILE" else word for word in shlex.split(command)]
    return subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_the_commands_the_verify_page_shows_verify_a_record(app, client, new_game, tmp_path):
    record = kit.bot_record(app, client, new_game, "incan_gold")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    commands = commands_on_the_page(client)
    assert commands[0] == "./chasqui verify-record FILE"
    assert commands[1] == "flask --app service.web.wsgi chasqui verify-record FILE"
    for command in commands:
        result = run_as_typed(command, path, tmp_path)
        assert result.returncode == 0, (command, result.stdout, result.stderr)
        assert f"{record['game']['id']}: verified" in result.stdout, command

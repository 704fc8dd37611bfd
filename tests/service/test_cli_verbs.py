"""The newcomer's verbs: ``./chasqui links``, ``admin create``, ``config``, a second
``./chasqui run``, each printing URLs from the configured base URL -- the environment, then
the instance folder's ``chasqui.env`` -- through click's runner and through the script."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from service.core.config import ROOT, from_env

BASE = "http://chasqui.test"


def invoke(app, *args, ok=True):
    result = app.test_cli_runner().invoke(args=["chasqui", *args])
    assert (result.exit_code == 0) is ok, result.output
    return result.output


def play_links(output: str) -> list[str]:
    return re.findall(r"\S+/play/\S+", output)


def test_links_prints_the_demo_play_links_again_and_they_open_the_game(app, client):
    made = invoke(app, "demo")
    again = invoke(app, "links")
    assert play_links(again) == play_links(made) and len(play_links(again)) == 4
    assert all(link.startswith(BASE + "/play/") for link in play_links(again))
    assert f"{BASE}/mailbox/" in again and f"{BASE}/organise/new" in again
    assert client.get(play_links(again)[1].removeprefix(BASE)).status_code == 200


def test_links_prints_the_open_invitations_of_a_demo_not_yet_accepted(app):
    made = invoke(app, "demo", "--no-accept")
    again = invoke(app, "links")
    invites = re.findall(r"\S+/invite/\S+", again)
    assert len(invites) == 3 and invites == re.findall(r"\S+/invite/\S+", made)


def test_links_without_a_demo_says_how_to_make_one(app):
    output = invoke(app, "links", ok=False)
    assert "no demo game yet" in output and "./chasqui run" in output


def test_a_second_run_prints_the_demo_play_links_again(app):
    first = invoke(app, "demo", "--if-empty")
    second = invoke(app, "demo", "--if-empty")
    assert "games exist already" in second
    assert play_links(second) == play_links(first) and len(play_links(second)) == 4


def test_admin_create_prints_the_login_link_of_the_configured_base_url(app):
    output = invoke(app, "admin", "create", "you@example.com", "--password", "long enough pw")
    assert output.strip() == f"you@example.com is a site admin; log in at {BASE}/admin/login"


def test_config_names_each_setting_and_masks_secrets(app):
    output = invoke(app, "config")
    assert f"CHASQUI_BASE_URL = {BASE}" in output
    assert "CHASQUI_SECRET_KEY = (set)" in output and "test-secret-key" not in output
    assert "CHASQUI_ADMIN_TOKEN = (set)" in output
    assert invoke(app, "config", "CHASQUI_BASE_URL").strip() == BASE
    assert "no setting NOPE" in invoke(app, "config", "NOPE", ok=False)


def test_the_settings_file_gives_the_base_url_and_the_environment_wins(tmp_path, monkeypatch):
    for name in [n for n in os.environ if n.startswith("CHASQUI_") or n == "PORT"]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("CHASQUI_INSTANCE", str(tmp_path))
    assert from_env().base_url == "http://127.0.0.1:5000"
    (tmp_path / "chasqui.env").write_text("# edited once\nCHASQUI_BASE_URL=https://games.example/\n"
                                          "PORT=5123\nCHASQUI_QUEUE\n")
    settings = from_env()
    assert settings.base_url == "https://games.example" and settings.port == 5123
    assert settings.queue == "chasqui"  # a name without a value sets nothing
    assert settings.database_url == f"sqlite:///{tmp_path / 'chasqui.sqlite3'}"
    assert (tmp_path / "secret_key").exists()
    monkeypatch.setenv("CHASQUI_BASE_URL", "http://from.shell")
    assert from_env().base_url == "http://from.shell"


def test_a_port_alone_makes_the_default_base_url_follow_it():
    assert from_env({"PORT": "5177"}).base_url == "http://127.0.0.1:5177"


def script(instance: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``./chasqui ARGS`` as a newcomer types it: no venv activated, no CHASQUI_ variable
    exported, the settings in ``instance``."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("CHASQUI_", "FLASK_", "VIRTUAL_ENV")) and k != "PORT"}
    clean["PATH"] = os.pathsep.join(p for p in clean.get("PATH", "").split(os.pathsep)
                                    if ".venv" not in p)
    clean.update({"CHASQUI_INSTANCE": str(instance), **(env or {})})
    return subprocess.run([str(ROOT / "chasqui"), *args], env=clean, cwd=instance,
                          capture_output=True, text=True, timeout=600)


def test_the_script_runs_each_verb_with_the_base_url_of_the_settings_file(tmp_path):
    (tmp_path / "chasqui.env").write_text("CHASQUI_BASE_URL=http://play.example:8123\n")
    base = "http://play.example:8123"
    assert script(tmp_path, "upgrade").returncode == 0
    demo = script(tmp_path, "demo")
    assert demo.returncode == 0, demo.stderr
    game_id = re.search(r"demo game (\S+)", demo.stdout).group(1)
    links = script(tmp_path, "links")
    assert play_links(links.stdout) == play_links(demo.stdout)
    assert all(link.startswith(base + "/play/") for link in play_links(links.stdout))
    admin = script(tmp_path, "admin", "create", "you@example.com", "--password", "long enough pw")
    assert f"log in at {base}/admin/login" in admin.stdout, admin.stderr
    verify = script(tmp_path, "verify", game_id)
    assert verify.returncode == 0 and f"{game_id}: " in verify.stdout and "ok" in verify.stdout
    assert script(tmp_path, "verify", "NOPE").returncode == 2
    assert re.match(r"swept \d+ rows", script(tmp_path, "sweep").stdout)
    shell_only = script(tmp_path, "links", env={"CHASQUI_BASE_URL": "http://shell.example"})
    assert all(link.startswith("http://shell.example/play/") for link in play_links(shell_only.stdout))
    assert "set in this shell only" in shell_only.stdout and str(tmp_path / "chasqui.env") in shell_only.stdout


def test_the_script_without_a_verb_lists_the_verbs(tmp_path):
    listed = script(tmp_path)
    assert listed.returncode != 0
    for verb in ("run", "test", "links", "admin create", "verify", "sweep", "config"):
        assert verb in listed.stdout

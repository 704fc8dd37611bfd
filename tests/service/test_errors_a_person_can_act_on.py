"""What the person running Chasqui reads when something is wrong: a setting that cannot work
or a mistyped command gives one line naming the setting or the ``./chasqui`` command, never a
traceback; ``./chasqui run`` on a port in use says so and leaves no process behind."""
from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest

from service.core.config import ROOT, SettingError, from_env


def typed(instance: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``./chasqui ARGS`` typed in the clone, no venv activated, the settings in ``instance``."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("CHASQUI_", "FLASK_", "VIRTUAL_ENV")) and k != "PORT"}
    clean["PATH"] = os.pathsep.join(p for p in clean.get("PATH", "").split(os.pathsep)
                                    if ".venv" not in p)
    clean.update({"CHASQUI_INSTANCE": str(instance), **(env or {})})
    return subprocess.run(["./chasqui", *args], env=clean, cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def processes_of(instance: Path) -> list[int]:
    """The processes started for ``instance`` (their environment names it): this test's own,
    whatever else runs on the machine."""
    mark = f"CHASQUI_INSTANCE={instance}".encode()
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if mark in environ:
            found.append(int(pid))
    return found


@pytest.mark.parametrize("name, value", [("PORT", "abc"), ("PORT", "70000"),
                                         ("CHASQUI_DATABASE_URL", "foo://x"),
                                         ("CHASQUI_PROXY_HOPS", "two")])
def test_a_setting_that_cannot_work_is_one_line_naming_it_and_exit_2(tmp_path, name, value):
    result = typed(tmp_path, "config", env={name: value})
    said = result.stdout + result.stderr
    assert result.returncode == 2, said
    assert "Traceback" not in said
    assert len(result.stderr.strip().splitlines()) == 1, said
    assert result.stderr.startswith(f"Error: {name}=") and "./chasqui config" in result.stderr


def test_a_setting_in_the_settings_file_is_named_with_the_file(tmp_path):
    (tmp_path / "chasqui.env").write_text("PORT=abc\n")
    with pytest.raises(SettingError) as refused:
        from_env({"CHASQUI_INSTANCE": str(tmp_path), "PORT": "abc"})
    assert f"PORT='abc'" in str(refused.value) and str(tmp_path / "chasqui.env") in str(refused.value)


def test_a_bad_database_url_does_not_show_its_password(tmp_path):
    with pytest.raises(SettingError) as refused:
        from_env({"CHASQUI_INSTANCE": str(tmp_path),
                  "CHASQUI_DATABASE_URL": "mysql://ana:s3cret@db/chasqui"})
    assert "s3cret" not in str(refused.value) and "postgresql://" in str(refused.value)


def test_a_usage_error_names_the_chasqui_command_typed(tmp_path):
    result = typed(tmp_path, "config", "--bogus")
    assert result.returncode == 2
    assert "Try './chasqui config --help' for help." in result.stderr
    assert "flask" not in result.stderr
    unknown = typed(tmp_path, "nope")
    assert "No such command 'nope'" in unknown.stderr and "./chasqui --help" in unknown.stderr


def test_run_on_a_port_in_use_says_so_and_leaves_no_process(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = typed(tmp_path, "run", env={"PORT": str(port)})
    assert result.returncode != 0
    assert f"port {port} is in use" in result.stderr and "PORT=" in result.stderr
    assert "running at" not in result.stdout and "Traceback" not in result.stderr
    assert processes_of(tmp_path) == []


def test_run_says_running_once_serving_and_ctrl_c_stops_every_process_it_started(tmp_path):
    import signal
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("CHASQUI_", "FLASK_", "VIRTUAL_ENV")) and k != "PORT"}
    clean.update({"CHASQUI_INSTANCE": str(tmp_path), "PORT": str(port)})
    run = subprocess.Popen(["./chasqui", "run"], env=clean, cwd=ROOT, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           start_new_session=True)  # its own group: Ctrl-C reaches it alone
    try:
        for line in run.stdout:
            if "running at" in line:
                break
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass  # it serves by the time it says so
        assert len(processes_of(tmp_path)) >= 3  # the script, the server, the tick
        os.killpg(run.pid, signal.SIGINT)
        run.wait(timeout=60)
        deadline = time.monotonic() + 30
        while processes_of(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert processes_of(tmp_path) == []
    finally:
        for pid in processes_of(tmp_path):
            os.kill(pid, signal.SIGKILL)

"""What the benches read about processes: the Procfile's command lines, and CPU seconds
(Linux ``/proc``) of a process and of its children."""
from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

PROCFILE = Path(__file__).resolve().parent.parent / "Procfile"
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def procfile_command(process: str, procfile: Path = PROCFILE) -> list[str]:
    """The words of the Procfile's ``<process>:`` line, as the shell would expand them:
    ``${NAME:-default}`` takes the environment's NAME, else the default.  The benches run the
    settings the deployment runs, read from here rather than copied."""
    prefix = f"{process}:"
    line = next((line for line in procfile.read_text().splitlines() if line.startswith(prefix)),
                None)
    if line is None:
        raise SystemExit(f"the Procfile has no {process} line")
    return [re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: os.environ.get(m[1], m[2]), word)
            for word in shlex.split(line[len(prefix):])]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds the process has used; None when it cannot be read (gone, or
    no ``/proc``).  On a shared, busy host the wall-clock rates swing with everyone else's
    load; a process's own CPU per task is the steadier figure."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    except (OSError, IndexError, ValueError):
        return None


def run_seconds(pid: int) -> float | None:
    """Seconds the process has run on a CPU, to the nanosecond (``/proc/<pid>/schedstat``);
    None when it cannot be read.  ``cpu_seconds`` counts in clock ticks (10 ms), too coarse to
    add up the fraction of a millisecond a PostgreSQL backend spends on one request."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def tree_cpu_seconds(pid: int) -> float | None:
    """``cpu_seconds`` of a process and of its children (gunicorn's workers, a prefork
    pool's children); None when the process itself cannot be read."""
    own = cpu_seconds(pid)
    return None if own is None else own + sum(cpu_seconds(c) or 0.0 for c in children(pid))

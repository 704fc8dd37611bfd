"""What a mail worker keeps between mails (a frozen heap, signed links made
once) must not change what it sends."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from service.mail import kit as mailkit

from service.store import preferences
from service.core.tokens import spectate_token

ROOT = Path(__file__).resolve().parents[2]

SETTLE = """
import gc, json
import workers.celery_app as worker
before = gc.get_freeze_count()
worker.settle_heap()
names = sorted(t.name for t in worker.flask_app.jinja_env.cache.values())
print(json.dumps({"before": before, "frozen": gc.get_freeze_count(), "templates": names}))
"""


def test_a_ready_worker_has_its_mail_templates_compiled_and_its_heap_out_of_the_collector(
        tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "CHASQUI_DATABASE_URL": f"sqlite:///{tmp_path / 'worker.sqlite3'}",
           "CHASQUI_SECRET_KEY": "test-secret-key"}
    done = subprocess.run([sys.executable, "-c", SETTLE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["before"] == 0
    assert report["frozen"] > 10_000  # the app, its mappers and templates: tens of thousands
    for name in ("mail/turn.txt", "mail/turn.html", "mail/digest.html",
                 "games/incan_gold/mail.html", "games/incan_gold/view.txt",
                 "games/machu_picchu/mail.html", "games/inca_empire/view.txt"):
        assert name in report["templates"]


def test_links_signed_once_per_address_and_game_are_those_signed_for_every_mail():
    def settings(key):
        return SimpleNamespace(base_url="http://chasqui.test", secret_key=key)

    def loaded(game_id):
        return SimpleNamespace(row=SimpleNamespace(id=game_id))

    for key in ("key-one", "key-two"):
        for game_id in ("g1", "g2"):
            for seat, address in ((0, "Ana@Example.org"), (1, "ben@example.org")):
                for _ in range(2):  # the second time from the cache
                    got = mailkit.links(settings(key), loaded(game_id), seat, address)
                    assert got["my_games_url"] == (
                        f"http://chasqui.test/me/{preferences.address_token(key, address)}")
                    assert got["spectate_url"] == (
                        f"http://chasqui.test/watch/{spectate_token(key, game_id)}")
                    assert got["unsubscribe_url"] == ("http://chasqui.test/unsubscribe/"
                                                      + preferences.unsubscribe_token(
                                                          key, game_id, seat, address))

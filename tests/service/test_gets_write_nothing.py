"""A GET never writes: not an event, not a projection, not even a snapshot (the cache of
replayed states) that is owed -- only the trace a site admin's read of what a running game
keeps from its players leaves (``store.privileged_reads``), which changes no game.  Snapshots are written by commands, in their unit of work,
and a snapshot so written still equals the full replay."""
from __future__ import annotations

import re
from contextlib import contextmanager

from sqlalchemy import event, func, select

from engine import canonical_json
from service.store import preferences
from service.store import snapshots
from service.store import events as store
from service.store.loading import load
from service.store.history import rebuild
from service.core.tokens import spectate_token
from tests.service.test_admin_support import site_admin, svc

WRITE = re.compile(r"^\s*(WITH\b.*\b)?(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE | re.DOTALL)


@contextmanager
def writes_counted(app):
    """The INSERT/UPDATE/DELETE statements the app's engine runs meanwhile."""
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        if WRITE.match(statement):
            seen.append(statement)

    engine = svc(app).db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def snapshot_rows(app, game_id: str) -> int:
    with svc(app).db.reading() as session:
        return session.scalar(select(func.count()).select_from(snapshots.snapshots)
                              .where(snapshots.snapshots.c.game_id == game_id))


def play_stays(client, secrets, moves: int) -> int:
    """Everyone stays, again and again: ``moves`` accepted moves; returns the head seq."""
    seq = 1
    while moves:
        view = client.get(f"/api/play/{secrets[0]}").get_json()
        for seat in view["to_act"]:
            response = client.post(f"/api/play/{secrets[seat]}",
                                   json={"action": {"type": "stay"}, "seq": view["seq"]})
            assert response.status_code == 200, response.get_json()
            seq = response.get_json()["seq"]
            moves -= 1
            if not moves:
                break
    return seq


def test_no_get_writes_even_when_a_snapshot_is_owed(app, client, new_game, admin_headers):
    data, secrets = new_game(players=4)
    game_id = data["id"]
    play_stays(client, secrets, snapshots.EVERY + 3)
    with svc(app).db.unit_of_work() as session:  # the cache may be emptied at any time
        session.execute(snapshots.snapshots.delete())
    site_admin(app, client)
    key = svc(app).settings.secret_key
    view = client.get(f"/api/play/{secrets[0]}").get_json()
    pages = [f"/api/play/{secrets[0]}", f"/play/{secrets[1]}",
             f"/play/{secrets[view['to_act'][0]]}/a/{view['seq']}/0", f"/play/{secrets[2]}/plan",
             f"/api/games/{game_id}", f"/watch/{spectate_token(key, game_id)}",
             f"/me/{preferences.address_token(key, 'p3@example.com')}",
             f"/admin/games/{game_id}", f"/admin/api/games/{game_id}", "/admin/",
             f"/play/{secrets[1]}/history?step=3", f"/watch/{spectate_token(key, game_id)}/history"]
    with writes_counted(app) as seen:
        for page in pages:
            assert client.get(page, headers=admin_headers if "/api/games" in page else {}
                              ).status_code == 200, page
    traces = [s for s in seen if re.match(r"\s*INSERT INTO privileged_reads\b", s)]
    assert len(traces) == 2  # every move, read by the token (its two APIs: one read) and the site admin
    assert [s for s in seen if s not in traces] == []
    assert snapshot_rows(app, game_id) == 0


def test_the_next_move_writes_the_owed_snapshot_and_it_equals_the_full_replay(app, client, new_game):
    data, secrets = new_game(players=4)
    game_id = data["id"]
    play_stays(client, secrets, snapshots.EVERY + 3)
    with svc(app).db.unit_of_work() as session:
        session.execute(snapshots.snapshots.delete())
    client.get(f"/api/play/{secrets[0]}")
    assert snapshot_rows(app, game_id) == 0
    head = play_stays(client, secrets, 1)
    assert snapshot_rows(app, game_id) == 1
    with svc(app).db.reading() as session:
        seq, state = session.execute(select(snapshots.snapshots.c.seq,
                                            snapshots.snapshots.c.state)).one()
        events = store.load(session, game_id)
        loaded = canonical_json(load(session, game_id).state)
    assert seq == head - 1  # the state the move was judged on, stored with the move
    assert canonical_json(state) == canonical_json(rebuild([e for e in events if e.seq <= seq])[1])
    assert loaded == canonical_json(rebuild(events)[1])

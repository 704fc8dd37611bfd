"""The players' mails witness the chain: every game mail names the hash of the event at the
state it shows, and ``/verify`` and ``verify-record`` fail a record that does not hold every
state a kept mail names, so an operator who rewrites history and re-hashes it is caught."""
from __future__ import annotations

import email
import io
import json
import re
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from service.mail import digest, witness
from service.mail.compose import build_message
from service.store import events as store
from service.store.fairness import Verdict
from service.store.loading import load
from service.store.models import LocalMailRow, OutboxRow
from service.store.preferences import set_preference
from service.web.extensions import services
from tests.service.test_admin_support import everyone_agrees, move, post_form, site_admin
from tests.service.test_fair_play import play_to_the_end, record_of

FINGERPRINT = re.compile(r"^(.*) (sha256:[0-9a-f]{64})$", re.M)
LABELS = {"en": "Game record fingerprint:", "zh_Hans": "对局记录指纹：",
          "ja": "対局記録のフィンガープリント："}


def raw_mails(app, to: str) -> list[str]:
    """The mails sent to ``to``, as the raw text a player saves as an .eml file."""
    with services(app).db.reading() as session:
        return list(session.scalars(select(LocalMailRow.raw).where(LocalMailRow.to_addr == to)
                                    .order_by(LocalMailRow.id)))


def chain(app, game_id) -> dict[int, str]:
    with services(app).db.reading() as session:
        return {e.seq: e.hash for e in store.load(session, game_id)}


def named(text: str) -> list[tuple[str, str]]:
    """(label, fingerprint) of every fingerprint line of a mail's text."""
    return FINGERPRINT.findall(text)


def verdict_of(client, record, witnesses=None) -> dict:
    body = record if witnesses is None else {"record": record, "witnesses": witnesses}
    answer = client.post("/verify", json=body)
    assert answer.status_code < 500
    return answer.get_json()


def failed(verdict) -> list[str]:
    return [c["name"] for c in verdict["checks"] if not c["ok"]]


# --- the mails name the chain ----------------------------------------------------------------

def test_every_game_mail_names_the_hash_of_the_event_at_the_state_it_shows(app, client, new_game):
    data, secrets = new_game(players=3, seed=9)
    client.post(f"/api/play/{secrets[0]}", json={"action": {"type": "stay"}, "seq": 1})
    client.post(f"/api/play/{secrets[1]}", json={"action": {"type": "leave"}, "seq": 1})
    client.post(f"/api/play/{secrets[2]}", json={"action": {"type": "stay"}, "seq": 1})
    hashes = chain(app, data["id"])
    mails = [raw for seat in range(3) for raw in raw_mails(app, f"p{seat}@example.com")]
    assert len(mails) == 5, "three start mails, then a turn mail to each seat still in"
    for raw in mails:
        message = email.message_from_string(raw, policy=policy.default)
        shown = int(message["X-Chasqui-Seq"])
        text = message.get_body(("plain",)).get_content()
        html = message.get_body(("html",)).get_content()
        assert named(text) == [("Game record fingerprint:", f"sha256:{hashes[shown]}")]
        assert f"sha256:{hashes[shown]}" in html
        assert witness.read_witness(raw, 1).hashes == (hashes[shown],)


def test_a_mail_showing_an_event_without_a_nonce_names_no_fingerprint():
    class Old:  # an event of schema version 1: its hash covers no nonce
        nonce, hash = None, "a" * 64

    class New:
        nonce, hash = "b" * 32, "C" * 64

    assert witness.fingerprint_of(Old()) is None
    assert witness.fingerprint_of(New()) == "sha256:" + "c" * 64


def test_every_kind_of_game_mail_names_the_fingerprint(app, new_game):
    data, _ = new_game(players=3, seed=9)
    svc = services(app)
    head = f"sha256:{chain(app, data['id'])[1]}"
    game_kinds = ("start", "turn", "game_over", "timeout", "reminder-24", "rollback", "undone",
                  "seat", "links", "paused", "resumed", "abandoned", "talk", "reply_ok",
                  "reply_error", "vacation_auto", "vacation_over")
    with app.app_context(), svc.db.reading() as session:
        for number, kind in enumerate(game_kinds):
            row = OutboxRow(id=10_000 + number, game_id=data["id"], seat=1, kind=kind, seq=1,
                            to_addr="p1@example.com", message_id=f"<w.{kind}@t>", status="pending",
                            attempts=0, next_attempt_at=svc.clock(), created_at=svc.clock())
            session.add(row)
            session.flush()
            message = build_message(svc.settings, load(session, data["id"], upto=1), row)
            assert named(message.get_body(("plain",)).get_content()) == [
                ("Game record fingerprint:", head)], kind


@pytest.mark.parametrize("language", ["en", "zh_Hans", "ja"])
def test_the_fingerprint_line_is_labelled_in_the_players_language(app, client, new_game, language):
    data, secrets = new_game(players=3, seed=9)
    svc = services(app)
    with svc.db.unit_of_work() as session:
        set_preference(session, data["id"], 0, svc.clock(), language=language)
    for secret in secrets:
        client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1})
    message = email.message_from_string(raw_mails(app, "p0@example.com")[-1], policy=policy.default)
    head = chain(app, data["id"])[int(message["X-Chasqui-Seq"])]
    assert named(message.get_body(("plain",)).get_content()) == [(LABELS[language], f"sha256:{head}")]
    assert LABELS[language] in message.get_body(("html",)).get_content()


# --- a rewritten history fails against a kept mail --------------------------------------------

def rewritten(genuine: dict, other: dict) -> dict:
    """``other``'s history passed off as ``genuine``'s game, every hash recomputed, as an
    operator holding the database and every nonce could write it."""
    forged = json.loads(json.dumps(other))
    forged["game"]["id"] = genuine["game"]["id"]
    prev = store.GENESIS
    for e in forged["events"]:
        e["prev_hash"] = prev
        e["hash"] = prev = store.event_hash(
            forged["game"]["id"], e["seq"], e["kind"], e["payload"], e["actor"],
            store.utc(datetime.fromisoformat(e["recorded_at"])), prev, e["nonce"])
    return forged


def test_a_rewritten_history_verifies_alone_but_fails_against_a_mail_kept_before(
        app, client, new_game, tmp_path):
    data, secrets = new_game(players=3, seed=9)
    kept = raw_mails(app, "p0@example.com")[0]  # the start mail, saved as it came
    play_to_the_end(client, secrets, pick=-1)
    genuine = record_of(client, secrets[0])
    _other, other_secrets = new_game(players=3, seed=9)
    play_to_the_end(client, other_secrets, pick=0)
    forged = rewritten(genuine, record_of(client, other_secrets[0]))
    assert [e["hash"] for e in forged["events"]] != [e["hash"] for e in genuine["events"]]

    # Without mails the forgery fares exactly as the genuine record (which passes): the
    # chain alone cannot tell them apart.
    as_genuine = failed(verdict_of(client, genuine))
    assert failed(verdict_of(client, forged)) == as_genuine
    verdict = verdict_of(client, forged, [kept])
    assert failed(verdict) == as_genuine + [witness.WITNESS_CHECK] and verdict["ok"] is False
    beside = verdict_of(client, {**forged, "witnesses": [kept]})
    assert failed(beside) == as_genuine + [witness.WITNESS_CHECK]
    detail = verdict["checks"][-1]["detail"]
    assert "does not contain" in detail and "rewritten" in detail and "seq" not in detail

    every = raw_mails(app, "p0@example.com")
    mine = [raw for raw in every if data["id"] in raw]
    genuine_verdict = verdict_of(client, genuine, mine)
    assert failed(genuine_verdict) == as_genuine, genuine_verdict
    assert [c["name"] for c in genuine_verdict["checks"]][-1] == witness.WITNESS_CHECK

    page = client.post("/verify", data={"record": json.dumps(forged), "mails": kept})
    assert page.status_code == 200 and "Not verified" in page.get_data(as_text=True)
    page = client.post("/verify", content_type="multipart/form-data", data={
        "record": json.dumps(genuine),
        "mail_files": [(io.BytesIO(raw.encode()), f"m{i}.eml")
                       for i, raw in enumerate(mine)]})
    assert page.status_code == 200 and "✓ your mails" in page.get_data(as_text=True)

    record_file, mail_file = tmp_path / "record.json", tmp_path / "start.eml"
    record_file.write_text(json.dumps(forged))
    mail_file.write_text(kept)
    cli = app.test_cli_runner()
    alone = cli.invoke(args=["chasqui", "verify-record", str(record_file)])
    assert alone.exit_code == (1 if as_genuine else 0), alone.output
    caught = cli.invoke(args=["chasqui", "verify-record", str(record_file), "--mail", str(mail_file)])
    assert caught.exit_code == 1 and "FAILED  your mails" in caught.output
    start_hash = genuine["events"][0]["hash"]
    by_hash = cli.invoke(args=["chasqui", "verify-record", str(record_file), "--hash", start_hash])
    assert by_hash.exit_code == 1
    record_file.write_text(json.dumps(genuine))
    honest = cli.invoke(args=["chasqui", "verify-record", str(record_file), "--mail",
                              str(mail_file), "--hash", f"sha256:{start_hash}"])
    assert "ok  your mails" in honest.output, honest.output
    assert honest.exit_code == (1 if as_genuine else 0), honest.output


# --- reading a kept mail ---------------------------------------------------------------------

HASH = "3fa4" + "0" * 60


def mail_with(text: str, charset: str = "utf-8", cte: str = "quoted-printable") -> bytes:
    message = EmailMessage()
    message["Subject"] = "[Chasqui] Incan Gold — Ana, Ben"
    message["Date"] = "Sat, 05 Dec 2026 10:00:00 +0000"
    message.set_content(text, charset=charset, cte=cte)
    return message.as_bytes()


@pytest.mark.parametrize("cte", ["quoted-printable", "base64", "8bit"])
def test_a_mail_is_read_whatever_its_transfer_encoding(cte):
    text = "Ein Zug. " * 20 + f"\nGame record fingerprint: sha256:{HASH}\n" + "ü" * 100
    found = witness.read_witness(mail_with(text, cte=cte), 1)
    assert found.hashes == (HASH,) and "Incan Gold" in found.name


def test_pasted_text_and_bare_hashes_are_read_too():
    assert witness.read_witness(f"blah\nGame record fingerprint: sha256:{HASH}\n", 1).hashes == (HASH,)
    assert witness.read_witness(f"  {HASH.upper()}\n sha256:{'b' * 64}, ", 2).hashes == (HASH, "b" * 64)
    assert witness.read_witness(f"sha256:{HASH}1", 1).hashes == ()  # 65 digits name no hash


@pytest.mark.parametrize("item", [
    b"\xff\xfe\x00\x01" * 1000,  # binary
    "\ud800 sha256:" + "\udfff" * 64,  # lone surrogates
    b"Content-Type: multipart/mixed; boundary=x\n\n" + b"--x\nContent-Type: multipart/mixed; boundary=x\n\n" * 5000,
    b"Content-Type: text/plain; charset=no-such-charset\nContent-Transfer-Encoding: base64\n\n!!!=",
    b"Subject: =?utf-8?q?\x1b[31m?=\n\n" + b"x" * (5 * 1024 * 1024),  # huge, with an escape
    123, None, ["nested"], {"a": 1},
])
def test_hostile_witnesses_fail_the_check_in_words_and_never_raise(item):
    found = witness.read_witness(item, 1)
    assert found.hashes == () and found.name.isprintable()


def test_hostile_witnesses_on_the_verify_page_answer_no_5xx(app, client, new_game):
    data, secrets = new_game(players=3, seed=9)
    play_to_the_end(client, secrets)
    record = record_of(client, secrets[0])
    # A lone surrogate anywhere in a JSON body is refused by the shared JSON rules: no verdict
    # is given on such a body at all, and nothing answers 5xx.
    surrogate = client.post("/verify", json={"record": record, "witnesses": ["\ud800"]})
    assert surrogate.status_code in (200, 400) and surrogate.get_json()["ok"] is False
    for witnesses in ([123, None], "not a list", {"a": 1}, ["x"] * 1000,
                      ["sha256:" + "0" * 64], [b"\xff".decode("latin-1") * 100_000]):
        verdict = verdict_of(client, record, witnesses)
        assert verdict["ok"] is False and failed(verdict) == [witness.WITNESS_CHECK], witnesses
    for body in ('{"record": "\\ud800", "witnesses": ["a"]}', '{"record": 1}',
                 '{"record": {"format": "chasqui-record"}, "witnesses": "\\ud800"}'):
        answer = client.post("/verify", data=body, content_type="application/json")
        assert answer.status_code == 400 and answer.get_json()["ok"] is False
    page = client.post("/verify", content_type="multipart/form-data", data={
        "record": json.dumps(record), "mails": "\x00\x1b not a mail",
        "mail_files": [(io.BytesIO(b"\xff\x00" * 1000), "bin.eml")]})
    assert page.status_code == 200 and "Not verified" in page.get_data(as_text=True)
    assert "names no game record fingerprint" in page.get_data(as_text=True)


def test_a_digest_names_each_listed_games_hash_at_the_state_it_lists(app, client, clock, new_game):
    svc = services(app)
    games = [new_game(players=3, seed=s) for s in (1, 2)]
    with svc.db.unit_of_work() as session:
        for data, _ in games:
            set_preference(session, data["id"], 0, clock(), mode="digest")
    for secret in games[0][1]:
        client.post(f"/api/play/{secret}", json={"action": {"type": "stay"}, "seq": 1})
    clock.advance(timedelta(hours=1))
    with app.app_context():
        svc.dispatch(digest.plan(svc.db, clock(), svc.settings.mail_domain))
    sent = email.message_from_string(raw_mails(app, "p0@example.com")[-1], policy=policy.default)
    assert "digest" in sent["Message-ID"]
    heads = {f"sha256:{list(chain(app, data['id']).values())[-1]}" for data, _ in games}
    text = sent.get_body(("plain",)).get_content()
    assert {f for _label, f in named(text)} == heads
    assert all(label.strip() == "Game record fingerprint:" for label, _f in named(text))
    assert all(f in sent.get_body(("html",)).get_content() for f in heads)


def test_mails_sent_before_an_honest_rollback_still_witness_the_record(app, client, new_game):
    site_admin(app, client)
    data, secrets = new_game(players=3, seed=9)
    for seat in range(3):
        assert move(client, secrets[seat], "stay", 1 + seat).status_code == 200
    assert post_form(client, data["id"], "rollback", to_seq="1", reason="misclick",
                     seq="4").status_code == 303
    everyone_agrees(app, client, data["id"], secrets)
    play_to_the_end(client, secrets)
    record = record_of(client, secrets[0])
    assert any(e["kind"] == "RolledBack" for e in record["events"])
    mine = [raw for raw in raw_mails(app, "p0@example.com") if data["id"] in raw]
    kinds_kept = {email.message_from_string(raw)["Message-ID"].rsplit("@")[0].split(".")[-1]
                  for raw in mine}
    assert {"start", "rollback", "game_over"} <= kinds_kept, kinds_kept
    verdict = verdict_of(client, record, mine)
    assert verdict["checks"][-1] == {"name": witness.WITNESS_CHECK, "ok": True, "detail": (
        f"every game state your {len(mine)} mails name ({len(mine)} fingerprints) is in this record")}
    assert failed(verdict) == failed(verdict_of(client, record))


def test_many_bad_witnesses_are_summed_up_not_listed_one_by_one():
    verdict = Verdict()
    verdict.add("the record's shape", True, "a record")
    witness.add_check(verdict, json.dumps({"events": [{"hash": HASH}]}),
                      [f"sha256:{HASH}"] + [f"sha256:{n:064x}" for n in range(1, 31)])
    check = verdict.checks[-1]
    assert check.name == witness.WITNESS_CHECK and not check.ok
    assert check.detail.count("does not contain") == witness.MOST_SHOWN
    assert check.detail.endswith("and 25 more problems like these")

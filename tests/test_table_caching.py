"""What a table's pages ask again costs little: a card's face and the state answer with an ETag, and a request
naming it (If-None-Match) gets 304 with no body while nothing changed; an action's answer carries the asker's new
state when the page asks; the faces the server keeps for all its tables stay within one bound, by bytes."""

from __future__ import annotations

import http.client
import json
import os

from tablekit import Table, authorization

from hhdcli.table.web.images import Faces


def raw(table: Table, path: str, token: str | None = None, headers: dict[str, str] | None = None,
        body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request as a browser sends it, its answer's status, headers and body as they came (a 304 too)."""
    sent = {**authorization(player=token), **(headers or {})}  # who asks: the seat's token, as a script sends it
    if body is not None:
        sent["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection("127.0.0.1", table.port, timeout=20)
    try:
        # a face's address is relative to the table's page (cards/en/…): here, the table is at /
        connection.request("POST" if body is not None else "GET", "/" + path.lstrip("/"), body, sent)
        answer = connection.getresponse()
        return answer.status, dict(answer.headers), answer.read()
    finally:
        connection.close()


def test_a_face_asked_again_with_its_etag_is_a_304_with_no_body_and_a_hidden_face_stays_hidden(table):
    anna, ben = table.seat("Anna"), table.seat("Ben")
    hand = table.as_("Anna", "/api/opening-hand")[1]["cards"]
    face = hand[0]["face"]
    status, headers, first = raw(table, face, anna)
    assert status == 200 and first.startswith(b"\x89PNG") and headers["Cache-Control"] == "private, max-age=86400"
    tag = headers["ETag"]
    assert tag.startswith('"') and not tag.startswith('W/')  # strong: the bytes are the same whenever asked
    status, again, body = raw(table, face, anna, {"If-None-Match": tag})
    assert (status, body, again["ETag"]) == (304, b"", tag)
    # the Russian face is another picture: another tag
    status, russian, _ = raw(table, face.replace("cards/en/", "cards/ru/"), anna, {"If-None-Match": tag})
    assert status == 200 and russian["ETag"] != tag
    # Anna's hand is hers: Ben holding the tag learns nothing, not even that it is unchanged
    assert raw(table, face, ben, {"If-None-Match": tag})[0] == 404
    assert raw(table, face, None, {"If-None-Match": tag})[0] == 404


def test_a_state_read_with_its_etag_is_a_304_until_the_table_changes_for_that_viewer(table):
    anna, ben = table.seat("Anna"), table.seat("Ben")
    status, headers, _ = raw(table, "/api/state", anna)
    tag = headers["ETag"]
    assert status == 200 and headers["Cache-Control"] == "private, no-cache"
    assert raw(table, "/api/state", anna, {"If-None-Match": tag})[::2] == (304, b"")
    assert raw(table, "/api/state", ben, {"If-None-Match": tag})[0] == 200  # another viewer: another state
    assert raw(table, "/api/state?lang=ru", anna, {"If-None-Match": tag})[0] == 200  # another language
    table.as_("Ben", "/api/opening-hand")
    status, changed, _ = raw(table, "/api/state", anna, {"If-None-Match": tag})
    assert status == 200 and changed["ETag"] != tag


def test_an_actions_answer_carries_the_askers_new_state_and_its_etag_when_the_page_asks(table):
    anna = table.seat("Anna")
    status, _, body = raw(table, "/api/opening-hand", anna, {"X-Want-State": "1"}, b"{}")
    answer = json.loads(body)
    assert status == 200 and len(answer["cards"]) == 2  # the action's own answer, as before
    mine = next(p for p in answer["state"]["players"] if p["name"] == "Anna")
    assert answer["state"]["you"] == "Anna" and [c["id"] for c in mine["cards"]] == [c["id"] for c in answer["cards"]]
    assert answer["state"] == table.state("Anna") | {"players": answer["state"]["players"]}
    # the push's read that follows costs a 304
    assert raw(table, "/api/state", anna, {"If-None-Match": answer["state_etag"]})[0] == 304
    # without the header, the answer is the action's alone; a refused action carries no state
    assert "state" not in table.as_("Anna", "/api/draw")[1]
    status, _, body = raw(table, "/api/keep", anna, {"X-Want-State": "1"}, b'{"bottom": [1000]}')  # not hers
    assert 400 <= status < 500 and "state" not in json.loads(body)


def test_the_servers_faces_stay_within_its_bound_in_bytes_the_latest_shown_kept(table):
    """One cache for every table's faces, by bytes: showing more faces than fit drops the least recently shown."""
    faces = Faces(most=100_000)
    shown = []
    for card in list(table.session.cards.values())[:8]:
        for lang in ("en", "ru"):
            shown.append(faces.face(card, table.session.table, None, lang))
            assert faces.size <= 100_000
    assert len(faces.kept) >= 2 and shown[-1].tag in faces.kept and shown[0].tag not in faces.kept
    last = list(table.session.cards.values())[7]
    assert faces.face(last, table.session.table, None, "ru").data is shown[-1].data  # kept: not drawn again


def test_a_servers_faces_are_drawn_once_into_its_folder_and_a_restart_draws_none_again(table, tmp_path, monkeypatch):
    """A server keeps each face it drew as a file named by its tag, and only a few MB of them in memory: its memory
    stays flat however many cards are shown, and the next start serves the same bytes without drawing."""
    from hhdcli.table.web import images

    cards = list(table.session.cards.values())[:6]
    first = Faces(most=50_000, folder=tmp_path / "faces")
    shown = [first.face(card, table.session.table, None, "ru") for card in cards]
    assert first.size <= 50_000
    assert sorted(p.name for p in (tmp_path / "faces").iterdir()) == sorted(f"{s.tag.strip(chr(34))}.png" for s in shown)

    kept = tmp_path / "faces" / f"{shown[0].tag.strip(chr(34))}.png"
    kept.write_bytes(b"\x89PNG the file kept, not a face drawn again")
    again = Faces(most=50_000, folder=tmp_path / "faces")  # the server started again
    served = [again.face(card, table.session.table, None, "ru").data for card in cards]
    assert served == [kept.read_bytes(), *(s.data for s in shown[1:])]

    files = sorted((tmp_path / "faces").iterdir(), key=lambda f: f.stat().st_mtime)
    for age, file in enumerate(files):  # each drawn a minute after the one before
        os.utime(file, (1_000_000 + 60 * age, 1_000_000 + 60 * age))
    newest = sum(f.stat().st_size for f in files[-2:])
    monkeypatch.setattr(images, "FACES_DISK_BYTES", newest)  # over the bound at the next start: the oldest go
    Faces(folder=tmp_path / "faces")
    assert sorted((tmp_path / "faces").iterdir()) == sorted(files[-2:])

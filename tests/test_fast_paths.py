"""The quicker ways of reading and writing cards give exactly what the plain ways gave: the same cache bytes for
each registry format, the same cards read back, and a record hhd did not write read as before."""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from pathlib import Path

import pytest

from hhdcli.cache import CacheMeta, load_cache, write_cache
from hhdcli.cards import Card, CardIndex, Face, loose_name, one_edit_apart, parse_registry
from support import CURRENT_SAMPLE, EXCERPT, LEGACY

# sha256 of cards.json as hhd 0.3.0 wrote it before these fast paths (commit d721529, 2026-12-01), for the
# registry files in tests/data with the metadata below: any change to the normalisation or the write shows here
BEFORE = {
    LEGACY.name: (720, "005a9ecd2012da5846ff56b69a7d8e288bfecf480063a9e3a745d4df844f9a85"),
    CURRENT_SAMPLE.name: (16, "7ac6d655e592c6f443bb2a363af8dfab24cfd4770162ab50340e27a000317df6"),
    EXCERPT.name: (105, "c12fb39238657162a8f17b74b0954afa8eca0d31ebd71699193f2ddac2cd88f0"),
}


def synced(source: Path, cache_dir: Path) -> list[Card]:
    fmt, cards, *_ = parse_registry(source.read_bytes())
    write_cache(cache_dir, CacheMeta("golden", fmt, None, "2026-01-01T00:00:00+00:00", "0", len(cards)), cards, None)
    return cards


@pytest.mark.parametrize("source", [LEGACY, CURRENT_SAMPLE, EXCERPT], ids=lambda p: p.name.split(".")[1])
def test_the_cache_of_each_registry_file_is_byte_identical_to_what_hhd_wrote_before(source, tmp_path):
    cards = synced(source, tmp_path)
    assert (len(cards), hashlib.sha256((tmp_path / "cards.json").read_bytes()).hexdigest()) == BEFORE[source.name]


@pytest.mark.parametrize("source", [LEGACY, CURRENT_SAMPLE, EXCERPT], ids=lambda p: p.name.split(".")[1])
def test_cards_read_back_from_the_cache_equal_the_cards_written(source, tmp_path):
    cards = synced(source, tmp_path)
    loaded = load_cache(tmp_path, with_symbols=False).cards
    assert loaded == cards
    assert [hash(c) for c in loaded] == [hash(c) for c in cards]
    assert [json.dumps(c.to_json()) for c in loaded] == [json.dumps(c.to_json()) for c in cards]  # key order too
    assert all(type(c.colors) is tuple and all(type(f.colors) is tuple for f in c.faces) for c in loaded)


def own_record() -> dict:
    _, cards, *_ = parse_registry(EXCERPT.read_bytes())
    card = next(c for c in cards if len(c.faces) > 1 and c.tags and c.faces[0].colors)
    return json.loads(json.dumps(card.to_json()))


def test_a_record_with_its_fields_in_another_order_is_the_same_card_written_in_field_order():
    record = own_record()
    shuffled = dict(reversed(list(record.items())))
    shuffled["faces"] = [dict(reversed(list(f.items()))) for f in record["faces"]]
    card = Card.from_json(shuffled)
    assert card == Card.from_json(record)
    assert list(card.to_json()) == [f.name for f in fields(Card)]
    assert list(card.to_json()["faces"][0]) == [f.name for f in fields(Face)]


def test_a_record_missing_fields_gets_the_defaults_and_one_with_a_stray_field_is_refused():
    record = own_record()
    for key in ("rotated_image", "banned", "tags"):
        del record[key]
    del record["faces"][0]["counts"]
    card = Card.from_json(record)
    assert (card.rotated_image, card.banned, card.tags, card.faces[0].counts) == (None, False, (), True)
    with pytest.raises(TypeError):
        Card.from_json({**own_record(), "stray": 1})
    stray_face = own_record()
    stray_face["faces"][1]["stray"] = 1
    with pytest.raises(TypeError):
        Card.from_json(stray_face)


def test_a_temp_file_is_new_private_and_named_for_the_sweep(tmp_path):
    """write_atomic's temp files, made without the tempfile module: each a new file (never one that exists),
    mode 0600 until it is renamed, named with the writer's pid and the leftover mark."""
    import os
    import stat

    from hhdcli.files import LEFTOVER_MARK, _new_temp_file, write_atomic

    prefix = f".cards.json.{os.getpid()}{LEFTOVER_MARK}"
    made = [_new_temp_file(tmp_path, prefix, ".tmp", []) for _ in range(50)]
    for fd, _name in made:
        os.close(fd)
    names = {Path(name) for _, name in made}
    assert len(names) == 50 and all(p.is_absolute() and p.parent == tmp_path for p in names)
    assert all(p.name.startswith(prefix) and p.name.endswith(".tmp") for p in names)
    assert {stat.S_IMODE(p.stat().st_mode) for p in names} == {0o600}
    for p in names:
        p.unlink()
    write_atomic(tmp_path / "out.json", b"{}")
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"] and (tmp_path / "out.json").read_bytes() == b"{}"


def test_ctrl_c_the_moment_a_temp_file_is_made_leaves_none_behind(tmp_path, monkeypatch):
    """Ctrl-C (or the SIGTERM a forked child takes as one) may land between the temp file's creation and the
    write that follows: the file is removed all the same, and what was there before stays untouched."""
    import os

    from hhdcli.files import write_atomic

    (tmp_path / "out.json").write_bytes(b"old")
    real_open = os.open

    def open_then_interrupted(*args, **kwargs):
        os.close(real_open(*args, **kwargs))  # the file made (its descriptor closed: this test's process goes on)
        raise KeyboardInterrupt  # as a signal handled right after the system call returns

    monkeypatch.setattr(os, "open", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "out.json", b"new", durable=False)
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"] and (tmp_path / "out.json").read_bytes() == b"old"


def test_a_card_index_finds_a_renamed_card_as_loosening_every_name_at_each_asking_did():
    """The index keeps each card's loose name, by length (a table's first draw asks for a few hundred token
    makers by name): the card found, or none when two could be meant, is the one the plain scan found."""
    cards = parse_registry(LEGACY.read_bytes()).cards

    loose = [(loose_name(c.name), c) for c in cards]  # the plain scan's names, loosened once for the test alone

    def scanned(name: str) -> Card | None:
        key = loose_name(name)
        same = {id(c): c for loosened, c in loose if loosened == key}
        if not same and len(key) >= 8:
            same = {id(c): c for loosened, c in loose if one_edit_apart(loosened, key)}
        return next(iter(same.values())) if len(same) == 1 else None

    asked = [name for card in cards[::9] for name in (card.name, f"The {card.name}", f"{card.name} (HC)",
                                                      card.name[:-1], card.name[1:], card.name + "s",
                                                      card.name[:4] + "q" + card.name[5:])]
    found = [CardIndex(cards)._renamed(name) for name in asked]
    assert found == [scanned(name) for name in asked]
    assert sum(card is not None for card in found) > len(asked) // 2  # most are found: the comparison says something

"""The one JSON reader (hhdcli/jsonio.py): deep, NaN and Infinity refused in one line wherever JSON is read."""

from __future__ import annotations

import codecs
import json

import pytest

from hhdcli.jsonio import load_json
from support import DEEP, LEGACY, PIPS, Hhd, excerpt_with, one_line_error


def _large(body: str) -> str:
    """A document past the size a registry download is read at (by msgspec), padded with a string."""
    from hhdcli.jsonio import LARGE

    return body.replace("PAD", "x" * (LARGE + 10))


@pytest.mark.parametrize("raw", [DEEP, b'{"data": [NaN]}', b'[Infinity]', b'\xff\xfe'])
def test_the_one_json_reader_refuses_with_a_value_error(raw):
    with pytest.raises(ValueError):
        load_json(raw)


@pytest.mark.parametrize("body", ['{"data": [NaN, "PAD"]}', '{"data": [Infinity, "PAD"]}', '["PAD"'])
def test_a_large_document_is_refused_as_a_small_one_is(body):
    with pytest.raises(ValueError):
        load_json(_large(body).encode())


def test_a_large_document_reads_as_json_reads_it_whatever_its_encoding():
    text = _large(r'{"data": [{"name": "Lim-D\u00fbl \ud83d\udd95", "n": 12345678901234567890123, "f": 0.1}], "p": "PAD"}')
    expected = json.loads(text)
    assert load_json(text.encode()) == expected and load_json(text) == expected
    assert load_json(codecs.BOM_UTF8 + text.encode()) == expected  # a BOM, which only json's reader takes
    assert load_json(text.encode("utf-16")) == expected  # UTF-16 with its BOM, as PowerShell writes


def test_deep_or_nan_json_is_a_one_line_error_for_every_file_hhd_reads(tmp_path, legacy_cache):
    run = Hhd(tmp_path / "cache")
    bad = tmp_path / "bad.json"
    for raw in (DEEP, excerpt_with("mana_value", float("nan"))):
        bad.write_bytes(raw)
        assert "not valid JSON" in one_line_error(run("sync", "--source", str(bad), "--symbols", str(PIPS)))
        assert one_line_error(run("show", "-l", str(bad)))
        assert one_line_error(run("sync", "--source", str(LEGACY), "--symbols", str(bad)))
    # a damaged cache: a one-line error, and the suggested `hhd sync --force` mends it
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "cards.json").write_bytes(DEEP)
    assert "damaged" in one_line_error(Hhd(damaged)("cards"))
    assert Hhd(damaged)("sync", "--force", "--source", str(LEGACY), "--symbols", str(PIPS)).exit_code == 0
    (damaged / "cards.json").write_text('{"meta": [], "cards": []}')
    assert "damaged" in one_line_error(Hhd(damaged)("status"))

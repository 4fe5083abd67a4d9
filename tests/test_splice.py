"""Scans spliced into the PDF as it is written (hhdcli/render/scans/splice.py): an image cache emptied meanwhile (hhd cache
clean during hhd proxies) is said as that, and nothing half-written is left; the output is not blamed."""

from __future__ import annotations

import io

from PIL import Image

from support import Reply, cards_with_served_images


def _scan() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (745, 1040), (200, 40, 40)).save(out, "JPEG", quality=80)
    return out.getvalue()


def test_an_image_cache_cleaned_while_the_pdf_is_written_is_named_and_the_output_not_blamed(server, tmp_path):
    from hhdcli.cache import load_cache
    from hhdcli.errors import CacheError
    from hhdcli.files import write_output
    from hhdcli.http import HttpSettings
    from hhdcli.render.proxies import ProxyOptions, lay_out
    from hhdcli.render.scans.images import ImageSettings, ImageStore, evict

    cache_dir = tmp_path / "cache"
    run, names = cards_with_served_images(server, cache_dir, 3, Reply(_scan(), content_type="image/jpeg"))
    cache = load_cache(cache_dir)
    store = ImageStore(cache_dir / "images", ImageSettings(workers=1), HttpSettings.for_timeout(5))
    pdf = lay_out(cache.cards, cache.symbol_table, ProxyOptions(), store)
    assert len(pdf.scans) == 3
    removed, _ = evict(cache_dir / "images", 0)  # what hhd cache clean does, between the layout and the writing
    assert removed
    output = tmp_path / "out.pdf"
    try:
        write_output(output, pdf.write)
    except CacheError as exc:
        said = exc
    else:
        raise AssertionError("the PDF was written without its scans")
    assert "left the image cache while the PDF was written" in said.message and "out.pdf" not in said.message
    assert "run the command again" in str(said.hint)
    assert not output.exists() and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    again = run("proxies", *names, "-o", str(output))  # the next run downloads them again
    assert again.exit_code == 0 and "3 from 3 images" in again.output

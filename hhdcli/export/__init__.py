"""A Hell library for other tools: Tabletop Simulator, Cockatrice, MPC Autofill print orders, spreadsheets.

Each exporter is a pure function from the library's cards (in library order) to files; `export` writes
them and says what it wrote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from hhdcli.errors import InputError
from hhdcli.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from hhdcli.cards import Card
    from hhdcli.mana import SymbolTable
    from hhdcli.tokens import NeededToken, Token


class ExportFormat(StrEnum):
    TTS = "tts"
    COCKATRICE = "cockatrice"
    MPC = "mpc"
    CSV = "csv"


def _stem(name: str, *suffixes: str) -> str:
    """A file's name without these suffixes, each in turn, in any case (as format_for reads them): HELL.MPC.XML
    is HELL."""
    for suffix in suffixes:
        if name.lower().endswith(suffix):
            name = name[:-len(suffix)]
    return name


def format_for(output: Path | None) -> ExportFormat:
    """The format an output's name asks for (hell.csv is CSV, x.cockatrice.xml Cockatrice); tts otherwise."""
    name = output.name.lower() if output else ""
    if name.endswith(".csv"):
        return ExportFormat.CSV
    if name.endswith((".cod", ".cockatrice.xml")):
        return ExportFormat.COCKATRICE
    if name.endswith(".mpc.xml"):
        return ExportFormat.MPC
    if name.endswith(".xml"):
        raise InputError(_("{output}: an .xml file could be a Cockatrice set or an MPC Autofill order").format(output=output),
                         _("pass --format cockatrice or --format mpc"))
    return ExportFormat.TTS


DEFAULT_NAMES = {ExportFormat.TTS: "hell-library.tts.json", ExportFormat.COCKATRICE: "hell-library.cockatrice.xml",
                 ExportFormat.MPC: "hell-library.mpc.xml", ExportFormat.CSV: "hell-library.csv"}


@dataclass
class Exported:
    """What an export wrote: files by path, and what a player should know about them."""

    files: dict[Path, bytes] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    count: int = 0  # the cards in the export (an MPC order leaves out those without a Drive image)


RULES_NOTE = N_(  # the TTS notecard, in the run's language when written
    "Draw from the Hell library instead of your own when you like (not when it is empty).\n"
    "1. A land: take it; in your draw step you may play it at once, outside the land limit.\n"
    "2. A spell whose every mana color your deck's lands make (hybrid: any one option; Phyrexian: always; "
    "purple is a color): take it; in your draw step you may cast it at once for {2} less.\n"
    "3. Anything else: take it, or put it on top of the shared sideboard.\n"
    "Opening hand: 2 of your 7 cards come from Hell. Mulligan: your Hell cards go to its bottom, unshuffled.\n"
    "After a game: Hell cards outside the sideboard and the libraries go to its bottom in random order."
)


def export_library(cards: Sequence[Card], title: str, fmt: ExportFormat, output: Path, symbols: SymbolTable, *,
                   back_url: str | None = None, cardback: str | None = None,
                   made: date | None = None, image_base_url: str | None = None,
                   tokens: Sequence[Token] | None = None, with_tokens: bool = False,
                   token_copies: int | None = None) -> Exported:
    """The files one export writes (nothing is written here), with notes and warnings for the player.
    `tokens`: the registry's tokens to look the cards' tokens up in (default: those hhd carries). The TTS save
    always lays the library's tokens beside it, the MPC order has them `with_tokens`: one of each per card that
    makes it, or `token_copies` of each."""
    from hhdcli.tokens import library_tokens

    fmt = ExportFormat(fmt)
    from hhdcli.terminal import file_text

    cards = [sanitized(card) for card in cards]  # one text sanitiser in front of every writer
    title = file_text(title)  # it holds the library's seed
    done = Exported(count=len(cards))
    if fmt is ExportFormat.CSV:
        from hhdcli.export.spreadsheet import library_csv

        done.files[output] = library_csv(cards)
    elif fmt is ExportFormat.MPC:
        from hhdcli.tokens import token_copies as copies

        extra = copies(library_tokens(cards, tokens), token_copies) if with_tokens else []
        _mpc(done, [*cards, *extra], output, drive_id_of(cardback) if cardback else None)
        if extra:
            done.notes.append(ngettext("the order ends with {n} token", "the order ends with {n} tokens",
                                       len(extra)).format(n=len(extra)))
    elif fmt is ExportFormat.COCKATRICE:
        _cockatrice(done, cards, title, output, made or date.today(), tokens)
    else:
        _tts(done, cards, title, output, symbols, back_url, image_base_url,
             _tts_tokens(library_tokens(cards, tokens), token_copies))
    return done


def _tts_tokens(needed: Sequence[NeededToken], per_token: int | None) -> list[tuple[Card, str]]:
    """Each token card for the TTS save, with the line saying which cards make it."""
    from hhdcli.tokens import token_card

    return [(token_card(item.token), _("Token — made by {cards}").format(
                cards=", ".join(m.card.name for m in item.makers)))
            for item in needed for _copy in range(item.copies(per_token))]


def _mpc(done: Exported, cards: Sequence[Card], output: Path, cardback: str | None) -> None:
    """The MPC Autofill orders (the output, then NAME-2… past 612 cards), leaving out cards with no Drive image."""
    from hhdcli.export.mpc import HELLFALL_CARDBACK, PROJECT_MAX_SIZE, mpc_orders

    orders, missing = mpc_orders(cards, cardback or HELLFALL_CARDBACK)
    if len(missing) == len(cards):
        raise InputError(_("no card of this library has a Google Drive image: the MPC order would be empty"),
                         _("print it with hhd proxies instead"))
    # MakePlayingCards prints at most 612 cards a project: the first order is the output, the next NAME-2…
    stem = _stem(output.name, ".xml", ".mpc")
    for number, order in enumerate(orders, start=1):
        done.files[output if number == 1 else output.with_name(f"{stem}-{number}.mpc.xml")] = order
    if len(orders) > 1:
        done.notes.append(ngettext(
            "{n} order ({files}): MakePlayingCards prints at most {most} cards a project; load it in MPC Autofill",
            "{n} orders ({files}): MakePlayingCards prints at most {most} cards a project; load each in MPC "
            "Autofill", len(orders)).format(n=len(orders), most=PROJECT_MAX_SIZE,
                                            files=", ".join(p.name for p in done.files)))
    left_out = set(missing)
    done.count = sum(1 for c in cards if c.name not in left_out)
    if missing:
        done.warnings.append(ngettext(
            "{n} card has no Google Drive image and is not in the order (print it with hhd proxies): {names}",
            "{n} cards have no Google Drive image and are not in the order (print them with hhd proxies): {names}",
            len(missing)).format(n=len(missing), names=", ".join(missing)))


def _cockatrice(done: Exported, cards: Sequence[Card], title: str, output: Path, made: date,
                tokens: Sequence[Token] | None) -> None:
    """The Cockatrice set (cards and the tokens they make) and a deck file of the library beside it."""
    from hhdcli.export.cockatrice import deck_file, set_file
    from hhdcli.tokens import builtin_tokens, tokens_for

    made_tokens = tokens_for(cards, builtin_tokens() if tokens is None else tokens)
    if output.suffix.lower() == ".cod":  # -o NAME.cod names the deck: the set goes beside it as NAME.cockatrice.xml
        deck, output = output, output.with_name(output.name[:-len(".cod")] + ".cockatrice.xml")
    else:
        deck = output.with_name(_stem(output.name, ".xml", ".cockatrice") + ".cod")
    done.files[output] = set_file(cards, title, made, made_tokens)
    done.files[deck] = deck_file(cards, title, _("A Hell library drawn by hhd; keep it in library order."))
    done.notes.append(_("copy {name} into Cockatrice's customsets folder (Card Database → Open custom sets "
                        "folder), restart Cockatrice, then load {name2} in the deck editor").format(name=output.name, name2=deck.name))


def sanitized(card: Card) -> Card:
    from hhdcli.terminal import file_text  # the one write guard, in its form for files

    faces = tuple(replace(f, name=file_text(f.name), mana_cost=file_text(f.mana_cost),
                          type_line=file_text(f.type_line), oracle_text=file_text(f.oracle_text))
                  for f in card.faces)
    return replace(card, name=file_text(card.name), faces=faces)


def safe_file_name(text: str) -> str:
    """A file name made from data (a card id, a name): letters, digits, - and _ only, never a path."""
    cleaned = re.sub(r"[^\w-]+", "-", text, flags=re.ASCII).strip("-")[:80]
    return cleaned or "card"


def drive_id_of(text: str) -> str:
    """A Google Drive id, given as the id or as a share link (…/file/d/ID/view, …?id=ID)."""
    from hhdcli.cards import drive_id

    found = drive_id(text.strip())
    if found:
        return found
    if re.fullmatch(r"[\w-]{10,}", text.strip()):
        return text.strip()
    raise InputError(_("--cardback {text!r} is neither a Google Drive id nor a share link").format(text=text),
                     _("paste the id (the part after /d/ in the share link) or the link itself"))


def _tts(done: Exported, cards: Sequence[Card], title: str, output: Path, symbols: SymbolTable,
         back_url: str | None, image_base_url: str | None = None, tokens: Sequence[tuple[Card, str]] = ()) -> None:
    """The saved object, and PNGs of what has no image (basics, imageless cards, the red back) beside it."""
    from hhdcli.export.tts import tts_save
    from hhdcli.render.draw.faces import face_png

    folder = output.with_name(output.name.removesuffix(".json") + "-images")
    rendered: dict[str, str] = {}

    def local(key: str, card: Card | None) -> str:
        if key not in rendered:
            path = (folder / f"{safe_file_name(key)}.png").resolve()  # ids are data: never a path
            done.files[path] = face_png(card, symbols)
            # hosted: URL/file, which every player's Tabletop Simulator loads; else this computer's file
            rendered[key] = f"{image_base_url.rstrip('/')}/{path.name}" if image_base_url else path.as_uri()
        return rendered[key]

    def face_url(card: Card, side: int) -> str:
        if side == 0 and card.rotated_image:
            return card.rotated_image  # lies sideways as the card does on the table (SidewaysCard)
        images = card.print_images
        if side < len(images) and images[side]:
            return images[side]
        return local(card.name.lower() if card.is_basic else card.id, card)  # a basic's copies share one

    back = back_url or local("hell-back", None)
    done.files[output] = tts_save(cards, title, face_url, back, _(RULES_NOTE), tokens=tokens)
    if rendered and image_base_url:
        done.notes.append(ngettext("upload the {n} image of {folder} to {url} before you load the deck",
                                   "upload the {n} images of {folder} to {url} before you load the deck",
                                   len(rendered)).format(n=len(rendered), folder=folder, url=image_base_url))
    elif rendered:
        done.notes.append(ngettext("{n} image is a file in {folder}: only this computer shows it; for online play "
                                   "upload the folder and export again with --image-base-url URL",
                                   "{n} images are files in {folder}: only this computer shows them; for online play "
                                   "upload the folder and export again with --image-base-url URL",
                                   len(rendered)).format(n=len(rendered), folder=folder))

"""Deck lists as players export them, read into one shape (pure functions).

Recognised from the content (the file's extension is only a hint): Arena (About/Commander/Companion/
Deck/Sideboard sections, or the plain form with a blank line before the sideboard), MTGO .txt and .dek,
Moxfield, Archidekt, TappedOut, MTGGoldfish, MTGTop8, Deckstats, TCGplayer, Forge/Apprentice .dck,
XMage .dck, Magic Workstation .mwDeck, Cockatrice .cod, Markdown lists (.md), and the deck JSON of Moxfield's and
Archidekt's APIs, AetherHub and MTGJSON. Set codes, collector numbers, foil marks,
categories and art variants are stripped from names; commander and companion count as main deck;
maybeboards, tokens and "considering" do not count at all; every line not understood is reported.
CSV decks and collections (MTGO, Moxfield, Deckbox, Archidekt, ManaBox, Dragon Shield, Delver Lens, Untapped.gg,
Scryfall) are read by their header, comma- or semicolon-separated. Blank lines are read as each
program reads them (see `_blank_line_sideboard`); where hhd cannot tell, it says so (`Deck.doubts`).
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum

from hhdcli.cards import normalize_name
from hhdcli.colors import BASIC_LANDS
from hhdcli.errors import InputError
from hhdcli.i18n import N_, _, ngettext


class Zone(StrEnum):
    MAIN = "main"
    COMMANDER = "commander"  # counts as main deck
    COMPANION = "companion"  # counts as main deck (hhd: it is played from outside the game)
    SIDEBOARD = "sideboard"
    IGNORED = "ignored"  # maybeboard, considering, tokens: not part of the deck


IN_MAIN = (Zone.MAIN, Zone.COMMANDER, Zone.COMPANION)


@dataclass(frozen=True)
class DeckEntry:
    """One card line of a deck list: how many, which card, on which line, in which zone."""

    count: int
    name: str
    line: int
    zone: Zone = Zone.MAIN


MAX_PROBLEMS = 10
MAX_COUNTED = 10_000  # lines not understood are counted up to here (a hostile file is not kept line by line)
MAX_LINE = 300  # a longer line is no card line (and no regular expression gets to scan it)


@dataclass
class Deck:
    """A deck list as read: its entries, and what could not be read or was read with doubt."""

    source: str
    format: str = N_("plain list")
    entries: list[DeckEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    ignored: list[tuple[int, str]] = field(default_factory=list)  # (line, text) not understood, up to MAX_COUNTED
    doubts: list[str] = field(default_factory=list)  # readings hhd is unsure of, with how to make them explicit
    uncounted: bool = False  # more than MAX_COUNTED lines were not understood
    # what the list's own type headings (`Lands (24)`, `// Creatures`) say a card is, by name: LAND or SPELL; a
    # card under no such heading is not here (what it is, the card data says, or Scryfall)
    kinds: dict[str, str] = field(default_factory=dict)

    @property
    def main(self) -> list[DeckEntry]:
        return [e for e in self.entries if e.zone in IN_MAIN]

    @property
    def sideboard(self) -> list[DeckEntry]:
        return [e for e in self.entries if e.zone is Zone.SIDEBOARD]

    @property
    def commanders(self) -> list[str]:
        return [e.name for e in self.entries if e.zone is Zone.COMMANDER]

    @property
    def names(self) -> list[str]:
        """The distinct names of the main deck, commander and companion included."""
        return list(dict.fromkeys(e.name for e in self.main))

    def not_understood(self, number: int, text: str, why: str | None = None) -> None:
        if len(self.ignored) >= MAX_COUNTED:
            self.uncounted = True  # counting stops at the bound: the rest is "more than"
            return
        self.ignored.append((number, text[:200]))
        if len(self.problems) < MAX_PROBLEMS:  # the reason in the run's language, as the other reasons are
            self.problems.append(f"{self.source}:{number}: {why or _('not a deck line')}: {text[:60]!r}")
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append("")  # the "… and N more" line, filled in by `warnings`

    @property
    def warnings(self) -> list[str]:
        """The problems to show: the first ten lines, then how many more (a huge file is not a screenful)."""
        if len(self.problems) <= MAX_PROBLEMS:
            return [*self.problems, *self.doubts]
        rest = len(self.ignored) - MAX_PROBLEMS
        more = (_("{source}: … and more than {n} more lines not understood") if self.uncounted
                else ngettext("{source}: … and {n} more line not understood",
                              "{source}: … and {n} more lines not understood", rest))
        return [*self.problems[:MAX_PROBLEMS], more.format(source=self.source, n=rest), *self.doubts]

    def summary(self) -> dict[str, object]:
        return {"format": self.format, "main": sum(e.count for e in self.main),
                "sideboard": sum(e.count for e in self.sideboard), "commander": self.commanders,
                "ignored": [{"line": line, "text": text} for line, text in self.ignored], "doubts": list(self.doubts)}

    def describe(self) -> str:
        s = self.summary()
        said = _("{source} ({format}): {main} main, {sideboard} sideboard, {commanders} commander, {ignored} "
                 "lines ignored").format(source=self.source, format=_(self.format), main=s["main"],
                                         sideboard=s["sideboard"], commanders=len(self.commanders),
                                         ignored=len(self.ignored))
        # a count hhd is unsure of is not given as if nothing happened: the doubts say why and what to do
        return said + (" — " + _("unsure: see the warnings") if self.doubts else "")


# --- headings -----------------------------------------------------------------------------------------

_HEADING_ZONES = {
    **dict.fromkeys(("deck", "main", "maindeck", "main deck", "mainboard", "main board"), Zone.MAIN),
    # a Markdown deck's own list under a heading that says so (jonmossman/MTG-Decks: `## Decklist`)
    **dict.fromkeys(("decklist", "deck list", "card list", "cards", "list", "full list", "full decklist"), Zone.MAIN),
    **dict.fromkeys(("commander", "commanders", "command zone"), Zone.COMMANDER),
    **dict.fromkeys(("companion", "companions"), Zone.COMPANION),
    **dict.fromkeys(("sideboard", "side", "side board", "sb"), Zone.SIDEBOARD),
    **dict.fromkeys(("sideboard cards",), Zone.SIDEBOARD),  # XMage's TxtDeckImporter skips it as a heading
    **dict.fromkeys(("maybeboard", "maybe", "considering", "tokens", "token", "about", "wishboard",
                     "acquireboard", "metadata", "planes", "schemes", "attractions", "stickers"), Zone.IGNORED),
    # taw's precon lists (magic-preconstructed-decks, lib/deck.rb: the known sections): the oversized display
    # commander, the planar deck and the scheme deck are played beside the deck, not in it
    **dict.fromkeys(("display commander", "planar deck", "scheme deck"), Zone.IGNORED),
}
LAND, SPELL = "land", "spell"
# The type groups exports write as headings, by what they say a card is: a land, or a spell (any other card type)
_TYPE_GROUPS = {**dict.fromkeys(("land", "lands", "nonbasic lands"), LAND),
                **dict.fromkeys(("creature", "creatures", "instant", "instants", "sorcery", "sorceries", "artifact",
                                 "artifacts", "enchantment", "enchantments", "planeswalker", "planeswalkers", "battle",
                                 "battles", "spells", "nonland", "nonlands",
                                 # XMage's TxtDeckImporter.SET_VALUES: the group headings its .txt lists carry
                                 "other spells", "noncreature spells", "non-creature spells"), SPELL)}
# Every group exports write as a heading; any other short heading is a category of the main deck.
_GROUP_WORDS = {*_TYPE_GROUPS, "other", "others",
                # a cube list's color groups (generated lists write them as headings, one a line)
                "white", "blue", "black", "red", "green", "colorless", "colourless", "multicolor", "multicolored",
                "multicolour", "multicoloured", "multi", "gold", "hybrid", "mono", "monocolored", "guild", "guilds",
                "azorius", "dimir", "rakdos", "gruul", "selesnya", "orzhov", "izzet", "golgari", "boros", "simic",
                "bant", "esper", "grixis", "jund", "naya", "abzan", "jeskai", "sultai", "mardu", "temur", "shards",
                "wedges", "fixing"}
# "Sideboard", "Lands (12)", "// Sideboard (11 cards)", "MainBoard: 3 cards"
_HEADING = re.compile(r"^(?://+\s*|#+\s*)?(?P<word>[A-Za-z][A-Za-z &'/-]{0,40}?)\s*(?:\(\d+(?: cards?)?\))?\s*:?"
                      r"\s*(?:\d+(?: cards?)?)?$", re.IGNORECASE)
_FORGE_SECTION = re.compile(r"^\[(?P<word>[A-Za-z ]+)\]$")
# Forge's sections (DeckSerializer, DeckFileHeader): the deck's own, and those of the game modes, whose
# `Key=Value` lines and cards are not part of the deck.
_FORGE_SECTIONS = {"main": Zone.MAIN, "sideboard": Zone.SIDEBOARD, "commander": Zone.COMMANDER}
_METADATA = re.compile(r"^(?:name|description|format|creator|author|deck|layout\b.*|[a-z][a-z ]{0,30}\s*[:=].*)$",
                       re.IGNORECASE)


def heading_kind(line: str) -> str | None:
    """What a type heading says its cards are (`Lands (12)`: LAND, `// Creatures`: SPELL), else None."""
    match = _HEADING.match(line)
    return _TYPE_GROUPS.get(match["word"].strip().lower()) if match else None


def heading_zone(line: str) -> Zone | None:
    """The zone a heading line opens (`Sideboard`, `Lands (12)`, `// Creatures`, `[main]`), or None."""
    section = _FORGE_SECTION.match(line)
    if section:  # [metadata], [duel], [shop], [Avatar], [Dungeon]…: Forge's own, not the deck
        return _FORGE_SECTIONS.get(section["word"].strip().lower(), Zone.IGNORED)
    match = _HEADING.match(line)
    if not match:
        return None
    word = match["word"].strip().lower()
    if word in _HEADING_ZONES:
        return _HEADING_ZONES[word]
    if word in _GROUP_WORDS or (line.rstrip().endswith(")") and "(" in line):
        return Zone.MAIN  # "Creatures (12)", "Ramp (10)": a group of the main deck
    return None


# --- one card line ------------------------------------------------------------------------------------

# `4 Forest`, `4x Forest`, and Cockatrice's other multipliers (deck_list.cpp, reMultiplier): `x4 Forest`,
# `4* Forest`, `(4) Forest`, `[4] Forest`; no deck holds 10,000 of a card
_COUNT = re.compile(r"^[xX(\[]*(?P<count>[0-9]{1,4})(?:\s*[xX]\s+|[xX*)\]]+\s*|\s+)(?P<rest>\S.*)$")
# [THS] Forest, [2ED:297] Mountain, Cockatrice's [B] Forest, XMage's [WAR:2*] and [M20:191+], Magic Workstation's empty []
_LEADING_SET = re.compile(r"^\[(?:[A-Za-z0-9_]{1,6}(?::[\w★*+-]+)?)?\]\s*")
_TRAILERS = (
    re.compile(r"\s*\^[^^]*\^$"),  # Archidekt labels ^Have,#37d67a^
    re.compile(r"\s+#.*$"),  # Deckstats comments and markers: "# !Commander"
    re.compile(r"\s*\*[A-Za-z]+\*$"),  # *F* foil, *E* etched, *CMDR*
    re.compile(r"\s*\[[^\]]*\]$"),  # Archidekt categories [Ramp], [Commander{top}]; TCGplayer [C21]
    re.compile(r"\s+[\(\[][A-Za-z0-9_]{2,6}[\)\]]\s+[\w★-]+$"),  # (M20) 191, (SLD) 820★, [SLD] 84
    re.compile(r"\s+\(\d+\)$"),  # Magic Workstation art variant: Forest (1)
    re.compile(r"\s+\([A-Za-z0-9]{3,5}\)$"),  # a set code with no number: Healer's Hawk (FDN)
    re.compile(r"(?<=\S)\+$"),  # Forge's foil mark: Ivorytusk Fortress+
    re.compile(r"\|[^|]*(?:\|[^|]*)?$"),  # Forge: Name|SET|2
)
_CATEGORY = re.compile(r"\[(?P<category>[^\]]*)\]")
# a line with none of the characters every trailer needs (most lines: `4 Lightning Bolt`) has none to strip: the
# trailers' nine searches a line were most of the time a pasted list of 800 lines took
_TRAILER_FREE = re.compile(r"[^#*^|()\[\]+]*").fullmatch


@dataclass(frozen=True)
class CardLine:
    """A card line's count, name, and the zone the line itself names."""

    count: int
    name: str
    zone: Zone | None  # a zone the line itself names (SB:, *CMDR*, [Commander{top}]), else None


def parse_card_line(line: str, countless: bool = False) -> CardLine | None:
    """`4 Forest`, `1x Sol Ring (C21) 263 [Ramp]`, `SB: 2 [M20:191] Duress`, `1 Kenrith *CMDR*` → one
    entry; None when the line is not a card line. With `countless`, a line with no count is one card
    (`Forest`), as Forge, XMage and Cockatrice read it."""
    zone = None
    if line[:3].upper() == "SB:":
        zone, line = Zone.SIDEBOARD, line[3:].strip()
    if len(line) > MAX_LINE:
        return None
    match = _COUNT.match(line)
    if match:
        count, rest = int(match["count"]), match["rest"]
    elif countless and _COUNTLESS.match(line) and (line[-1] not in "!?" or _reads_as_a_name(line)):
        count, rest = 1, line  # `Forth Eorlingas!`, `Continue?`: a name may end so, a sentence does too
    else:
        return None
    rest = _LEADING_SET.sub("", rest.strip())
    zone = zone or _marked_zone(rest)
    rest = _LEADING_CATEGORY.sub(_known_category, rest)
    before = None
    while before != rest and not _TRAILER_FREE(rest):  # strip decorations from the end until none is left
        before = rest
        for pattern in _TRAILERS:
            rest = pattern.sub("", rest).strip()
    return CardLine(count, split_name(rest), zone)


# a card name alone: a letter first, no full stop, colon or equals sign at the end
_COUNTLESS = re.compile(r"^(?:\[[^\]]*\]\s*)?[^\W\d_][^\n]*[^.:=]$")
# `[Commander] Kudo, King Among Bears`: a zone or group named before the card (jonmossman/MTG-Decks' lists)
_LEADING_CATEGORY = re.compile(r"^\[(?P<category>[A-Za-z][A-Za-z -]{0,30})\]\s*(?=\S)")


def _known_category(match: re.Match[str]) -> str:
    """A leading `[Commander]` goes (its zone is read by `_marked_zone`); `[Sol Ring]`-like text stays."""
    word = match["category"].strip().lower()
    return "" if word in _HEADING_ZONES or word in _GROUP_WORDS else match[0]


def _is_count(text: str) -> bool:
    """An XML deck's quantity: ASCII digits, at most four ("²" is a digit to str.isdigit, not to int)."""
    return text.isascii() and text.isdigit() and len(text) <= 4


def _marked_zone(rest: str) -> Zone | None:
    """The zone a card line marks itself with: TappedOut's *CMDR*, Deckstats' !Commander, Archidekt's
    categories (with {noDeck} for what is not in the deck)."""
    lowered = rest.lower()
    if "*cmdr*" in lowered or "# !commander" in lowered:
        return Zone.COMMANDER
    for match in _CATEGORY.finditer(rest):
        category = match["category"].lower()
        if category == "token":  # taw's precon lists mark the tokens a product holds: no part of the deck
            return Zone.IGNORED
        if category.startswith("commander"):
            return Zone.COMMANDER
        if category.startswith("sideboard"):
            return Zone.SIDEBOARD
        if category.startswith("companion"):
            return Zone.COMPANION
        # a category is the user's own (Tokens may hold Doubling Season): only Archidekt's marks leave the deck
        if "{nodeck}" in category or "{maybeboard}" in category:
            return Zone.IGNORED
    return None


def split_name(name: str) -> str:
    """`Fire/Ice`, `Fire / Ice` and `Fire // Ice` all name the split card `Fire // Ice` (but `u/Em9500`
    and `1/2 of Elesh Norn` stay as they are)."""
    return re.sub(r"\s+/{1,2}\s+|(?<=\w\w)/{1,2}(?=[A-Z])", " // ", name.strip())


# --- whole files ---------------------------------------------------------------------------------------


def parse_deck(text: str, source: str = "deck", sideboard_after_blank: bool | None = None) -> Deck:
    """Read a deck list. `sideboard_after_blank`: True, the last group after a blank line is the sideboard;
    False, blank lines never start one; None, as the file's program reads it (see `_blank_line_sideboard`)."""
    stripped = text.lstrip()
    if stripped.startswith("<"):
        return _parse_xml(stripped, source)
    if stripped.startswith("{"):
        return _parse_json(stripped, source)
    header = _csv_header(text, source)
    if header is not None:
        return _parse_csv(text, source, header)
    markdown = source.lower().endswith((".md", ".markdown"))
    deck = Deck(source, N_("Markdown list") if markdown else detect_format(text, source))
    lines = _without_front_matter(text.splitlines())
    items = {number for number, line in enumerate(lines, start=1) if markdown and _MARKDOWN_ITEM.match(line)}
    lines = [_markdown_item(line) if number in items else line for number, line in enumerate(lines, start=1)]
    structured = False  # a list with headings or SB: markers: its blank lines separate no sideboard
    zone = Zone.MAIN
    forge = deck.format == "Forge .dck"
    # a list whose cards have counts: there a line without one is a heading or prose, unless it reads as a name
    counted = not forge and any(_COUNT.match(s.strip()) for s in lines if len(s) <= MAX_LINE)
    # a list with no count at all is one card a line, whatever its headings look like (a cube list's `White (45)`)
    countless = deck.format in ("Forge .dck", "XMage .dck", "MTGO / plain list", "Markdown list") or not counted
    held: dict[str, list[DeckEntry]] = {}  # card lines under Markdown headings of no zone, by heading
    heading = ""
    kind: str | None = None  # what the last type heading says its cards are
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        opened = heading_zone(line)
        if opened is None and counted:
            opened = _shouted_heading(line)
        structured = structured or opened is not None or line[:3].upper() == "SB:"
        if opened is None and markdown and line.startswith("#"):
            opened, heading = Zone.IGNORED, line  # a heading of no zone or card group: title, notes, the list?
        elif opened is not None:
            heading = ""
        if opened is not None:
            zone, kind = opened, heading_kind(line)
            continue
        read = len(deck.entries)
        if zone is Zone.IGNORED and heading:
            _hold(held.setdefault(heading, []), number, line, number in items)
        elif zone is not Zone.IGNORED and number in items:
            _read_item(deck, number, line, zone)
        elif zone is not Zone.IGNORED:
            _read_line(deck, lines, number, line, zone, countless, counted)
        if kind is not None:
            deck.kinds.update((entry.name, kind) for entry in deck.entries[read:])
    if not deck.entries and held:
        _take_held(deck, held)
    if not structured:
        _blank_line_sideboard(deck, lines, sideboard_after_blank)
    else:
        _commanders_after_sideboard(deck, lines)
    _doubt_a_large_loss(deck, held)
    return deck


# `Card Name -> 4`, `Card Name - 4`, `Island 9`: a count after the name in a shape hhd does not read
_TRAILING_NUMBER = re.compile(r"(?:\s+[-–>:=x×]+\s*|\s+)\d{1,3}$")


def _without_front_matter(lines: list[str]) -> list[str]:
    """The lines with a YAML front matter block (`---` first, `key: value` lines, `---`) blanked: a Markdown
    deck's metadata (`commander: Kudo, King Among Bears`) is no card line (jonmossman/MTG-Decks' decks/*.md).
    Blanked, not dropped, so that every other line keeps its number."""
    if not lines or lines[0].strip() != "---":
        return lines
    end = next((i for i, line in enumerate(lines[1:200], start=1) if line.strip() in ("---", "...")), None)
    if end is None or not any(_FRONT_KEY.match(line) for line in lines[1:end]):
        return lines
    return [""] * (end + 1) + lines[end + 1:]


_FRONT_KEY = re.compile(r"^[A-Za-z_][\w -]{0,40}:(?:\s|$)")


def _hold(held: list[DeckEntry], number: int, line: str, item: bool) -> None:
    """A card line under a Markdown heading that names no zone (`## Plain Text Copy/Paste`, `# Bare Bones`):
    kept aside, for such a heading may hold the deck or notes and wish lists (see `_take_held`). Counted lines
    (`1 Sol Ring`) and list items that read as a name are cards; prose and `**Bold:** notes` are not."""
    card = None
    if _COUNT.match(line):
        card = parse_card_line(line)
        if card is not None and (_is_sentence(card.name) or card.name.endswith((".", ":"))):
            card = None  # `*   3 Lands (at least 1 Green, 1 White).`: a guide's sentence, not three cards
    elif item and _reads_as_a_name(line) and "**" not in line and not line.endswith(":"):
        card = parse_card_line(line, countless=True)
    if card is not None and is_card_name(card.name):
        held.append(DeckEntry(card.count, card.name, number, card.zone or Zone.MAIN))


def _is_sentence(text: str) -> bool:
    """Words of a sentence, not of a name: two or more long words in lower case other than the ones names have
    (`Rise from the Grave`, `Pull from Tomorrow`, `Beast Within` are names; `Ramp piece that fixes` is not)."""
    lower = [w for w in re.findall(r"[^\W\d_][\w'’-]*", text) if len(w) >= 4 and w[0].islower()]
    return len([w for w in lower if w not in _NAME_WORDS]) >= 2


_NAME_WORDS = {"from", "with", "into", "over", "upon", "unto", "than", "onto", "under", "through", "without",
               "within", "beyond", "among", "against", "above", "below", "before", "after", "until", "your"}


def _take_held(deck: Deck, held: dict[str, list[DeckEntry]]) -> None:
    """A Markdown deck with no zone heading: its list is the heading's with the most cards (a guide's
    `## Plain Text Copy/Paste` of 100 beside an `## Upgrade Path` of five), with the other headings' cards when
    they are other cards (`## The Combo`, `## The Payoffs`, `## Mana Base`: the deck in parts) and the heading
    is no wish list; cards named again elsewhere (a guide's sections, then its whole list) stay notes."""
    heading = max(held, key=lambda key: sum(e.count for e in held[key]))
    names = {e.name for e in held[heading]}
    taken = [heading] + [key for key, entries in held.items() if key != heading and not _NOTES.search(key)
                         and not names & {e.name for e in entries}]
    deck.entries = sorted((e for key in taken for e in held.pop(key)), key=lambda e: e.line)


# the headings of cards beside a deck: what to add, cut or consider
_NOTES = re.compile(r"upgrade|wish|maybe|consider|\badd|\bcut|remov|swap|budget option|alternative|sideboard",
                    re.IGNORECASE)


def _commanders_after_sideboard(deck: Deck, lines: list[str]) -> None:
    """Moxfield's MTGO export: the deck, a blank line, `SIDEBOARD:` and the sideboard, a blank line, then the
    commander (one or two cards, under no heading of their own). Read so by other readers of that export
    (parsers that document "mainboard, SIDEBOARD:, sideboard cards, blank line, commander(s)")."""
    groups = _groups(deck, lines)
    if len(groups) < 3 or not all(e.zone is Zone.SIDEBOARD for e in groups[-1] + groups[-2]):
        return
    last, before = groups[-1], groups[-2]
    between = lines[before[-1].line:last[0].line - 1]
    if sum(e.count for e in last) <= 2 and all(e.count == 1 for e in last) and not any(
            heading_zone(line.strip()) for line in between if line.strip()):
        _move_zone(deck, {e.line for e in last}, Zone.COMMANDER)


def _move_zone(deck: Deck, numbers: set[int], zone: Zone) -> None:
    deck.entries = [replace(e, zone=zone) if e.line in numbers else e for e in deck.entries]


def _doubt_a_large_loss(deck: Deck, held: dict[str, list[DeckEntry]]) -> None:
    """A count that is sure or says so: when more lines were skipped than cards read, or a heading of no
    zone held more cards than the deck that was read, the count is not given as if nothing happened."""
    read = len(deck.entries)
    if len(deck.ignored) >= 3 and len(deck.ignored) > read:
        line, text = deck.ignored[0]
        deck.doubts.append(_("{source}: unsure: {n} lines not understood and {read} card lines read (the first: "
                             "line {line}, {text!r}); write one card a line as `4 Forest` under Deck and "
                             "Sideboard headings, or export the deck again").format(
            source=deck.source, n=len(deck.ignored), read=read, line=line, text=text[:60]))
    trailing = [e for e in deck.entries if e.count == 1 and _TRAILING_NUMBER.search(e.name)]
    if len(trailing) >= 5 and len(trailing) * 2 > len(deck.entries):
        deck.doubts.append(_("{source}: unsure: {n} lines read as one card each end in a number ({example!r}); if "
                             "that number is the count, write it first, as `4 Forest`").format(
            source=deck.source, n=len(trailing), example=trailing[0].name[:60]))
    for heading, entries in held.items():
        left = sum(e.count for e in entries)
        if left > max(sum(e.count for e in deck.main), 15):
            deck.doubts.append(_("{source}:{line}: unsure: {n} cards under {heading!r} were left out as notes; if "
                                 "they are the deck, put them under a 'Deck' heading").format(
                source=deck.source, line=entries[0].line, n=left, heading=heading[:60]))


_MARKDOWN_ITEM = re.compile(r"^\s*[-*+]\s+(?=\S)")  # CommonMark's bullet list markers: -, + or *, then a space


def _markdown_item(line: str) -> str:
    """A Markdown list item without its marker (`- Swamp x30`) and without the marks a hand-kept list puts after
    a name (`Brazen Borrower ✅`, `Mistbind Clique 💌`: symbols, which end no card's name that has letters)."""
    kept = _MARKDOWN_ITEM.sub("", line).rstrip()
    while kept and unicodedata.category(kept[-1]) in ("So", "Sk", "Cf", "Mn") and any(ch.isalnum() for ch in kept):
        kept = kept[:-1].rstrip()
    return kept


def _read_item(deck: Deck, number: int, item: str, zone: Zone) -> None:
    """A Markdown list item under a zone or card-group heading is one entry: `N Name`, `Name xN`, or one card of
    that name, whatever it reads like (`Summon: Ixion`, `Continue?` are cards)."""
    _add_card(deck, number, item, parse_card_line(item) or _count_after_name(item) or parse_card_line(f"1 {item}"),
              zone)


def _read_line(deck: Deck, lines: list[str], number: int, line: str, zone: Zone, countless: bool,
               counted: bool) -> None:
    """One line that is no heading: a card into the deck, or a line not understood (said, never dropped)."""
    card = parse_card_line(line) or _labelled_card(line) or _count_after_name(line)
    if card is None:
        if _is_comment_or_metadata(line):
            return
        card = parse_card_line(line, countless=countless)
        if card is not None and counted and not _reads_as_a_name(card.name):
            card = None  # "This deck wants to attack early": prose, not a one-copy card
        if card is not None and _is_title(lines, number, blank_ends=counted):
            deck.not_understood(number, line, _("read as the deck's title, not a card"))
            return
    _add_card(deck, number, line, card, zone)


def _add_card(deck: Deck, number: int, line: str, card: CardLine | None, zone: Zone) -> None:
    """The card a line was read as into the deck (in its own zone, else the one the line is under), or the line
    as not understood, saying why when it had a name of no letters."""
    if card is None:
        deck.not_understood(number, line)
    elif not is_card_name(card.name):
        deck.not_understood(number, line, _("the name has no letters, digits or symbols"))
    else:
        deck.entries.append(DeckEntry(card.count, card.name, number, card.zone or zone))


MIN_MAIN = 40  # the smallest main deck (limited); a list of fewer cards has no sideboard group
MAX_LIMITED_MAIN = 45  # a limited deck: 40 cards and a few; its sideboard is the rest of the pool, any size
MAX_SIDEBOARD = 15  # a constructed sideboard: up to fifteen cards
COMMANDER_DECK = 100  # a Commander deck has no sideboard
_BASICS = {normalize_name(name) for name in BASIC_LANDS}


def _plausible_sideboard(deck: Deck, last: list[DeckEntry], rest: int, side: int) -> bool:
    """The second of two groups is a sideboard when it looks like one: not the deck's basic lands (a sideboard
    may hold a few, not mostly basics and more than five), not the end of a 100-card Commander deck, and at
    most 15 cards behind a deck of 40 or more (constructed) or any number behind a deck of 40 to 45 (limited:
    the rest of the pool, as MTGO writes a draft deck). Arena's plain form takes any size behind any deck."""
    basics = sum(e.count for e in last if normalize_name(e.name).removeprefix("snowcovered") in _BASICS)
    if (basics * 2 > side and basics > 5) or rest + side == COMMANDER_DECK:  # lands group: more than 5 basics
        return False
    if deck.format.startswith("Arena"):
        return True
    return rest >= MIN_MAIN and (side <= MAX_SIDEBOARD or rest <= MAX_LIMITED_MAIN)


def is_card_name(name: str) -> bool:
    """A name a card can have: letters or digits of any script, or symbols alone (the real `_____`, the
    registry's `🖕`), but not a line of dashes or equals signs drawn between groups."""
    if normalize_name(name):
        return True
    kept = name.replace(" ", "")
    return bool(kept) and not set(kept) <= set("-=*~#.+|") and all(
        ch == "_" or unicodedata.category(ch).startswith("S") or unicodedata.category(ch) == "Mn" for ch in kept)


def _groups(deck: Deck, lines: list[str]) -> list[list[DeckEntry]]:
    """The deck's entries in runs separated by blank lines (comments inside a run do not break it)."""
    groups: list[list[DeckEntry]] = []
    previous = 0
    for entry in deck.entries:
        between = lines[previous:entry.line - 1]
        if not groups or any(not line.strip() for line in between):
            groups.append([])
        groups[-1].append(entry)
        previous = entry.line
    return groups


def _blank_line_sideboard(deck: Deck, lines: list[str], after_blank: bool | None) -> None:
    """Blank lines in a list without headings, read as the file's program reads them.

    - `.dec` (Apprentice, MWS): XMage's DecDeckImporter skips blank lines (only `SB:` marks the sideboard;
      magefree/mage Mage/src/main/java/mage/cards/decks/importer/DecDeckImporter.java, readLine).
    - text (Cockatrice, MTGO, Arena): a blank line is the sideboard break only when it is the one break
      (Cockatrice/Cockatrice libcockatrice_deck_list/libcockatrice/deck_list/deck_list.cpp,
      DeckList::loadFromStream_Plain: the first empty line after the cards starts the sideboard unless another
      follows the next card; its tests UseFirstBlankIfOnlyOneBlankToSplitSideboard and
      IfMultipleScatteredBlanksAllMainBoard), and hhd wants a sideboard that looks like one
      (`_plausible_sideboard`); 99 cards and one or two after the break are a Commander deck and its
      commanders.
    Where that is unsure (two groups that could be deck and sideboard or one deck), the list is one deck
    and `doubts` says how to make it explicit; `after_blank` True or False decides instead.
    """
    groups = _groups(deck, lines)
    if len(groups) < 2 or after_blank is False or deck.source.lower().endswith(".dec"):
        return
    last = groups[-1]
    rest = sum(e.count for group in groups[:-1] for e in group if e.zone in IN_MAIN)
    side = sum(e.count for e in last)
    first = last[0].line
    if after_blank is None and len(groups) == 2 and rest + side == COMMANDER_DECK and side <= 2:
        _move_from(deck, first, Zone.COMMANDER)  # 99 cards, a blank line, one or two: the commanders
    elif after_blank or (len(groups) == 2 and _plausible_sideboard(deck, last, rest, side)):
        _move_from(deck, first, Zone.SIDEBOARD)
    elif len(groups) == 2 and rest + side != COMMANDER_DECK and (
            side <= MAX_SIDEBOARD or MIN_MAIN <= rest <= MAX_LIMITED_MAIN):
        deck.doubts.append(ngettext(
            "{source}:{line}: read as one deck; if the {n} card from here on is a sideboard, write 'Sideboard' "
            "above it or pass --sideboard-after-blank",
            "{source}:{line}: read as one deck; if the {n} cards from here on are a sideboard, write 'Sideboard' "
            "above them or pass --sideboard-after-blank", side).format(source=deck.source, line=last[0].line, n=side))


def _move_from(deck: Deck, first: int, zone: Zone) -> None:
    """The main-deck entries from line `first` on go to `zone`."""
    deck.entries = [replace(e, zone=zone) if e.line >= first and e.zone is Zone.MAIN else e for e in deck.entries]


_LABELLED = re.compile(r"^(?P<label>commander|companion)\s*:\s*(?P<name>\S.*)$", re.IGNORECASE)


def _labelled_card(line: str) -> CardLine | None:
    """`Commander: Atraxa, Praetors' Voice` (no count), as some sites write the commander, and taw's precon
    lists' `COMMANDER: 1 Bright-Palm, Soul Awakener [MOC:1] [foil]` (magic-preconstructed-decks lib/deck.rb:
    the prefix is dropped, then the line is a card line)."""
    match = _LABELLED.match(line)
    if not match:
        return None
    card = parse_card_line(match["name"]) or parse_card_line(f"1 {match['name']}")
    zone = Zone.COMMANDER if match["label"].lower() == "commander" else Zone.COMPANION
    return CardLine(card.count, card.name, zone) if card else None


# `Island: 9`, `Island x9`, `Lightning Bolt x 4`: the count after the name (hand-written lists); `Format: 60`
# and the like stay metadata
_COUNT_AFTER_NAME = re.compile(r"^(?P<name>[^\d\s:][^:]{0,150}?)(?:\s*:|\s+[xX]|\s*\*)\s*(?P<count>[0-9]{1,4})$")
_METADATA_KEYS = {"name", "description", "format", "creator", "author", "deck", "date", "version", "event", "player",
                  "place", "rank", "rating", "id", "url", "source", "set", "total", "cards", "count", "price", "wins",
                  "losses", "record", "round", "season", "year", "level", "size", "main", "side", "mainboard"}


def _count_after_name(line: str) -> CardLine | None:
    match = _COUNT_AFTER_NAME.match(line)
    if not match or match["name"].strip().lower() in _METADATA_KEYS:
        return None
    card = parse_card_line(f"{match['count']} {match['name']}")
    return card if card and int(match["count"]) > 0 else None


_SHOUTED = re.compile(r"^(?://+\s*|#+\s*)?(?P<words>[A-Z][A-Z &'/-]{2,40}?)\s*(?:\(\d+\))?\s*:?\s*(?:\d+)?$")


def _shouted_heading(line: str) -> Zone | None:
    """An upper-case heading of a hand-written list (`OTHER SPELLS`, `SIDEBOARD CARDS (15)`) in a list whose
    cards have counts: a group of the main deck, or the sideboard or maybeboard its words name."""
    match = _SHOUTED.match(line)
    if not match:
        return None
    words = match["words"].lower()
    for word, zone in (("side", Zone.SIDEBOARD), ("maybe", Zone.IGNORED), ("token", Zone.IGNORED),
                       ("commander", Zone.COMMANDER), ("companion", Zone.COMPANION)):
        if word in words:
            return zone
    return Zone.MAIN


def _is_title(lines: list[str], number: int, blank_ends: bool = True) -> bool:
    """A line without a count first in a counted list, with a blank line or a heading after it, or first in any
    list with a date after it: the deck's name ("Mono Red Burn"), not one copy of a card (Cockatrice's loadFromStream_Plain reads the lines before
    the blank line ahead of the first card as the deck's name and comments)."""
    if any(line.strip() for line in lines[:number - 1]):
        return False
    after = next((line.strip() for line in lines[number:] if line.strip()), "")
    if number < len(lines) and bool(_DATE.match(after)):
        return True  # a title and the date the list was made (a generated cube list), in any list
    return number < len(lines) and blank_ends and (not lines[number].strip() or heading_zone(after) is not None)


def _reads_as_a_name(name: str) -> bool:
    """A line without a count in a counted list is a card (Cockatrice reads `Æther Adept` as one) when it
    reads like a card name: every long word capitalised, as names are and sentences are not."""
    words = re.findall(r"[^\W\d_][\w'’-]*", name)
    if _TALLY.search(name):  # "Currently 100 Cards (67 Tokens, 33 Spells)": a list's description of itself
        return False
    return bool(words) and len(words) <= 12 and all(not w[0].islower() for w in words if len(w) >= 4)


# a line that is a date, alone or after a word or two (`2024-05-01`, `Updated: May 1, 2024`, `Exported 01/05/2024 12:00`):
# a generated list's date, no card (a card's name has a year at most: `1996 World Champion`)
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DATE = re.compile(r"^(?:[A-Za-z][A-Za-z ]{0,30}:?\s+)?(?:\w+,?\s+)?(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|"
                   rf"{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}\s+{_MONTH}\s+\d{{4}})"
                   r"(?:[ T,]+\d{1,2}:\d{2}(?::\d{2})?\S*(?:\s*[AP]M)?(?:\s*[A-Z]{2,5})?)?$", re.IGNORECASE)
_TALLY = re.compile(r"\b\d+\s+(?:cards?|tokens?|spells?)\b", re.IGNORECASE)
# a ruler a generated list draws around its headings (`------`): no card and nothing to warn of (`_____` is a card)
_RULER = re.compile(r"^[-=*~]{3,}$")


def _is_comment_or_metadata(line: str) -> bool:
    """Lines every exporter writes that are not cards: comments, rulers, Forge's `Name=`, XMage's `NAME:` and
    `LAYOUT`, Arena's `About` block."""
    if line.startswith(("//", "#", ";", "LAYOUT ")) or _DATE.match(line) or _RULER.match(line):
        return True
    return len(line) <= MAX_LINE and bool(_METADATA.match(line)) and not _is_colon_name(line)


def _is_colon_name(line: str) -> bool:
    """`Summon: Ixion`, `Ultimate Magic: Holy`, `Circle of Protection: Red`: a card's name with a colon, not a
    `Key: value` line. Its key is none that deck files use for metadata (XMage's `NAME:` and `AUTHOR:`, `Format:`
    …) and every long word on both sides is capitalised, as in names; Cockatrice's plain loader reads such a line
    as a card too (it takes no `Key: value` line for metadata)."""
    key, colon, value = line.partition(":")
    return (bool(colon) and "=" not in line and bool(value.strip()) and key.strip().lower() not in _METADATA_KEYS
            and _reads_as_a_name(f"{key} {value}"))


def detect_format(text: str, source: str = "") -> str:
    """The exporter that wrote a text deck list, from what its lines look like."""
    lowered = text.lower()
    lines = [line.strip() for line in text.splitlines() if line.strip() and len(line) <= MAX_LINE]

    joined = "\n".join(lines)

    def has(pattern: str) -> bool:
        # one search of the whole list first: a line's match is one of the list's, read line by line (re.M), so
        # a list with none has no line with one; the line-by-line search then only confirms what that one found
        found = re.compile(pattern, re.IGNORECASE)
        if re.compile(pattern, re.IGNORECASE | re.MULTILINE).search(joined) is None:
            return False
        return any(found.search(line) for line in lines)

    if "deck file for magic workstation" in lowered or source.lower().endswith(".mwdeck"):
        return "Magic Workstation"
    if has(r"^\[(metadata|main|sideboard|commander)\]$"):
        return "Forge .dck"
    if has(r"^(SB:\s*)?\d+\s+\[[A-Za-z0-9_]+:[\w★-]+\]") or any(
            re.match(r"NAME:|LAYOUT (MAIN|SIDEBOARD):", line) for line in lines):
        return "XMage .dck"
    if has(r"\[[^\]]*\{(top|noDeck|noPrice)\}[^\]]*\]") or has(r"\^[^^]*\^$"):
        return "Archidekt"
    if has(r"#\s*!Commander") or has(r"^//\s*(main|sideboard|maybeboard)\s*$"):
        return "Deckstats"
    if has(r"\*CMDR\*") or has(r"^[A-Za-z]+ \(\d+\)$"):
        return "TappedOut"
    if has(r"^(SB:\s*)?\d+\s+\[[A-Za-z0-9_]{2,6}\]\s"):
        return "Magic Workstation"
    if has(r"^(about|deck|commander|companion|sideboard)$") and has(r"\([A-Za-z0-9_]{2,6}\)\s+[\w★-]+$"):
        return "Arena"
    if has(r"\([A-Za-z0-9_]{2,6}\)\s+[\w★-]+(\s+\*[A-Z]+\*)?$"):
        # foil marks and an upper-case SIDEBOARD: are Moxfield's; without them Arena writes the same lines
        return "Moxfield" if has(r"\*[FE]\*$") or "SIDEBOARD:" in text else "Arena / Moxfield"
    if has(r"^\d+\s+.+\s\[[A-Za-z0-9_]{2,6}\]$"):
        return "TCGplayer"
    if has(r"^SB:"):
        return "Apprentice / MTGTop8"
    if has(r"^(deck|sideboard)$"):
        return "Arena / MTGGoldfish"
    return N_("MTGO / plain list")


class _XmlDeck:
    """An XML deck read as a stream of elements (expat), so that no depth of nesting can exhaust the stack
    and an element refused is named by its line, never serialised back."""

    def __init__(self, source: str, parser: object) -> None:
        self.parser = parser
        self.deck: Deck | None = None
        self.root = ""
        self.zones: list[Zone] = []
        self.catalogue_only = 0
        self.source = source
        self.card: tuple[int, int, Zone] | None = None  # an OCTGN <card> being read: line, count, zone
        self.text: list[str] = []

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        line = self.parser.CurrentLineNumber  # type: ignore[attr-defined]
        if self.deck is None:
            self.root = tag
            self.deck = Deck(self.source, _XML_FORMATS.get(tag, "MTGO .dek"))
        if self.root == "cockatrice_deck":
            self._cod(tag, attrs, line)
        elif self.root == "deck":
            self._o8d(tag, attrs, line)
        elif tag == "Cards":
            self._dek(attrs, line)

    def end(self, tag: str) -> None:
        if tag in ("zone", "section") and self.zones:
            self.zones.pop()
        elif tag == "card" and self.card is not None and self.deck is not None:
            line, count, zone = self.card
            name = "".join(self.text).strip()
            self.card, self.text = None, []
            if is_card_name(name):
                self.deck.entries.append(DeckEntry(count, split_name(name), line, zone))
            else:
                self.deck.not_understood(line, "<card>", _("card without a name"))

    def characters(self, data: str) -> None:
        if self.card is not None and sum(map(len, self.text)) < MAX_LINE:
            self.text.append(data)

    def _o8d(self, tag: str, attrs: dict[str, str], line: int) -> None:
        """OCTGN: <deck><section name="Main|Sideboard|Command Zone"><card qty="4" id="…">Forest</card>,
        as XMage's O8dDeckImporter reads it (sections Main and Sideboard; qty 1 when missing or no number;
        magefree/mage Mage/src/main/java/mage/cards/decks/importer/O8dDeckImporter.java)."""
        if tag == "section":
            self.zones.append(_O8D_SECTIONS.get(attrs.get("name", "").lower(), Zone.IGNORED))
        elif tag == "card" and self.zones:
            quantity = attrs.get("qty", "1")
            self.card, self.text = (line, min(100, max(1, int(quantity))) if _is_count(quantity) else 1,
                                    self.zones[-1]), []

    def _cod(self, tag: str, attrs: dict[str, str], line: int) -> None:
        """Cockatrice: <zone name="main|side|tokens"><card number="4" name="Forest"/></zone>, each card's
        `number` in its zone (Cockatrice InnerDecklistNode::readElement)."""
        assert self.deck is not None
        if tag == "zone":
            self.zones.append(_COD_ZONES.get(attrs.get("name", "").lower(), Zone.IGNORED))
        elif tag == "card" and self.zones:
            name, count = attrs.get("name"), attrs.get("number", "1")
            if not name or not _is_count(count) or not is_card_name(name):
                self.deck.not_understood(line, f"<card number={count[:20]!r} name={(name or '')[:60]!r}>",
                                         _("card without a name"))
                return
            self.deck.entries.append(DeckEntry(int(count), split_name(name), line, self.zones[-1]))

    def _dek(self, attrs: dict[str, str], line: int) -> None:
        """MTGO .dek: <Cards CatID Quantity Sideboard Name/>, as Magic Online writes it and XMage's
        DekDeckImporter reads it (Quantity, Sideboard="true", Name; magefree/mage
        Mage/src/main/java/mage/cards/decks/importer/DekDeckImporter.java)."""
        assert self.deck is not None
        name, quantity = attrs.get("Name"), attrs.get("Quantity", "1")
        if not name or not _is_count(quantity):
            if not name and (attrs.get("CatID") or attrs.get("CatId")):
                self.catalogue_only += 1
            self.deck.not_understood(line, "<Cards>", _("card entry without a name") if not name else _("Quantity is not a count"))
            return
        sideboard = attrs.get("Sideboard", "false").lower() == "true"
        self.deck.entries.append(DeckEntry(int(quantity), split_name(name), line,
                                           Zone.SIDEBOARD if sideboard else Zone.MAIN))


def _parse_xml(text: str, source: str) -> Deck:
    from xml.parsers import expat

    parser = expat.ParserCreate()
    state = _XmlDeck(source, parser)
    parser.StartElementHandler = state.start
    parser.EndElementHandler = state.end
    parser.CharacterDataHandler = state.characters
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise InputError(_("{source}: not a readable XML deck ({reason})").format(source=source, reason=exc),
                         _("export the deck again")) from exc
    deck = state.deck or Deck(source, "XML")
    if deck.format == "MTGO .dek":
        _commanders_from_sideboard(deck)
    if not deck.entries and state.catalogue_only:
        raise InputError(
            ngettext("{source}: an MTGO .dek that lists its {n} card by catalogue number (CatID) only, without a "
                     "name; hhd needs card names",
                     "{source}: an MTGO .dek that lists its {n} cards by catalogue number (CatID) only, without "
                     "names; hhd needs card names", state.catalogue_only).format(source=source, n=state.catalogue_only),
            _("export the deck from Magic Online as text (.txt), which writes the names, or write it one card a line "
              "(4 Forest)"))
    if not deck.entries and state.root not in _XML_FORMATS:
        raise InputError(_("{source}: XML, but not a deck this hhd reads (<{tag}>)").format(source=source,
                                                                                        tag=state.root[:40]),
                         _("export as MTGO .dek, Cockatrice .cod or text"))
    return deck


def _commanders_from_sideboard(deck: Deck) -> None:
    """A Commander deck from Magic Online: 98 or 99 cards and its one or two commanders in the sideboard, where MTGO
    keeps them and XMage's Commander check takes them from (a sideboard of one or two cards is the commanders:
    magefree/mage Mage.Server.Plugins/Mage.Deck.Constructed/src/mage/deck/AbstractCommander.java, validate)."""
    main, side = sum(e.count for e in deck.main), sum(e.count for e in deck.sideboard)
    if 1 <= side <= 2 and main + side == COMMANDER_DECK:
        deck.entries = [replace(e, zone=Zone.COMMANDER) if e.zone is Zone.SIDEBOARD else e for e in deck.entries]


_COD_ZONES = {"main": Zone.MAIN, "side": Zone.SIDEBOARD, "sideboard": Zone.SIDEBOARD, "tokens": Zone.IGNORED}
_O8D_SECTIONS = {"main": Zone.MAIN, "sideboard": Zone.SIDEBOARD, "command zone": Zone.COMMANDER}
_XML_FORMATS = {"Deck": "MTGO .dek", "cockatrice_deck": "Cockatrice .cod", "deck": "OCTGN .o8d"}


# --- CSV decks, read by their header ------------------------------------------------------------------

# The header of each exporter, as it writes it:
# - MTGO: Card Name,Quantity,ID #,Rarity,Set,Collector #,Premium,Sideboarded[,Annotation]
#   (Sideboarded Yes/No; Magic Online's CSV export, as mtgo-collection-manager and XMage's exporter write it)
# - Deckbox: Count,Tradelist Count,Name,Edition,Card Number,Condition,Language,Foil,…
# - Moxfield: "Count","Tradelist Count","Name","Edition",… (collection export, Deckbox's columns);
#   its API decks as CSV: quantity,boardType,name,… (boardType mainboard/sideboard/commanders/maybeboard)
# - Archidekt: Quantity,Name,…,Categories (categories Commander, Sideboard, Maybeboard as in its text export)
_NAME_COLUMNS = ("card name", "name", "card", "cardname", "card_name")
# printcount first: Untapped.gg's Arena collection (Id,Name,Set,Color,Rarity,Count,PrintCount; one row per printing)
# has Count, the card's count over all its printings (at most 4, the same on each of its rows), and PrintCount,
# the copies of this printing: the rows' PrintCounts add up to the collection
_COUNT_COLUMNS = ("printcount", "quantity", "count", "qty", "amount")
_BOARD_COLUMNS = ("sideboarded", "sideboard", "boardtype", "board type", "board", "section", "zone", "categories",
                  "category")
_BOARDS = {**dict.fromkeys(("yes", "true", "1", "sideboard", "side", "sideboards"), Zone.SIDEBOARD),
           **dict.fromkeys(("commander", "commanders"), Zone.COMMANDER),
           **dict.fromkeys(("companion", "companions"), Zone.COMPANION),
           **dict.fromkeys(("maybeboard", "maybe", "considering", "tokens", "token", "attractions", "stickers",
                            "acquireboard", "wishboard"), Zone.IGNORED)}


@dataclass(frozen=True)
class CsvHeader:
    """A CSV deck's first line: its columns (lower case) and the delimiter that separates them."""

    columns: list[str]
    delimiter: str
    at: int = 0  # the header's index among the lines (after a `sep=` line, 1)


def _csv_header(text: str, source: str) -> CsvHeader | None:
    """The header of a CSV deck: a .csv file whose first line has columns (a plain list saved as .csv is read as
    text), or a first line that is a header with a name and a quantity column; None for any other text.
    Separated by `;` when the line holds semicolons and no comma, as a spreadsheet or app writes CSV in a
    locale whose decimal mark is the comma (Dragon Shield's export in French: `Quantity; Name; CardNumber; …`)."""
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if line.strip()), 0)
    first = lines[at] if lines else ""
    declared = _EXCEL_SEP.match(first)
    if declared:  # Excel's `sep=,` line (Dragon Shield's export begins with it): the header is the next line
        at = next((i for i, line in enumerate(lines) if i > at and line.strip()), at)
        first = lines[at]
    delimiter = declared["sep"] if declared else ";" if first.count(";") >= 1 and "," not in first else ","
    if len(first) > 2000 or first.count(delimiter) < 1:
        return None
    columns = [cell.strip().strip("\ufeff").lower() for cell in next(csv.reader([first], delimiter=delimiter))]
    if source.lower().endswith(".csv") and len(columns) > 1 or \
            any(c in columns for c in _NAME_COLUMNS) and any(c in columns for c in _COUNT_COLUMNS):
        return CsvHeader(columns, delimiter, at)
    return None


# Quoted as Dragon Shield writes it (`"sep=,"`), or bare as Excel reads it
_EXCEL_SEP = re.compile(r'^\ufeff?\s*(?P<q>"?)sep=(?P<sep>[,;\t|])(?P=q)\s*$', re.IGNORECASE)


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    return next((header.index(n) for n in names if n in header), None)


def _csv_format(header: list[str]) -> str:
    if "card name" in header and "sideboarded" in header or "id #" in header:
        return "MTGO .csv"
    if "tradelist count" in header:
        return "Deckbox / Moxfield .csv"
    if "boardtype" in header:
        return "Moxfield .csv"
    if "printcount" in header:
        return "Untapped.gg .csv"
    if "manabox id" in header:  # ManaBox's export: Name, Set code, …, Quantity, ManaBox ID, Scryfall ID, …
        return "ManaBox .csv"
    if "categories" in header or "scryfall id" in header:
        return "Archidekt .csv"
    return "CSV"


def _parse_csv(text: str, source: str, csv_header: CsvHeader) -> Deck:
    header = csv_header.columns
    name_at, count_at = _column(header, _NAME_COLUMNS), _column(header, _COUNT_COLUMNS)
    if name_at is None:
        shown = ", ".join(c[:30] for c in header[:12]) or _("none")
        raise InputError(_("{source}: a CSV file hhd cannot read as a deck (columns: {columns})").format(
            source=source, columns=shown),
            _("export it with a Name and a Quantity column (MTGO, Moxfield, Deckbox, Archidekt CSV) or as text"))
    board_at = _column(header, _BOARD_COLUMNS)
    deck = Deck(source, _csv_format(header))
    rows = csv.reader(text.splitlines()[csv_header.at + 1:], delimiter=csv_header.delimiter)
    try:
        _read_csv_rows(deck, rows, name_at, count_at, board_at, len(header), csv_header.at + 2,
                       _column(header, ("maybeboard",)))
    except csv.Error as exc:  # a field over the csv module's limit (128 KB): no deck holds one
        raise InputError(_("{source}:{line}: not a CSV row hhd can read ({reason})").format(
            source=source, line=rows.line_num + csv_header.at + 1, reason=exc),
            _("export the deck again, or as text, one card a line (4 Forest)")) from None
    _doubt_a_large_loss(deck, {})
    return deck


def _read_csv_rows(deck: Deck, rows: Iterator[list[str]], name_at: int, count_at: int | None,
                   board_at: int | None, columns: int, first: int, maybe_at: int | None = None) -> None:
    """The rows after the header (`first` is the first one's line number). `maybe_at`: CubeCobra's `maybeboard`
    column (true or false): a card considered for the cube, not in it."""
    side_marked = False  # a lone `Sideboard` row puts the rows after it in the sideboard
    for number, row in enumerate(rows, start=first):
        if not any(cell.strip() for cell in row):
            continue
        if _is_sideboard_row(row):
            side_marked = True
            continue
        name = _csv_name(row, name_at, columns)
        count = row[count_at].strip() if count_at is not None and count_at < len(row) else "1"
        if not name or len(name) > MAX_LINE or not _is_count(count) or not is_card_name(name):
            deck.not_understood(number, ",".join(row)[:200], _("not a card row"))
            continue
        board = row[board_at].strip().lower() if board_at is not None and board_at < len(row) else ""
        zone = Zone.SIDEBOARD if side_marked else _BOARDS.get(board.split(",")[0].strip(), Zone.MAIN)
        if maybe_at is not None and maybe_at < len(row) and row[maybe_at].strip().lower() in ("true", "yes", "1"):
            zone = Zone.IGNORED
        if int(count):
            deck.entries.append(DeckEntry(int(count), split_name(name), number, zone))


def _is_sideboard_row(row: list[str]) -> bool:
    """A row of one cell `Sideboard`: the sideboard follows, as Delver Lens deck exports (`Quantity,Name`, a blank
    row, `Sideboard`, the sideboard's rows) mark it and cube-tools reads them (caseydavenport/cube-tools,
    pkg/commands/parse.go, cardsFromCSVBytes: 'A "Sideboard" marker can appear as a single-column row')."""
    cells = [cell.strip() for cell in row if cell.strip()]
    return len(cells) == 1 and cells[0].rstrip(":").lower() == "sideboard"


def _csv_name(row: list[str], name_at: int, columns: int) -> str:
    """The row's card name. When the name is the last column and the row has more cells than the header, the
    name held commas and was not quoted (Delver Lens writes `1,Otawara, Soaring City` under `Quantity,Name`):
    the cells from the name column on are the name."""
    if name_at >= len(row):
        return ""
    cells = row[name_at:]
    while len(cells) > 1 and not cells[-1].strip():
        cells = cells[:-1]  # a trailing comma is no part of the name
    if name_at == columns - 1 and len(cells) > 1:
        return ",".join(cells).strip()
    return row[name_at].strip()


# --- JSON decks: Moxfield's API and MTGJSON ----------------------------------------------------------------

# Moxfield's deck API: v2 writes the boards at the top ("mainboard": {name: {"quantity", "card": {"name"}}}),
# v3 under "boards" ({"mainboard": {"cards": {id: {"quantity", "boardType", "card": {"name"}}}}}).
# MTGJSON's deck files (mtgjson.com data model "Deck"; XMage's MtgjsonDeckImporter reads mainBoard, sideBoard):
# lists of {"name", "count"} under mainBoard, sideBoard, commander, displayCommander, planes, schemes, tokens.
_JSON_BOARDS = {"mainboard": Zone.MAIN, "mainBoard": Zone.MAIN, "commanders": Zone.COMMANDER,
                "commander": Zone.COMMANDER, "companions": Zone.COMPANION, "sideboard": Zone.SIDEBOARD,
                "sideBoard": Zone.SIDEBOARD}


def _parse_json(text: str, source: str) -> Deck:
    from hhdcli.jsonio import load_json

    try:
        document = load_json(text)
    except ValueError as exc:
        raise InputError(_("{source}: not a readable JSON deck ({reason})").format(source=source, reason=exc),
                         _("export the deck again")) from exc
    if not isinstance(document, dict):
        raise InputError(_("{source}: JSON, but not a deck").format(source=source),
                         _("export the deck as text, one card a line (4 Forest)"))
    if isinstance(document.get("data"), dict) and "mainBoard" in document["data"]:
        document = document["data"]  # MTGJSON: {"meta": {...}, "data": {the deck}}
    if isinstance(document.get("cards"), list) and isinstance(document.get("categories"), list):
        deck = _archidekt_json(document, source)
    elif isinstance(document.get("convertedDeck"), list):
        deck = _aetherhub_json(document["convertedDeck"], source)
    else:
        deck = _board_json(document, source)
    if not deck.entries and not deck.ignored:
        raise InputError(_("{source}: JSON without the boards of a Moxfield or MTGJSON deck (keys: {keys})").format(
            source=source, keys=", ".join(str(k)[:30] for k in list(document)[:12])),
            _("export the deck as text, one card a line (4 Forest)"))
    return deck


def _board_json(document: dict, source: str) -> Deck:
    """Moxfield's API (v2 boards at the top, v3 under "boards") and MTGJSON's mainBoard/sideBoard lists."""
    boards: dict = document["boards"] if isinstance(document.get("boards"), dict) else document
    deck = Deck(source, "Moxfield API .json" if "boards" in document or "publicId" in document else "MTGJSON .json")
    for key, zone in _JSON_BOARDS.items():
        board = boards.get(key)
        if isinstance(board, dict) and isinstance(board.get("cards"), dict):
            board = board["cards"]  # v3
        entries = board.values() if isinstance(board, dict) else board if isinstance(board, list) else []
        for number, entry in enumerate(entries, start=1):
            if not isinstance(entry, dict):
                continue
            card: dict = entry["card"] if isinstance(entry.get("card"), dict) else entry
            _json_card(deck, number, key, card.get("name"), entry.get("quantity", entry.get("count", 1)), zone=zone)
    return counted_once(deck)


def counted_once(deck: Deck) -> Deck:
    """A card the site keeps in two boards is one card: a companion Moxfield lists in both `companions` and
    `sideboard` (its deck API, read from a link or pasted as a file; TappedOut's page under its Companion heading
    and in its sideboard) is the deck's companion, shown as such by the site's deck view; the sideboard's copy is
    not counted again."""
    companions: dict[str, int] = {}
    for entry in deck.entries:
        if entry.zone is Zone.COMPANION:
            companions[entry.name] = companions.get(entry.name, 0) + entry.count
    kept = []
    for entry in deck.entries:
        left = companions.get(entry.name, 0) if entry.zone is Zone.SIDEBOARD else 0
        if left:
            companions[entry.name] = left - min(left, entry.count)
            if entry.count <= left:
                continue
            entry = DeckEntry(entry.count - left, entry.name, entry.line, entry.zone)
        kept.append(entry)
    deck.entries = kept
    return deck


def _json_card(deck: Deck, number: int, where: str, name: object, count: object, *, zone: Zone) -> None:
    """One card entry of a JSON deck, or an entry not understood (its name shown, never the entry serialised)."""
    if not isinstance(name, str) or not is_card_name(name) or type(count) is not int or not 0 < count < 10_000:
        shown = name[:60] if isinstance(name, str) else f"<{type(name).__name__}>"
        deck.not_understood(number, f"{where}: {shown}", _("not a card entry"))
        return
    deck.entries.append(DeckEntry(count, split_name(name), number, zone))


def _archidekt_json(document: dict, source: str) -> Deck:
    """Archidekt's deck API (archidekt.com/api/decks/ID/): `cards` of {quantity, categories, card: {oracleCard:
    {name}}}, and the deck's `categories` with `includedInDeck`. A card is in the deck when it has no category or
    one that is included (as lheyberger/mtg-parser reads it, src/mtg_parser/archidekt.py); its first category
    names its zone (Commander, Companion, Sideboard), as in Archidekt's text and CSV exports."""
    deck = Deck(source, "Archidekt API .json")
    included = {c.get("name") for c in document["categories"]
                if isinstance(c, dict) and c.get("includedInDeck") and isinstance(c.get("name"), str)}
    for number, entry in enumerate(document["cards"], start=1):
        if not isinstance(entry, dict):
            continue
        given = entry.get("categories")  # names, as Archidekt writes them: an object or a number is none
        categories = [c for c in given if isinstance(c, str)] if isinstance(given, list) else []
        if categories and not included & set(categories):
            continue  # Maybeboard and the other categories kept out of the deck
        card = entry["card"] if isinstance(entry.get("card"), dict) else {}
        oracle = card["oracleCard"] if isinstance(card.get("oracleCard"), dict) else {}
        zone = _BOARDS.get(categories[0].lower(), Zone.MAIN) if categories else Zone.MAIN
        _json_card(deck, number, "cards", oracle.get("name"), entry.get("quantity"), zone=zone)
    return deck


def _aetherhub_json(entries: list, source: str) -> Deck:
    """AetherHub's deck JSON (FetchMtgaDeckJson): `convertedDeck` rows of {quantity, name}; a row without a
    quantity is a heading (Commander, Companion, Deck, Sideboard, Maybeboard) for the rows after it, as
    lheyberger/mtg-parser reads it (src/mtg_parser/aetherhub.py)."""
    deck = Deck(source, "AetherHub .json")
    zone = Zone.MAIN
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            continue
        if not entry.get("quantity"):
            heading = entry.get("name")
            zone = _HEADING_ZONES.get(heading.strip().lower(), Zone.MAIN) if isinstance(heading, str) else Zone.MAIN
        elif zone is not Zone.IGNORED:
            _json_card(deck, number, "convertedDeck", entry.get("name"), entry.get("quantity"), zone=zone)
    return deck

"""Deck lists as players export them, read into one shape (pure functions).

Recognised from the content (the file's extension is only a hint): Arena (About/Commander/Companion/
Deck/Sideboard sections, or the plain form with a blank line before the sideboard), MTGO .txt and .dek,
Moxfield, Archidekt, TappedOut, MTGGoldfish, MTGTop8, Deckstats, TCGplayer, Forge/Apprentice .dck,
XMage .dck, Magic Workstation .mwDeck and Cockatrice .cod. Set codes, collector numbers, foil marks,
categories and art variants are stripped from names; commander and companion count as main deck;
maybeboards, tokens and "considering" do not count at all; every line not understood is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum

from hhdcli.cards import normalize_name
from hhdcli.errors import InputError
from hhdcli.i18n import N_, _


class Zone(StrEnum):
    MAIN = "main"
    COMMANDER = "commander"  # counts as main deck
    COMPANION = "companion"  # counts as main deck (hhd: it is played from outside the game)
    SIDEBOARD = "sideboard"
    IGNORED = "ignored"  # maybeboard, considering, tokens: not part of the deck


IN_MAIN = (Zone.MAIN, Zone.COMMANDER, Zone.COMPANION)


@dataclass(frozen=True)
class DeckEntry:
    count: int
    name: str
    line: int
    zone: Zone = Zone.MAIN


MAX_PROBLEMS = 10
MAX_LINE = 300  # a longer line is no card line (and no regular expression gets to scan it)


@dataclass
class Deck:
    source: str
    format: str = N_("plain list")
    entries: list[DeckEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    ignored: list[tuple[int, str]] = field(default_factory=list)  # (line, text) not understood

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

    def not_understood(self, number: int, text: str, why: str = "not a deck line") -> None:
        self.ignored.append((number, text[:200]))
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(f"{self.source}:{number}: {why}: {text[:60]!r}")
        elif len(self.problems) == MAX_PROBLEMS:
            self.problems.append("")  # the "… and N more" line, filled in by `warnings`

    @property
    def warnings(self) -> list[str]:
        """The problems to show: the first ten lines, then how many more (a huge file is not a screenful)."""
        if len(self.problems) <= MAX_PROBLEMS:
            return list(self.problems)
        return [*self.problems[:MAX_PROBLEMS], f"{self.source}: … and {len(self.ignored) - MAX_PROBLEMS} more "
                                              "lines not understood"]

    def summary(self) -> dict[str, object]:
        return {"format": self.format, "main": sum(e.count for e in self.main),
                "sideboard": sum(e.count for e in self.sideboard), "commander": self.commanders,
                "ignored": [{"line": line, "text": text} for line, text in self.ignored]}

    def describe(self) -> str:
        s = self.summary()
        return _("{source} ({format}): {main} main, {sideboard} sideboard, {commanders} commander, {ignored} "
                 "lines ignored").format(source=self.source, format=_(self.format), main=s["main"],
                                         sideboard=s["sideboard"], commanders=len(self.commanders),
                                         ignored=len(self.ignored))


# --- headings -----------------------------------------------------------------------------------------

_HEADING_ZONES = {
    **dict.fromkeys(("deck", "main", "maindeck", "main deck", "mainboard", "main board"), Zone.MAIN),
    **dict.fromkeys(("commander", "commanders", "command zone"), Zone.COMMANDER),
    **dict.fromkeys(("companion", "companions"), Zone.COMPANION),
    **dict.fromkeys(("sideboard", "side", "side board", "sb"), Zone.SIDEBOARD),
    **dict.fromkeys(("maybeboard", "maybe", "considering", "tokens", "token", "about", "wishboard",
                     "acquireboard", "metadata", "planes", "schemes", "attractions", "stickers"), Zone.IGNORED),
}
# Type groups that exports write as headings; any other short heading is a category of the main deck.
_GROUP_WORDS = {"creature", "creatures", "land", "lands", "instant", "instants", "sorcery", "sorceries",
                "artifact", "artifacts", "enchantment", "enchantments", "planeswalker", "planeswalkers",
                "battle", "battles", "spells", "other", "others", "nonland", "nonlands"}
# "Sideboard", "Lands (12)", "// Sideboard (11 cards)", "MainBoard: 3 cards"
_HEADING = re.compile(r"^(?://+\s*|#+\s*)?(?P<word>[A-Za-z][A-Za-z &'/-]{0,40}?)\s*(?:\(\d+(?: cards?)?\))?\s*:?"
                      r"\s*(?:\d+ cards?)?$", re.IGNORECASE)
_FORGE_SECTION = re.compile(r"^\[(?P<word>[A-Za-z ]+)\]$")
# Forge's sections (DeckSerializer, DeckFileHeader): the deck's own, and those of the game modes, whose
# `Key=Value` lines and cards are not part of the deck.
_FORGE_SECTIONS = {"main": Zone.MAIN, "sideboard": Zone.SIDEBOARD, "commander": Zone.COMMANDER}
_METADATA = re.compile(r"^(?:name|description|format|creator|author|deck|layout\b.*|[a-z][a-z ]{0,30}\s*[:=].*)$",
                       re.IGNORECASE)


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

_COUNT = re.compile(r"^(?P<count>[0-9]{1,4})\s*[xX]?\s+(?P<rest>\S.*)$")  # no deck holds 10,000 of a card
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


@dataclass(frozen=True)
class CardLine:
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
    elif countless and _COUNTLESS.match(line):
        count, rest = 1, line
    else:
        return None
    rest = _LEADING_SET.sub("", rest.strip())
    zone = zone or _marked_zone(rest)
    before = None
    while before != rest:  # strip decorations from the end until none is left
        before = rest
        for pattern in _TRAILERS:
            rest = pattern.sub("", rest).strip()
    return CardLine(count, split_name(rest), zone)


# a card name alone: a letter first, no sentence punctuation at the end
_COUNTLESS = re.compile(r"^(?:\[[^\]]*\]\s*)?[^\W\d_][^\n]*[^.!?:=]$")


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


def parse_deck(text: str, source: str = "deck") -> Deck:
    stripped = text.lstrip()
    if stripped.startswith("<"):
        return _parse_xml(stripped, source)
    deck = Deck(source, detect_format(text, source))
    lines = text.splitlines()
    # Blank lines separate main deck and sideboard only in lists without headings or SB: markers
    structured = any(heading_zone(s.strip()) is not None or s.strip()[:3].upper() == "SB:" for s in lines)
    zone = Zone.MAIN
    countless = deck.format in ("Forge .dck", "XMage .dck", "MTGO / plain list")
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        opened = heading_zone(line)
        if opened is not None:
            zone = opened
            continue
        if zone is Zone.IGNORED:
            continue
        card = parse_card_line(line) or _labelled_card(line)
        if card is None:
            if _is_comment_or_metadata(line):
                continue
            card = parse_card_line(line, countless=countless)
        if card is None:
            deck.not_understood(number, line)
            continue
        if not normalize_name(card.name):
            deck.not_understood(number, line, "the name has no letters or digits")
            continue
        deck.entries.append(DeckEntry(card.count, card.name, number, card.zone or zone))
    if not structured:
        # Arena writes its sideboard after one blank line; elsewhere the main deck must look like one
        _last_group_is_the_sideboard(deck, lines, 0 if deck.format.startswith("Arena") else MIN_MAIN)
    return deck


MIN_MAIN = 40  # the smallest main deck (limited); a list of fewer cards has no sideboard group


def _last_group_is_the_sideboard(deck: Deck, lines: list[str], min_main: int) -> None:
    """A list without headings is one main deck (as Cockatrice and MTGO read it), except that a last group
    after a single blank line, of at most 15 cards behind a main deck of `min_main` or more, is its sideboard."""
    if not deck.entries:
        return
    first_of_last = deck.entries[-1].line
    while first_of_last > 1 and lines[first_of_last - 2].strip():
        first_of_last -= 1
    single_blank = first_of_last > 2 and not lines[first_of_last - 2].strip() and lines[first_of_last - 3].strip()
    last = [e for e in deck.entries if e.line >= first_of_last]
    rest = [e for e in deck.entries if e.line < first_of_last and e.zone in IN_MAIN]
    if single_blank and rest and sum(e.count for e in last) <= 15 and sum(e.count for e in rest) >= min_main:
        deck.entries = [e if e.line < first_of_last else replace(e, zone=Zone.SIDEBOARD) for e in deck.entries]


_LABELLED = re.compile(r"^(?P<label>commander|companion)\s*:\s*(?P<name>\S.*)$", re.IGNORECASE)


def _labelled_card(line: str) -> CardLine | None:
    """`Commander: Atraxa, Praetors' Voice` (no count), as some sites write the commander."""
    match = _LABELLED.match(line)
    if not match:
        return None
    card = parse_card_line(f"1 {match['name']}")
    zone = Zone.COMMANDER if match["label"].lower() == "commander" else Zone.COMPANION
    return CardLine(1, card.name, zone) if card else None


def _is_comment_or_metadata(line: str) -> bool:
    """Lines every exporter writes that are not cards: comments, Forge's `Name=`, XMage's `NAME:` and
    `LAYOUT`, Arena's `About` block."""
    return line.startswith(("//", "#", ";", "LAYOUT ")) or (len(line) <= MAX_LINE and bool(_METADATA.match(line)))


def detect_format(text: str, source: str = "") -> str:
    """The exporter that wrote a text deck list, from what its lines look like."""
    lowered = text.lower()
    lines = [line.strip() for line in text.splitlines() if line.strip() and len(line) <= MAX_LINE]

    def has(pattern: str) -> bool:
        return any(re.search(pattern, line, re.IGNORECASE) for line in lines)

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


def _parse_xml(text: str, source: str) -> Deck:
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise InputError(_("{source}: not a readable XML deck ({exc})").format(source=source, exc=exc), _("export the deck again")) from exc
    if root.tag == "cockatrice_deck":
        return _parse_cod(root, source)
    deck = Deck(source, "MTGO .dek")
    for number, node in enumerate(root.iter("Cards"), start=1):
        name, quantity = node.get("Name"), node.get("Quantity", "1")
        if not name or not _is_count(quantity):
            deck.not_understood(number, ET.tostring(node, encoding="unicode").strip(), "card entry without a name")
            continue
        sideboard = node.get("Sideboard", "false").lower() == "true"
        deck.entries.append(DeckEntry(int(quantity), split_name(name), number,
                                      Zone.SIDEBOARD if sideboard else Zone.MAIN))
    if not deck.entries and any(node.get("CatID") or node.get("CatId") for node in root.iter("Cards")):
        raise InputError(_("{source}: this .dek lists cards by MTGO catalogue number only, without names").format(source=source),
                         _("export the deck again with card names (MTGO: Save as .txt or .dek with names)"))
    if not deck.entries and root.tag != "Deck":
        raise InputError(_("{source}: XML, but not a deck this hhd reads (<{tag}>)").format(source=source, tag=root.tag),
                         _("export as MTGO .dek, Cockatrice .cod or text"))
    return deck


_COD_ZONES = {"main": Zone.MAIN, "side": Zone.SIDEBOARD, "sideboard": Zone.SIDEBOARD, "tokens": Zone.IGNORED}


def _parse_cod(root: object, source: str) -> Deck:
    """Cockatrice: <zone name="main|side|tokens"><card number="4" name="Forest"/></zone>."""
    deck = Deck(source, "Cockatrice .cod")
    number = 0
    for zone_node in root.iter("zone"):  # type: ignore[attr-defined]
        zone = _COD_ZONES.get(str(zone_node.get("name", "")).lower(), Zone.IGNORED)
        for card in zone_node.iter("card"):
            number += 1
            name, count = card.get("name"), card.get("number", "1")
            if not name or not _is_count(count) or not normalize_name(name):
                deck.not_understood(number, f"<card number={count!r} name={name!r}>", "card without a name")
                continue
            deck.entries.append(DeckEntry(int(count), split_name(name), number, zone))
    return deck

"""The format's rulings for Hellscube's odd cards: an id, a text (English here, Russian in the catalog), and which
cards they touch.

Which cards: first the curated table (hhdcli/data/rulings-v1.2.json), every one of the 720 cards of
Hellscube v1.2 read against the rules, with a clarification where the generic ruling leaves a question
(built by scripts/build_rulings_table.py). A card the table does not know (a card added to the registry
since) gets the rulings its text calls for by the patterns below, read from its rules text with its own
name blanked out (a card called "Dreadmaw Draft Guide" is not a drafting card by its name alone), and is
marked as guessed: `source` "pattern" rather than "curated". Pure functions; the table is read once."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from hhdcli import DATA
from hhdcli.cards import Card, drive_id, loose_name, normalize_name, one_edit_apart
from hhdcli.i18n import N_, current_language, translator

CURATED = "curated"  # the card is in the reviewed table: its rulings are read, not guessed
PATTERN = "pattern"  # the card is not: its rulings are guessed from its text
TABLE_FILE = DATA / "rulings-v1.2.json"


@dataclass(frozen=True)
class Ruling:
    """One of the format's rulings: its id, its text (English: its translations are in the catalog, hhd.po),
    and the patterns that guess it."""

    id: str
    en: str
    patterns: tuple[str, ...]  # regular expressions over the lower-cased rules text
    short: str = ""  # a line for a card's own text box or description
    unless: str | None = None  # a sentence that matches this too calls for no ruling (a leyline's opening hand)
    title: str = ""  # what a reader calls it (a face's footer, the rules sheet): the id in English, translated

    def text(self, lang: str = "en") -> str:
        return translator(lang).gettext(self.en)

    def name(self, lang: str = "en") -> str:
        """The ruling's name in `lang`: a Russian face names it in Russian, never by its English id."""
        return translator(lang).gettext(self.title) if self.title else self.id

    def short_text(self, lang: str = "en") -> str:
        return translator(lang).gettext(self.short) if self.short else ""


# a token made outside the battlefield: into a hand, a library, a graveyard, exile, the sideboard
_OFF_BATTLEFIELD = r"(?:hand|library|graveyard|exile|sideboard|deck)"

RULINGS: tuple[Ruling, ...] = (
    Ruling("draft", title=N_("draft"), en=N_("Drafting: 'when you draft it' happens when you take it or decline it to the sideboard; "
              "'a pack reaches you' or 'before the draft' when you look at it; 'until the end of the pack' lasts the "
              "game; cards added to your draft pool go to the sideboard, checks of it look at the sideboard, a card "
              "removed from it is removed from the game (and so goes to the sideboard), other draft-pool effects act "
              "on the Hell library."),
           short=N_("drafting it = taking it or declining it to the sideboard; draft pool = sideboard."),
           patterns=(r"\bdraft(?:ed|ing|s)?\b", r"\bdraftpartner", r"\bpacks?\b(?! rat)", r"\bbooster")),
    Ruling("game-start", title=N_("game-start"), en=N_("Start of the game: 'at the beginning of the game, if this card is in your library' (and "
              "a conspiracy) happens when you take it from the Hell library."),
           short=N_("'at the beginning of the game' happens when you take it."),
           patterns=(r"beginning of the game", r"before the game (?:begins|starts)", r"(?:start|begin)s? the game with",
                     r"\bconspirac"), unless=r"opening hand"),
    Ruling("ante", title=N_("ante"), en=N_("Ante is played, but nothing is anted at the start; a Hell card that would be anted goes to the "
              "sideboard."), short=N_("nothing is anted at the start; an anted Hell card goes to the sideboard."),
           patterns=(r"\bante(?:d|s)?\b",)),
    Ruling("companion", title=N_("companion"), en=N_("Companion (the old rule): declare any companion in the sideboard as yours when its "
              "condition holds; once a game you may cast it from outside the game."),
           short=N_("declare a companion from the sideboard; cast it once from outside the game."),
           patterns=(r"\bcompanion\b",)),
    Ruling("freeze", title=N_("freeze"), en=N_("Freezing: a frozen spell does not resolve; if the stack or every spell on it is frozen the "
              "turn goes on as if it were empty; a tapped spell is frozen."),
           short=N_("a frozen spell does not resolve; a tapped spell is frozen."),
           patterns=(r"\bfr(?:ee|o)z", r"\bunfreez", r"\btapped spells?\b", r"spell is tapped")),
    Ruling("sideboard", title=N_("sideboard"), en=N_("Sideboard: 'your sideboard', 'outside the game' and wishes mean the shared sideboard."),
           short=N_("your sideboard and outside the game are the shared sideboard."),
           # Need is a keyword of the set whose reminder text names the sideboard; the reminder is often left off
           patterns=(r"\bsideboard", r"outside the game", r"\bneed\s*[-—–]?\s*(?:\{|tap\b|sacrifice\b)",
                     r"\bneed (?:costs?|abilit)", r"\bwhen you need\b", r"\bneeded a card\b")),
    Ruling("owner", title=N_("owner"), en=N_("Owner: a Hell card's owner is the first player who moved it out of the Hell library and the "
              "sideboard; an ownerless card going to its owner's library goes to the Hell library, to another of its "
              "owner's zones to the sideboard."),
           short=N_("its owner is the first player to move it out of Hell; none: Hell library or sideboard."),
           patterns=(r"\bowner", r"(?:\b(?:you|they|players?|opponents?|who|that|or)|n't|\bnot) own\b", r"\bown and control",
                     r"\bowns\b", r"\bowned\b")),
    Ruling("zones", title=N_("zones"), en=N_("Zones a card names that do not exist yet (the auto zone…) come into being when it appears."),
           short=N_("a zone that does not exist yet comes into being."),
           patterns=(r"\bauto ?zone", r"\bwhammy deck", r"\buwu deck", r"\beye collector deck", r"\bany deck\b",
                     r"\bzones\b", r"\b\w+ deck (?:consists|contains|starts|includes)")),
    Ruling("numbers", title=N_("numbers"), en=N_("Numbers (1, 3) and number words ('one', 'three') differ; both are numerical values; the "
              "article 'a' is neither."), short=N_("numbers and number words differ; both are numerical values."),
           patterns=(r"\bnumbers\b(?! of)", r"numerical value", r"\bnumber words?\b", r"\bdigits?\b",
                     r"\ba number (?:on|printed|in)\b")),
    Ruling("token-card", title=N_("token-card"), en=N_("Token cards: a token made outside the battlefield, a card with the supertype Token, or a "
              "card an effect turns into a token is a card while it is not on the battlefield."),
           short=N_("a token card is a card off the battlefield."),
           patterns=(r"\btoken cards?\b", r"supertype token", r"^token\b", r"\bbecomes? (?:a )?tokens?\b",
                     rf"\btokens?\b[^.\"]* (?:to|into|in|on top of) (?:your|their|its owner's|a player's|that player's) "
                     rf"{_OFF_BATTLEFIELD}\b", r"\b(?:instant|sorcery) tokens?\b",
                     r"\b(?:add|put)s? a copy of [^.]* (?:to|into) (?:your|their|its owner's) hand\b", r"\btokens?\b[^.\"]* (?:are|is) considered cards?\b",
                     r"\bcast a token\b", r"\btoken cop(?:y|ies) of [^.]* and cast it\b", r"\bis (?:four|two|three|\w+) [^.]*\btokens\b",
                     r"\bcontains [^.]*\btoken copies\b")),
    Ruling("token-copy", title=N_("token-copy"), en=N_("Tokens of existing cards: a token of one half of a double card has only that half; a token "
              "of 'A // B' is a double card."), short=N_("a token of half a double card has only that half."),
           # a copy of a card, not of a permanent on the battlefield (whose copiable values are one face already)
           patterns=(r"token (?:that'?s|that is) a copy of (?:a|an|target|that) (?:\w+ )?card\b",
                     r"token cop(?:y|ies) of (?:a|an|target|that|each) (?:[\w-]+ )*?cards?\b(?! on the battlefield)",
                     r"token cop(?:y|ies) of (?:a|an) random\b", r"\b(?:create|put)s? a \d+/\d+ copy of a random\b",
                     r"token cop(?:y|ies) of [^.]*//", r"token (?:that'?s|that is) a copy of that creature\b")),
    Ruling("colors", title=N_("colors"), en=N_("Colors beyond the six (white, blue, black, red, green, purple) come into being for the rest "
              "of the game when a card names one."), short=N_("a new color exists for the rest of the game."),
           patterns=(r"\bnew colou?rs?\b", r"colou?rs? (?:that|which) (?:don'?t|do not) exist", r"\bsixth colou?r",
                     r"\b(?:pink|orange|brown|teal|beige|yellow|cyan|magenta|violet|indigo|turquoise|gr[ae]y)\b"
                     r"(?: and \w+)?(?: [\w/+-]+)*? (?:mana|spells?|cards?|creatures?|permanents?|tokens?)\b",
                     )),
)
BY_ID = {ruling.id: ruling for ruling in RULINGS}
_SENTENCE = re.compile(r"[^.!?\n]+")


@dataclass(frozen=True)
class Clarification:
    """One sentence for one card where the generic ruling leaves a question, in both languages."""

    en: str
    ru: str

    def text(self, lang: str = "en") -> str:
        return self.ru if lang == "ru" else self.en


@dataclass(frozen=True)
class HellRulings:
    """What the format says about one card: its rulings, whether they were read or guessed, and a clarification."""

    rulings: tuple[Ruling, ...]
    source: str  # CURATED or PATTERN
    clarification: Clarification | None = None


@dataclass(frozen=True)
class TableEntry:
    """One card of the curated table: what it is called, its image's Drive id, its rulings and clarification."""

    id: str
    name: str
    rulings: tuple[str, ...]
    clarification: Clarification | None
    drive: str | None  # the Drive id of the card's image: a card synced from the current registry has another id


# --- patterns ------------------------------------------------------------------------------------------------


def rules_text(card: Card) -> str:
    """Every face's rules text and type line, lower-cased, with the card's (and its faces') names blanked out."""
    text = "\n".join(f"{face.type_line}\n{face.oracle_text}" for face in card.faces).lower().replace("’", "'")
    for name in sorted({card.name, *(face.name for face in card.faces)} - {""}, key=len, reverse=True):
        text = text.replace(name.lower().replace("’", "'"), "cardname")
    return text


@cache
def _compiled() -> dict[str, tuple[re.Pattern[str], re.Pattern[str] | None]]:
    """The patterns compiled when first needed: a card the curated table knows (every Hellscube v1.2 card) never
    needs them, and compiling them all costs ~5 ms of every command that shows rulings."""
    return {r.id: (re.compile("|".join(r.patterns), re.MULTILINE), re.compile(r.unless) if r.unless else None)
            for r in RULINGS}


def pattern_rulings(card: Card) -> tuple[Ruling, ...]:
    """The rulings a card's text calls for by the patterns alone, in the table's order."""
    sentences = _SENTENCE.findall(rules_text(card))
    found = []
    for ruling in RULINGS:
        pattern, unless = _compiled()[ruling.id]
        if any(pattern.search(s) and not (unless and unless.search(s)) for s in sentences):
            found.append(ruling)
    return tuple(found)


# --- the curated table ---------------------------------------------------------------------------------------


@dataclass
class RulingsTable:
    """The reviewed entries by id, and by what survives a re-sync from the other registry format: the legacy
    sheet's ids are hashes of the name, the current format's are UUIDs, so a card is also found by its image's
    Drive id and by its name, renamed or not (in the order of hhdcli.cards.CardIndex.match)."""

    by_id: _Entries

    # Worked out on the first card the id does not find (a sync from the current registry format, whose ids are
    # not the table's), from the entries' JSON: naming 720 entries costs ~2 ms of the start of `hhd card`, and
    # building them all to find one as much again. Each maps to the entry's id.
    @cached_property
    def by_drive(self) -> dict[str, str]:
        return {drive: card_id for card_id in self.by_id if (drive := self.by_id.raw(card_id, "drive"))}

    @cached_property
    def by_name(self) -> dict[str, str]:
        return {normalize_name(self.by_id.raw(card_id, "name")): card_id for card_id in self.by_id}

    @cached_property
    def by_loose_name(self) -> dict[str, str]:
        return {loose_name(self.by_id.raw(card_id, "name")): card_id for card_id in self.by_id}

    def entry(self, card: Card) -> TableEntry | None:
        if card.id in self.by_id:
            return self.by_id[card.id]
        found = self.by_drive.get(drive_id(card.image) or "")
        if found is None and normalize_name(card.name):
            found = self.by_name.get(normalize_name(card.name)) or self._renamed(card.name)
        return self.by_id[found] if found is not None else None

    def _renamed(self, name: str) -> str | None:
        """A rename: an article or bracketed suffix added or dropped, one letter fixed; never a guess between two."""
        key = loose_name(name)
        if key in self.by_loose_name:
            return self.by_loose_name[key]
        same = [i for k, i in self.by_loose_name.items() if len(key) >= 8 and one_edit_apart(k, key)]
        return same[0] if len(same) == 1 else None


class _Entries(Mapping[str, TableEntry]):
    """The table's entries by id, each built from its JSON when first asked for, then kept: `hhd card` reads one
    of 720 (building them all was 2 % of its run)."""

    def __init__(self, raw: dict[str, dict[str, Any]]) -> None:
        self._raw = raw
        self._built: dict[str, TableEntry] = {}

    def __getitem__(self, card_id: str) -> TableEntry:
        entry = self._built.get(card_id)
        if entry is None:
            raw = self._raw[card_id]
            note = raw.get("clarification")
            entry = self._built[card_id] = TableEntry(card_id, raw["name"], tuple(raw["rulings"]), Clarification(
                note["en"], note["ru"]) if note else None, raw.get("drive"))
        return entry

    def raw(self, card_id: str, key: str) -> Any:
        """One field of an entry as the JSON has it, without building the entry."""
        return self._raw[card_id].get(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def parse_table(document: dict) -> RulingsTable:
    """The table from its JSON document ({"cards": {id: {"name", "rulings", "clarification", "drive"}}})."""
    return RulingsTable(_Entries(document["cards"]))


@cache
def curated_table() -> RulingsTable:
    """The table that ships with hhd."""
    return parse_table(json.loads(TABLE_FILE.read_text(encoding="utf-8")))


# --- the public API --------------------------------------------------------------------------------------------


def hell_rulings(card: Card) -> HellRulings:
    """The card's rulings: the table's when it has the card, else the patterns' (marked as guessed). A token
    drawn as a card has none: the format's rulings are about Hell cards (and a token named like one, Hell's
    Cube, must not borrow its card's)."""
    if card.is_token:
        return HellRulings((), CURATED)
    entry = curated_table().entry(card)
    if entry is None:
        return HellRulings(pattern_rulings(card), PATTERN)
    return HellRulings(tuple(BY_ID[i] for i in entry.rulings), CURATED, entry.clarification)


def card_rulings(card: Card) -> tuple[Ruling, ...]:
    """The rulings of a card, in the table's order."""
    return hell_rulings(card).rulings


def ruling_source(card: Card) -> str:
    """CURATED when the reviewed table has the card, PATTERN when its rulings are guessed from its text."""
    return hell_rulings(card).source


def card_clarification(card: Card, lang: str = "en") -> str | None:
    """The table's one-sentence clarification for this card, if it has one."""
    note = hell_rulings(card).clarification
    return note.text(lang) if note else None


def rulings_json(card: Card, lang: str = "en") -> list[dict[str, str]]:
    """The card's rulings as JSON: id, text, and the source ("curated", or "pattern" for a guess)."""
    found = hell_rulings(card)
    return [{"id": r.id, "text": r.text(lang), "source": found.source} for r in found.rulings]


def hell_json(card: Card, lang: str = "en") -> dict[str, object]:
    """The keys `hhd card --json` adds to a card: its rulings, where they come from, its clarification."""
    return {"hell_rulings": rulings_json(card, lang), "hell_rulings_source": ruling_source(card),
            "hell_clarification": card_clarification(card, lang)}


def hell_lines(card: Card, lang: str | None = None) -> list[str]:
    """One "Hell (id): short text" line a ruling, then the clarification, for a card's text box, description
    or card text, in `lang` (the run's language when not given)."""
    lang = lang or current_language()
    _ = translator(lang).gettext
    found = hell_rulings(card)
    lines = [_(N_("Hell ({id}): {text}")).format(id=r.name(lang), text=r.short_text(lang)) for r in found.rulings]
    if found.clarification:
        lines.append(_(N_("Hell: {clarification}")).format(clarification=found.clarification.text(lang)))
    return lines

"""Every printed label and the rules quick reference: English msgids, read in any language through the catalog."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hhdcli.colors import COLOR_NAMES
from hhdcli.errors import InputError
from hhdcli.i18n import N_, _, available, translator

if TYPE_CHECKING:
    from hhdcli.cards import Card

# Each printed label, an English msgid: its translations are in the catalogs (hhdcli/locale/*/hhd.po).
_LABELS: dict[str, str] = {
    "title_sleeve": N_("Hell library checklist"),
    "title_return": N_("End-of-session count"),
    "subtitle_sleeve": N_("Tick each card as it goes into a red sleeve."),
    "subtitle_return": N_("Tick each card as it comes back; look for the missing ones in every deck and box."),
    "seed": N_("Seed"), "date": N_("Date"), "data": N_("Card data"),
    "sleeves": N_("Sleeves"), "red": N_("red"), "total": N_("Total"),
    "hell_legend": N_("⚑ a Hell's Half-Draft ruling changes how the card works (hhd card NAME)"),
    "page": N_("page {number}"), "order": N_("Library order"),  # a checklist page's footer
    "tokens": N_("Tokens to bring"), "made_by": N_("made by {cards}"),
    "inferred": N_("(inferred from the text)"),
    # color groups (the English names are the color vocabulary's own)
    "W": N_("White"), "U": N_("Blue"), "B": N_("Black"), "R": N_("Red"), "G": N_("Green"), "P": N_("Purple"),
    "M": N_("Multicolor"), "C": N_("Colorless"), "L": N_("Lands"),
    "basic": N_("Basic lands"),
    # type groups
    "Land": N_("Lands"), "Creature": N_("Creatures"), "Planeswalker": N_("Planeswalkers"),
    "Instant": N_("Instants"), "Sorcery": N_("Sorceries"),
    "Artifact": N_("Artifacts"), "Enchantment": N_("Enchantments"), "Other": N_("Other"),
    "A": N_("A–Z"),
    "rules_title": N_("Hell's Half-Draft — quick reference"),
    # the booklet's page of a library's cards (hhd rules -l LIBRARY)
    "library_rulings": N_("This library's cards with a ruling"),
    "library_count": N_("Cards with a Hell's Half-Draft ruling: {ruled} of the library's {total}."),
    "library_none": N_("None of the library's cards has a ruling of its own."),
    "rulings_heading": N_("The rulings"),
    "guessed": N_("* guessed from the card's text: the card is not in hhd's reviewed table."),
}
assert all(COLOR_NAMES[letter] == _LABELS[letter] for letter in COLOR_NAMES)  # one color vocabulary


# The basic land types as the rules sheet names them (the basics' names stay as printed)
BASIC_TYPES = {"Plains": N_("Plains"), "Island": N_("Island"), "Swamp": N_("Swamp"), "Mountain": N_("Mountain"),
               "Forest": N_("Forest"), "Nebula": N_("Nebula"), "Wastes": N_("Wastes")}


def basic_type_line(name: str, lang: str) -> str:
    """A basic land's type line in `lang` for its proxy and its checklist line: Basic Land — Forest, Базовая
    земля — Лес (the card's own, hhdcli.library's, stays English like every card's data)."""
    catalog = translator(lang)
    if name not in BASIC_TYPES:
        return catalog.gettext("Basic Land")
    return catalog.gettext("Basic Land — {type}").format(type=catalog.gettext(BASIC_TYPES[name]))


def shown_type_line(card: Card, lang: str) -> str:
    """The type line a person reads: a basic land's in their language (its words are hhd's, not card data),
    any other card's as its data has it."""
    return basic_type_line(card.name, lang) if card.is_basic else card.type_line


@dataclass(frozen=True)
class RulesSection:
    heading: str
    paragraphs: tuple[str, ...]
    examples: bool = False  # the worked example follows it (the take rule), in the PDF and the templates alike


@dataclass(frozen=True)
class Example:
    """One card of the worked example: its cost, and the verdict for a deck whose lands make R and G."""

    name: str
    cost: str
    verdict: str
    why: str


# Written by the project from docs/hell-rules.md, in English: the Russian, from the Russian original beside it,
# is in the catalog (hhd.po) with the rest of hhd's words, and `rules_sections` hands out either.
RULES: tuple[RulesSection, ...] = (
    RulesSection(N_("The Hell library"), (
        N_("Play ordinary Constructed, plus a shared Hell library in red sleeves in the middle of the table."),
        N_("Build it from Hellscube v1.2 (720 cards) and 250 basic lands (50 each of Plains, Island, Swamp, "
           "Mountain, Forest): shuffle the 970 and take a random tenth, 97 cards. hhd generate does it from a seed."),
    )),
    RulesSection(N_("Opening hand and mulligan"), (
        N_("2 of the 7 cards of your opening hand come from the Hell library."),
        N_("London mulligan. The Hell library is not shuffled: old Hell cards go to its bottom. Cards you put back "
           "go to the bottom of the library they came from."),
        N_("Whenever you would draw, you may draw from the Hell library instead (\"when you draw\" still "
           "triggers) — unless it is empty."),
    )),
    RulesSection(N_("Taking a Hell card (the take rule)"), (
        N_("Look at the top card of the Hell library."),
        N_("1. A land: put it into your hand. In your draw step you may play it at once; it does not count "
           "toward your land for the turn."),
        N_("2. A spell whose every mana color is made by the lands of your deck: put it into your hand. In your "
           "draw step you may cast it at once for {2} less. A hybrid symbol counts if any one option does; a "
           "Phyrexian symbol always counts. Purple ({P}, made by Nebula) is a color."),
        N_("3. Anything else: take it, or put it on top of the sideboard."),
    ), examples=True),
    RulesSection(N_("The shared sideboard"), (
        N_("One sideboard for everyone, open and ordered. Any player may play its top card as if it were in "
           "their hand. Cards that would leave the game go there, even non-Hell cards."),
    )),
    RulesSection(N_("End of a game, end of a session"), (
        N_("After a game, every Hell card outside the sideboard and the libraries goes to the bottom of the Hell "
           "library in random order."),
        N_("Between games of one session nothing is reshuffled or reset: the Hell library and the sideboard stay "
           "as they are. At the end of the session, count the red sleeves back with hhd checklist --mode return."),
    )),
    RulesSection(N_("Hell cards' own text in this format"), (
        N_("\"At the beginning of the game, if this card is in your library\" (and a conspiracy) happens when you "
           "take the card. \"When you draft this card\" happens when you take it or decline it to the sideboard. "
           "\"When a pack with this card reaches you\" and \"before the draft\" happen when you look at it. "
           "\"Until the end of the pack\" lasts until the end of the game."),
        N_("You may declare any companion in the sideboard your chosen companion at any time its condition holds. "
           "An effect on a random card of the sideboard shuffles it first."),
        N_("Draft pool: cards added to it go to the sideboard; a check of it checks the sideboard; a card removed "
           "from it is removed from the game, so it goes to the sideboard; any other draft-pool effect acts on the "
           "Hell library."),
        N_("Owner: a Hell card's owner is the first player who moved it to a zone other than the sideboard or the "
           "Hell library. With no owner, \"its owner's library\" is the Hell library and any other zone of its "
           "owner is the sideboard."),
    )),
    RulesSection(N_("Hellscube v1.2 specifics"), (
        N_("Ante is on, but nobody antes at the start: only card effects ante, and a Hell card that would be "
           "anted goes to the sideboard. Companions follow the old rule: once a game you may cast your chosen "
           "companion from outside the game."),
        N_("Freezing: a frozen stack or a frozen spell does not resolve; if the stack or every spell on it is "
           "frozen, the turn goes on as if the stack were empty; an effect that makes a frozen spell resolve "
           "does; a tapped spell on the stack is frozen."),
        N_("Purple is the sixth color (White, Blue, Black, Red, Green, Purple); Nebula is a basic land that adds "
           "{P}. A color, or a zone, that a card names comes into being for the rest of the game when the card "
           "appears."),
        N_("Numbers (1, 3, 5) and number words (\"one\", \"three\") differ; both are numerical values; the "
           "article \"a\" is neither."),
        N_("Token cards (a token made outside the battlefield, or a card with the supertype Token) move between "
           "zones and are cards, not tokens, off the battlefield; one made in a personal zone is owned by that "
           "zone's owner. An effect that turns a card into a token makes it a token card. A token of one half of a "
           "double card has only that half; a token of \"A // B\" is a double card."),
    )),
)

EXAMPLE_INTRO = N_("Worked example — the lands of your deck make R and G:")

# The take rule's verdicts are the check report's own words ("take", "choice"); a card's name and cost are its data
EXAMPLES: tuple[Example, ...] = (
    Example("Pyrohyperspasm", "{3}{2/R}{H/R}{R}{R}{R}", N_("take"),
            N_("{2/R} is hybrid (either option), {H/R} is Phyrexian (always), R is made.")),
    Example("Pill Bug", "{G/U}{G/U}", N_("take"), N_("hybrid: G is one of the options.")),
    Example("Murder of Storm Crows", "{1}{U/BB}", N_("choice"), N_("neither U nor B is made: take it or sideboard it.")),
)


def rules_sections(lang: str) -> tuple[RulesSection, ...]:
    """The rules quick reference in `lang`: every heading and paragraph through the catalog."""
    _ = translator(lang).gettext
    return tuple(RulesSection(_(s.heading), tuple(map(_, s.paragraphs)), s.examples) for s in RULES)


def example_intro(lang: str) -> str:
    return translator(lang).gettext(EXAMPLE_INTRO)


def examples(lang: str) -> tuple[Example, ...]:
    """The worked example in `lang`: its verdicts and reasons translated, the cards as printed."""
    _ = translator(lang).gettext
    return tuple(Example(e.name, e.cost, _(e.verdict), _(e.why)) for e in EXAMPLES)


def labels(lang: str) -> dict[str, str]:
    """Every printed label in `lang` (the checklist's, the rules sheet's title)."""
    if not available(lang):
        raise InputError(_("--lang {lang!r} is not available").format(lang=lang), _("use en or ru"))
    catalog = translator(lang)
    return {key: catalog.gettext(message) for key, message in _LABELS.items()}

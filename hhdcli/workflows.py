"""What the commands do, as functions a program can call: draw a library (with its proxies, checklist and
exports), check a deck, choose and print proxies, write a checklist, export a library, name a table's players.

Each takes the run's `Env` (the cache, the network, where messages go) and a keyword-only options object; the
command line only parses its options into these and prints what comes back. Heavy modules (ReportLab, the
renderers, the exports) are imported inside the functions: importing this module costs `hhd --help` nothing."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from hhdcli.colors import BASICS_PER_TYPE
from hhdcli.env import DEFAULT_LIBRARY, Env
from hhdcli.errors import InputError
from hhdcli.i18n import _, current_language, ngettext, quote

if TYPE_CHECKING:
    from hhdcli.cards import Card, CardIndex
    from hhdcli.check import CheckReport
    from hhdcli.library import Library, Pool
    from hhdcli.render.plan.proxies import ProxyOptions, ProxyReport

def library_title(seed: str) -> str:
    """What a library's documents are called: "Hell library 'ember-tide-42'"."""
    return _("Hell library {seed}").format(seed=quote(seed))


# --- names that match no card ------------------------------------------------------------------------------


def unknown_names(names: list[str], index: CardIndex, shown: int = 10) -> str:
    """The first names with their nearest cards; the rest as a count (a long file is one warning)."""
    parts = []
    for name in names[:shown]:
        near = index.suggest(name)
        parts.append(_("{name} (did you mean {names}?)").format(name=quote(name), names=_(" or ").join(near))
                     if near else repr(name))
    rest = len(names) - shown
    more = "; " + ngettext("and {n} more", "and {n} more", rest).format(n=rest) if rest > 0 else ""
    return "; ".join(parts) + more


# --- proxies ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ImageOptions:
    """How card images are fetched and embedded (the sheets' own layout is `ProxyOptions`)."""

    dpi: int = 300  # a ceiling: larger scans are reduced to it, smaller ones embedded as they are
    quality: int = 85  # JPEG quality of a reduced scan
    workers: int = 8  # parallel downloads
    small: bool = False  # optimised JPEG tables for every image: a smaller PDF for more CPU


def with_tokens(cards: list[Card], token_copies: int | None = None) -> list[Card]:
    """The cards, then the tokens they make as cards to print: one of each per card that makes it, or
    `token_copies` of each."""
    from hhdcli.tokens import library_tokens
    from hhdcli.tokens import token_copies as copies

    return [*cards, *copies(library_tokens(cards), token_copies)]


@dataclass(frozen=True, kw_only=True)
class ProxyChoice:
    """Which cards a proxy sheet prints: every card (`all_cards`), else the named cards, else a library's."""

    library: Path = Path(DEFAULT_LIBRARY)
    names: tuple[str, ...] = ()  # card names (a name that matches no card is a warning, or the error if none does)
    all_cards: bool = False  # every Hellscube v1.2 card, sorted by name
    with_tokens: bool = False  # the tokens the chosen cards make, after them
    token_copies: int | None = None  # of each token; None: one per card that makes it


@dataclass(frozen=True)
class ChosenCards:
    """The cards to print and what their sheets are called."""

    cards: list[Card]
    title: str


def choose_proxies(env: Env, choice: ProxyChoice) -> ChosenCards:
    """The cards a proxy sheet prints (`print_proxies` prints them, titled `title`)."""
    cache = env.cards()
    if choice.all_cards:
        chosen = ChosenCards(sorted(cache.cards, key=lambda c: c.name.lower()), _("Hellscube v1.2, every card"))
    elif choice.names:
        from hhdcli.browse import find_cards
        from hhdcli.cards import CardIndex

        chosen = ChosenCards(find_cards(list(choice.names), CardIndex(cache.cards), env.warn), _("Hellscube proxies"))
    else:
        resolved = env.open_library(choice.library)
        chosen = ChosenCards(resolved.cards, library_title(resolved.library.seed))
    if choice.with_tokens:
        return ChosenCards(with_tokens(chosen.cards, choice.token_copies), chosen.title)
    return chosen


def print_proxies(env: Env, cards: list[Card], output: Path, options: ProxyOptions,
                  images: ImageOptions | None = None) -> ProxyReport:
    """Write the proxy sheets of `cards` to `output` (images fetched into the cache first, a progress bar on a
    terminal) and say what went into them; the report is returned too. Tokens among the cards (`with_tokens`)
    are printed like them and marked as tokens."""
    from hhdcli.render.plan.proxies import fallback_lines
    from hhdcli.render.proxies import lay_out
    from hhdcli.render.scans.images import ImageSettings, ImageStore

    images = images or ImageOptions()
    settings = ImageSettings(dpi=images.dpi, quality=images.quality, bleed_mm=options.bleed_mm,
                             workers=images.workers, offline=env.offline, max_bytes=env.cache_max_mb * 2**20,
                             small=images.small)
    store = ImageStore(env.cache_dir / "images", settings, env.http(retries=1, backoff=0.3), env.notice)
    wanted = 0 if options.text_only else len({u for c in cards for u in c.print_images})
    progress, finish = env.counting_progress(wanted, _("images"))
    try:
        pdf = lay_out(cards, env.cards().symbol_table, options, store, progress)
    finally:
        finish()
    report = pdf.report
    env.write(output, pdf.write, lambda: _("{pages}, {proxies}: {sources}; {size} KB").format(
        pages=ngettext("{n} page", "{n} pages", report.pages).format(n=report.pages),
        proxies=ngettext("{n} proxy", "{n} proxies", report.proxies).format(n=report.proxies),
        sources=report.sources(), size=round(report.size_bytes / 1024)))  # written a scan at a time
    for line in fallback_lines(report):
        env.info(line)
    if options.backs:
        env.info("  " + (_("backs: print at 100 % (actual size), duplex, flipping on the short edge")
                         if report.landscape else
                         _("backs: print at 100 % (actual size), duplex, flipping on the long edge")))
    for name, chars in report.missing_glyphs.items():
        env.warn(_("{name}: the font has no glyph for {chars} (printed as ?); pass --font with one that has").format(
            name=name, chars=" ".join(chars)))
    return report


# --- the checklist ------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ChecklistOptions:
    fmt: str | None = None  # pdf, html or md; None: from the output's extension
    sort: str = "color"  # color, type, name or position
    mode: str = "sleeve"  # sleeve: building the library; return: the end-of-session count
    lang: str | None = None  # None: the run's language
    with_rules: bool = False  # the one-page rules reference after it
    font: str | None = None  # a TrueType font for the PDF


def write_checklist(env: Env, library: Library, cards: list[Card], output: Path,
                    options: ChecklistOptions | None = None) -> None:
    """Write the red-sleeve checklist of a library to `output` and say how many cards and groups it has."""
    from hhdcli.i18n import current_language
    from hhdcli.render.documents import checklist_document, doc_format, today
    from hhdcli.render.documents.checklist import Mode, Sort, build_checklist

    options = options or ChecklistOptions()
    cache = env.cards()
    kind = doc_format(output, options.fmt)
    version = cache.meta.registry_version or cache.meta.sha256[:12]
    sheet = build_checklist(library, cards, version, Sort(options.sort), Mode(options.mode),
                            lang=options.lang or current_language(), today=today())
    document = checklist_document(sheet, cache.symbol_table, kind, options.font, options.with_rules)
    env.write(output, document, _("{cards} in {groups}").format(
        cards=ngettext("{n} card", "{n} cards", sheet.total).format(n=sheet.total),
        groups=ngettext("{n} group", "{n} groups", len(sheet.groups)).format(n=len(sheet.groups))))


# --- exports ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ExportOptions:
    fmt: str | None = None  # tts, cockatrice, mpc or csv; None: from the output's extension
    output: Path | None = None  # None: the format's default file name
    back_url: str | None = None  # TTS: a hosted image of the red back
    cardback: str | None = None  # MPC: the Google Drive id of the back to print
    image_base_url: str | None = None  # TTS: where the -images folder will be uploaded
    with_tokens: bool = False  # MPC: the tokens the cards make too (the TTS save always lays them beside)
    token_copies: int | None = None  # of each token; None: one per card that makes it


def write_export(env: Env, library: Library, cards: list[Card], options: ExportOptions) -> None:
    """Write a library's export files and say what they hold, with the export's notes and warnings."""
    from hhdcli.export import DEFAULT_NAMES, ExportFormat, export_library, format_for
    from hhdcli.files import write_output
    from hhdcli.render.documents import today

    chosen = ExportFormat(options.fmt) if options.fmt else format_for(options.output)
    target = options.output or Path(DEFAULT_NAMES[chosen])
    done = export_library(cards, _("Hell library {seed}").format(seed=library.seed), chosen, target,
                          env.cards().symbol_table,
                          back_url=options.back_url, cardback=options.cardback, made=today(),
                          image_base_url=options.image_base_url, with_tokens=options.with_tokens,
                          token_copies=options.token_copies)
    for path, data in done.files.items():
        write_output(path, data)
    more = len(done.files) - 1
    cards_for = ngettext("{n} card for {program}", "{n} cards for {program}", done.count).format(
        n=done.count, program=chosen.value)
    env.info(ngettext("wrote {path} and {n} more file: {what}", "wrote {path} and {n} more files: {what}",
                      more).format(path=target, n=more, what=cards_for) if more else
             _("wrote {path}: {what}").format(path=target, what=cards_for))
    for note in done.notes:
        env.info(f"  → {note}")
    for warning in done.warnings:
        env.warn(warning)


# --- the deck check -----------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CheckOptions:
    """What `check_cards` checks: a deck (or land colors given as letters) against a library's cards (or every
    card). Neither a deck nor `colors` is the error it has no answer to."""

    deck: str | None = None  # a deck file, or its link on a deck site
    colors: str | None = None  # land colors as letters W U B R G P (or "none"), instead of a deck's
    library: Path | None = None  # None: ./hell-library.json when there is one, else every Hellscube v1.2 card
    all_cards: bool = False  # every Hellscube v1.2 card, whatever library there is
    lands: tuple[str, ...] = ()  # NAME=COLORS of lands hhd cannot look up
    scryfall_url: str | None = None  # None: HHD_SCRYFALL_URL, else Scryfall's own
    rules_text: bool = False  # also count mana symbols in rules text (not the format's rule)
    basics_per_type: int = BASICS_PER_TYPE
    sideboard_after_blank: bool | None = None  # None: as the deck file's program reads it
    output: Path | None = None  # also write the report here (.html or .md)
    fmt: str | None = None  # html or md; None: from the output's extension
    show: Literal["text", "json"] | None = None  # the report printed on stdout, as hhd check does; None: returned


def check_cards(env: Env, options: CheckOptions) -> CheckReport:
    """Which cards the deck takes at once and which are a choice: the deck (or the colors) read, the library
    chosen, the check made, the report shown and written as asked; its warnings said after it."""
    from hhdcli.check import check_deck, need_deck_or_colors
    from hhdcli.deck import parse_colors_option, parse_land_option
    from hhdcli.decksites import is_deck_url
    from hhdcli.files import guard_outputs

    need_deck_or_colors(options.deck, options.colors)
    library = _checked_library(options)
    deck_file = None if options.deck is None or is_deck_url(options.deck) else Path(options.deck)
    guard_outputs({_("the report (-o)"): options.output}, {_("the deck"): deck_file, _("the library"): library})
    report_format = None
    if options.output:  # the documents module (and its templates) only for a report file, refused before any work
        from hhdcli.render.documents import DocFormat, doc_format

        report_format = doc_format(options.output, options.fmt, (DocFormat.HTML, DocFormat.MD))
    cache = env.cards()
    if library is not None:
        cards = env.open_library(library).cards
        scope = ngettext("the {n} card of {library}", "the {n} cards of {library}", len(cards)).format(
            n=len(cards), library=library)
    else:
        cards = cache.cards
        scope = ngettext("the {n} Hellscube v1.2 card", "all {n} Hellscube v1.2 cards", len(cards)).format(
            n=len(cards))
    deck = None
    if options.deck is not None and options.colors is None:
        deck = env.read_deck(options.deck, options.sideboard_after_blank)
        for problem in deck.warnings:
            env.warn(problem)
    report = check_deck(cards, scope, cache.symbol_table, deck=deck,
                        colors=parse_colors_option(options.colors) if options.colors is not None else None,
                        hellscube=cache.cards, lands=dict(parse_land_option(o) for o in options.lands),
                        lookup=env.scryfall(options.scryfall_url), with_rules_text=options.rules_text,
                        whole_set=library is None, basics_per_type=options.basics_per_type)
    _show_check(report, options.show)
    for warning in report.warnings:  # after the report, where a reader of a long one still sees them
        env.warn(warning)
    if options.output is not None and report_format is not None:
        from hhdcli.render.documents import check_document

        env.write(options.output, check_document(report, cache.symbol_table, report_format))
    return report


def _checked_library(options: CheckOptions) -> Path | None:
    """The library whose cards are checked; None: every Hellscube v1.2 card."""
    if options.all_cards:
        return None
    if options.library is not None:
        return options.library
    return Path(DEFAULT_LIBRARY) if Path(DEFAULT_LIBRARY).is_file() else None


def _show_check(report: CheckReport, show: str | None) -> None:
    from hhdcli.output import echo, echo_json

    if show == "json":
        echo_json(report.to_json())
    elif show == "text":
        from hhdcli.check import format_check

        echo(format_check(report))


# --- drawing a library ------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class GenerateOptions:
    seed: str | None = None  # None: a new memorable seed, said
    size: int | None = None  # None: a tenth of the pool
    output: Path = Path(DEFAULT_LIBRARY)
    exclude_banned: bool = False
    exclude_tags: tuple[str, ...] = ()
    exclude_file: Path | None = None  # names to leave out, one a line
    basics_per_type: int = BASICS_PER_TYPE
    force: bool = False  # replace a library file that holds another library


@dataclass(frozen=True)
class Generated:
    """A library just drawn and written, with its cards (library order) and the pool it was drawn from."""

    library: Library
    cards: list[Card]
    pool: Pool


def generate_library(env: Env, options: GenerateOptions) -> Generated:
    """Draw a Hell library from the card cache and write its file (never over another library without
    `force`); unknown tags and names to leave out are warnings."""
    from hhdcli.cards import CardIndex
    from hhdcli.files import dump_json, refuse_to_replace
    from hhdcli.library import (
        Exclusions,
        build_pool,
        check_seed,
        default_size,
        draws_the_same,
        generate,
        memorable_seed,
        read_name_list,
        resolve,
    )

    seed = options.seed
    if seed is not None:
        check_seed(seed)
    cache = env.cards()
    _warn_unknown_tags(env, cache.cards, options.exclude_tags)
    names = read_name_list(options.exclude_file) if options.exclude_file else ()
    pool, unknown = build_pool(cache.cards, Exclusions(options.exclude_banned, options.exclude_tags, names),
                               options.basics_per_type)
    if unknown:
        index = CardIndex(cache.cards)  # only here: 720 names normalised for the suggestions
        env.warn(ngettext("{file}: {n} name matches no card: {names}", "{file}: {n} names match no card: {names}",
                          len(unknown)).format(file=options.exclude_file, n=len(unknown),
                                               names=unknown_names(unknown, index)))
    if seed is None:
        seed = memorable_seed()
        env.info(_("seed: {seed}   (pass --seed {seed} to draw this library again)").format(seed=seed))
    size = options.size if options.size is not None else default_size(len(pool.cards))
    library = generate(pool, size, seed, cache.fingerprint)
    data = dump_json(library.to_json())
    if not draws_the_same(options.output, library):
        refuse_to_replace(options.output, data, _("library"), options.force)
    env.write(options.output, data, ngettext("{n} card, seed {seed}", "{n} cards, seed {seed}", library.size).format(
        n=library.size, seed=quote(seed)))
    return Generated(library, resolve(library, pool.cards).cards, pool)


def _warn_unknown_tags(env: Env, cards: list[Card], tags: tuple[str, ...]) -> None:
    from hhdcli.library import unknown_tags

    missing_tags, known_tags = unknown_tags(cards, tags)
    for tag in missing_tags:
        shown_tags = ", ".join(known_tags[:12]) + ("…" if len(known_tags) > 12 else "")
        env.warn(_("--exclude-tag {tag}: no card has this tag, so it leaves out nothing (tags in the card data: "
                   "{tags})").format(tag=quote(tag), tags=shown_tags) if known_tags else
                 _("--exclude-tag {tag}: no card has this tag, so it leaves out nothing (this card data has no "
                   "tags; the live registry's does: hhd sync)").format(tag=quote(tag)))


@dataclass(frozen=True, kw_only=True)
class Companions:
    """What `hhd generate` writes beside the library it drew."""

    proxies: Path | None = None
    proxy_options: ProxyOptions | None = None  # the sheets' layout (its title is the library's); None: defaults
    checklist: Path | None = None  # by color, in the run's language
    exports: tuple[str, ...] = ()  # formats, each to its default file name
    with_tokens: bool = False  # the proxies (and an MPC order) with the tokens the cards make
    token_copies: int | None = None  # of each token; None: one per card that makes it


def write_companions(env: Env, generated: Generated, companions: Companions) -> None:
    """The proxies, checklist and exports of a library just drawn."""
    if companions.proxies:
        from hhdcli.render.plan.proxies import ProxyOptions

        options = dataclasses.replace(companions.proxy_options or ProxyOptions(),
                                      title=library_title(generated.library.seed))
        cards = with_tokens(generated.cards, companions.token_copies) if companions.with_tokens else generated.cards
        print_proxies(env, cards, companions.proxies, options)
    if companions.checklist:
        write_checklist(env, generated.library, generated.cards, companions.checklist)
    for fmt in companions.exports:
        write_export(env, generated.library, generated.cards, ExportOptions(
            fmt=fmt, with_tokens=companions.with_tokens, token_copies=companions.token_copies))


# --- the table's players ------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PlayerOptions:
    """The players at a table: NAME=FILE with a deck list, or NAME=COLORS; at least one."""

    decks: tuple[str, ...] = ()  # NAME=FILE
    players: tuple[str, ...] = ()  # NAME=COLORS, letters W U B R G P
    lands: tuple[str, ...] = ()  # NAME=COLORS of lands hhd cannot look up, as in hhd check
    sideboard_after_blank: bool | None = None  # as in hhd check

    def __post_init__(self) -> None:
        if not self.decks and not self.players:
            raise InputError(_("name the players: --deck NAME=FILE or --player NAME=COLORS"),
                             _("for example: hhd table --player Anna=RG --player Ben=WUB"))


def players_from_options(env: Env, options: PlayerOptions) -> dict[str, tuple[str, ...]]:
    """Each player's land colors: from a deck file (lands hhd cannot tell are named, as hhd check names
    them; --land tells them), or given as letters."""
    from hhdcli.deck import parse_colors_option, parse_land_option
    from hhdcli.table.game.decks import deck_of

    overrides = dict(parse_land_option(o) for o in options.lands)
    colors: dict[str, tuple[str, ...]] = {}
    for option, from_deck in [(o, True) for o in options.decks] + [(o, False) for o in options.players]:
        name, sep, value = option.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(_("{option} is not NAME=VALUE").format(option=quote(option)),
                             _("for example --deck Anna=anna.txt or --player Anna=RG"))
        if from_deck:
            deck = env.read_deck(value.strip(), options.sideboard_after_blank)  # a file or a deck's link
            lookup = env.scryfall()  # offline: the lands an earlier run looked up
            found = deck_of(deck, env.cards().cards, lookup, overrides)  # as the table reads a pasted deck
            for problem in found.problems:
                env.warn(problem)
            if found.unresolved:  # quoted, one from the next by "; ": a card's name may hold a comma
                env.warn(_("{file}: not known, so not counted: {names} (if any is a land, name its colors with "
                           "--land NAME=COLORS)").format(file=value, names="; ".join(map(quote, found.unresolved))))
            colors[_player_name(name)] = found.colors
        else:
            colors[_player_name(name)] = parse_colors_option(value)
    _player_names(list(colors))
    return colors


def _player_name(typed: str) -> str:
    """A player's name from the command line (not empty), checked as the table checks every name."""
    return _player_names([typed])[0]


def _player_names(typed: list[str]) -> list[str]:
    """Names each checked (hhdcli/table/game/names.py) and no two alike, or hhd's one-line error in the run's
    language (the table's catalog holds the words)."""
    from hhdcli.table.game.errors import TableError
    from hhdcli.table.game.names import seat_names
    from hhdcli.table.web.i18n import translations

    try:
        return seat_names(typed)
    except TableError as exc:
        raise InputError(exc.said(translations(current_language()).gettext),
                         _("give each player a name of their own: --player NAME=COLORS")) from exc

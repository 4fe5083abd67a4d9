"""The `hhd` command line: options in, library calls, text out. No rules, formats or templates live here."""

from __future__ import annotations

import functools
import json
import math
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import click

from hhdcli import __version__
from hhdcli.env import DEFAULT_LIBRARY, Env
from hhdcli.errors import HhdError, InputError

if TYPE_CHECKING:
    from hhdcli.cache import CardCache
    from hhdcli.cards import Card, CardIndex
    from hhdcli.render.proxies import ProxyOptions

JSON_SCHEMA = 1
# the ids of hhdcli.rulings, written here so that `--help` does not import the table
RULING_IDS = ["draft", "game-start", "ante", "companion", "freeze", "sideboard", "owner", "zones", "numbers",
              "token-card", "token-copy", "colors"]


class HhdGroup(click.Group):
    """Turns HhdError into `error: …` plus the next step and the error's exit code. An OSError that no
    module turned into one (a path the system refuses outright) gets the same one line, naming the file."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for arg in args:  # bytes that are not UTF-8 arrive as lone surrogates, which no file or JSON can hold
            try:
                arg.encode("utf-8")
            except UnicodeEncodeError:
                shown = arg.encode("utf-8", "backslashreplace").decode()[:60]
                raise click.UsageError(f"{shown!r} is not UTF-8 text; type it again", ctx) from None
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (HhdError, OSError) as exc:
            if ctx.obj is not None and ctx.obj.debug:
                raise
            error = exc if isinstance(exc, HhdError) else InputError(
                f"{exc.filename or 'a file'}: {exc.strerror or exc}"[:300], "check the paths given")
            click.secho(f"error: {error.message}", err=True, fg="red")
            if error.hint:
                click.echo(f"  → {error.hint}", err=True)
            ctx.exit(error.exit_code)


class Finite(click.FloatRange):
    """A float in a range that is a number: FloatRange lets nan through (every comparison with it is false)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number of {self._describe_range()}", param, ctx)
        return number


def _check_url(_ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A URL option that can be fetched, checked before any work."""
    if value is None:
        return None
    from hhdcli.http import url_problem

    wrong = url_problem(value)
    if wrong:
        raise click.BadParameter(f"{value!r}: {wrong}", param=param)
    return value


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100, "auto_envvar_prefix": "HHD"}


@click.group(cls=HhdGroup, context_settings=CONTEXT)
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None, show_envvar=True,
              metavar="DIR", help="Card cache folder (default: ./cache in a checkout, else the user cache folder).")
@click.option("--registry-url", envvar="HHD_REGISTRY_URL", default=None, metavar="URL", show_envvar=True,
              callback=_check_url,
              help="Base URL of a registry mirror serving catalog.json, catalog-manifest.json, pips.json.")
@click.option("--timeout", type=Finite(0.1, 600), default=30.0, show_default=True, show_envvar=True,
              metavar="SECONDS", help="Seconds to wait for the network.")
@click.option("--cache-max", type=click.IntRange(50, 10**7), default=2048, show_default=True, show_envvar=True,
              metavar="MB", help="Size cap of the image cache; the least recently used images go past it.")
@click.option("-q", "--quiet", is_flag=True, help="Only print results and errors.")
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(__version__, prog_name="hhd")
@click.pass_context
def cli(ctx: click.Context, cache_dir: Path | None, registry_url: str | None, timeout: float,
        cache_max: int, quiet: bool, debug: bool) -> None:
    """hhd — tools for Hell's Half-Draft with Hellscube v1.2.

    \b
    Start here:
      hhd sync                              # fetch Hellscube v1.2 from the Hellfall registry
      hhd generate --seed ember-tide-42     # draw a 97-card Hell library
      hhd check deck.txt                    # what your deck can take from it
      hhd proxies -o hell-proxies.pdf       # print it
    """
    from hhdcli.cache import resolve_cache_dir

    if os.environ.get("NO_COLOR"):  # https://no-color.org: Click only strips colour when not on a terminal
        ctx.color = False
    ctx.obj = Env(resolve_cache_dir(cache_dir), registry_url, timeout, quiet, debug, cache_max_mb=cache_max)


pass_env = click.make_pass_decorator(Env)


# --- the option vocabulary: one name, one meaning, on every command ---------------------------------

FILE = click.Path(dir_okay=False, path_type=Path)


def output_option(default: str | None, what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("-o", "--output", type=FILE, default=Path(default) if default else None,
                        show_default=default is not None, metavar="FILE", help=what)


def format_option(choices: list[str], what: str = "Output format (default: from the output's extension).",
                  default: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--format", "fmt", type=click.Choice(choices), default=default,
                        show_default=default is not None, help=what)


json_option = click.option("--json", "as_json", is_flag=True,
                           help='Print the whole result as JSON (an object with "schema": 1).')


def _set_offline(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.ensure_object(Env).offline = True


offline_option = click.option("--offline", is_flag=True, expose_value=False, envvar="HHD_OFFLINE",
                              show_envvar=True, callback=_set_offline,
                              help="No network at all: use only the cache (and what is built in).")
font_option = click.option("--font", type=click.Path(dir_okay=False, exists=True), envvar="HHD_FONT",
                           show_envvar=True, metavar="TTF", help="A TrueType font for the PDF.")
lang_option = click.option("--lang", type=click.Choice(["en", "ru"]), default="en", show_default=True,
                           envvar="HHD_LANG", show_envvar=True, help="Language of headings and labels.")
paper_option = click.option("--paper", default="a4", show_default=True, envvar="HHD_PAPER", show_envvar=True,
                            metavar="PAPER", help="a4, letter, a3, legal or WxHmm (e.g. 210x297mm).")
backs_option = click.option("--backs", type=click.Choice(["none", "red"]), default="none", show_default=True,
                            help="red: a page of red backs after each page, for long-edge duplex.")
text_only_option = click.option("--text-only", is_flag=True, help="Draw every card from its data; no images.")


class _UnlistedArgument(click.Argument):
    """An old positional spelling that keeps working but is no longer shown in usage or help."""

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        return []

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:  # type: ignore[override]
        return None


def library_option(old_positional: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """-l/--library FILE on every command that reads a library; `hhd show FILE` still works."""

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.option("-l", "--library", type=FILE, default=Path(DEFAULT_LIBRARY), show_default=True,
                         envvar="HHD_LIBRARY", show_envvar=True, metavar="FILE",
                         help="The library file (written by hhd generate).")(f)
        if not old_positional:
            return f
        f = click.argument("old_library", cls=_UnlistedArgument, required=False, type=FILE)(f)
        return _merged("old_library", "library")(f)

    return decorate


def hidden_alias(old: str, target: str, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An old option name that keeps working, hidden from --help, filling `target`."""
    name = "old_" + old.lstrip("-").replace("-", "_")

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        return click.option(old, name, hidden=True, default=None, **kwargs)(_merged(name, target)(f))

    return decorate


def _merged(old: str, target: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            value = kwargs.pop(old)
            if value is not None:
                kwargs[target] = value
            return f(*args, **kwargs)

        return wrapper

    return decorate


def _given(ctx: click.Context, name: str) -> bool:
    """Whether the user set an option (on the command line or in the environment), not its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")


def _print_json(document: dict[str, Any]) -> None:
    click.echo(json.dumps({"schema": JSON_SCHEMA, **document}, indent=2, ensure_ascii=False))


def _write(env: Env, path: Path, data: bytes | str | Callable[[BinaryIO], object],
           what: str | Callable[[], str] = "") -> None:
    from hhdcli.files import write_output

    write_output(path, data)
    said = what() if callable(what) else what
    env.info(f"wrote {path}{': ' + said if said else ''}")


# --- progress -----------------------------------------------------------------------------------------


def _byte_progress(env: Env) -> tuple[Callable[[int, int | None], None] | None, Callable[[], None]]:
    """A byte progress bar on a terminal; nothing when piped or quiet."""
    if env.quiet or not sys.stderr.isatty():
        return None, lambda: None
    bar: Any = click.progressbar(length=1, label="downloading", file=sys.stderr, show_pos=False)
    state = {"started": False}

    def update(done: int, total: int | None) -> None:
        if not state["started"]:
            bar.length = total or 0
            bar.render_progress()
            state["started"] = True
        bar.pos = done
        bar.render_progress()

    return update, lambda: bar.render_finish() if state["started"] else None


def _counting_progress(env: Env, total: int, label: str) -> tuple[Callable[[], None] | None, Callable[[], None]]:
    if env.quiet or not sys.stderr.isatty() or total == 0:
        return None, lambda: None
    bar: Any = click.progressbar(length=total, label=label, file=sys.stderr)
    bar.render_progress()
    lock = threading.Lock()  # downloads finish on several threads; the bar must count them one at a time

    def step() -> None:
        with lock:
            bar.update(1)

    return step, bar.render_finish


# --- the card list -------------------------------------------------------------------------------------


@cli.command()
@click.option("--source", metavar="URL|FILE", help="Read cards from this URL or file (legacy or current format).")
@click.option("--symbols", metavar="URL|FILE", help="Read the mana-symbol table (pips.json) from here.")
@click.option("--symbols-only", is_flag=True, help="Refresh only the symbol table (from --symbols, else the registry).")
@click.option("--force", is_flag=True,
              help="Download again even when up to date; accept a card list far smaller than the cache's.")
@json_option
@pass_env
def sync(env: Env, source: str | None, symbols: str | None, symbols_only: bool, force: bool, as_json: bool) -> None:
    """Fetch the Hellscube v1.2 card list (and the symbol table) into the local cache.

    Nothing is changed when anything fails, and a card list with far fewer Hellscube v1.2 cards than the
    cache has (under 90 %) is refused unless --force.

    \b
    Examples:
      hhd sync
      hhd sync --source Hellscube-Database.json
      hhd sync --symbols-only --symbols pips.json
    """
    if symbols_only:
        if source:
            raise InputError("--symbols-only reads no card list: leave out --source", "hhd sync --symbols-only")
        done = env.syncer().run_symbols(symbols, force)
        for warning in done.warnings:
            env.warn(warning)
        env.info(f"symbol table {'refreshed from' if done.updated else 'up to date:'} {done.source or '-'}")
        if as_json:
            _print_json({"updated": done.updated, "symbols_source": done.source, "warnings": done.warnings})
        return
    progress, finish = _byte_progress(env)
    try:
        result = env.syncer(progress).run(source=source, symbols=symbols, force=force)
    finally:
        finish()
    env.report_sync(result)
    if as_json:
        _print_json({"updated": result.updated, "cache_dir": str(env.cache_dir), "meta": vars(result.meta),
                     "warnings": result.warnings})


@cli.command()
@json_option
@pass_env
def status(env: Env, as_json: bool) -> None:
    """Where the cache is, where it came from, how old it is, what it holds.

    \b
    Examples:
      hhd status
      hhd status --json
    """
    from hhdcli.browse import format_status, status_report
    from hhdcli.cache import load_cache_or_builtin

    report = status_report(load_cache_or_builtin(env.cache_dir), str(env.cache_dir))
    if as_json:
        _print_json(report)
    else:
        click.echo(format_status(report))


COLOR_FILTER = click.Choice(list("WUBRGPCM"), case_sensitive=False)


@cli.command()
@click.argument("query", required=False)
@click.option("--color", type=COLOR_FILTER, help="Only cards of this color (C colorless, M multicolor).")
@click.option("--type", "type_", metavar="TYPE", help="Only cards whose type line contains TYPE.")
@click.option("--land/--no-land", default=None, help="Only lands, or only non-lands.")
@click.option("--ruling", type=click.Choice(RULING_IDS), help="Only cards with this Hell's Half-Draft ruling.")
@json_option
@offline_option
@hidden_alias("--colour", "color", type=COLOR_FILTER)
@pass_env
def cards(env: Env, query: str | None, color: str | None, type_: str | None, land: bool | None,
          ruling: str | None, as_json: bool) -> None:
    """List the cached cards, optionally filtered.

    \b
    Examples:
      hhd cards bear --color G --type creature
      hhd cards --land --json
      hhd cards --ruling draft
    """
    from hhdcli.browse import CardFilter, card_row, filter_cards, format_table
    from hhdcli.cards import normalize_name
    from hhdcli.words import plural

    for label, value in (("the query", query), ("--type", type_)):
        if value is not None and not normalize_name(value):
            raise InputError(f"{label} {value!r} has no letters or digits, so it matches nothing",
                             "give part of a name or type, or leave it out to list every card")
    found = filter_cards(env.cards().cards, CardFilter(query, color, type_, land, ruling))
    rows = [card_row(c) for c in found]
    if as_json:
        _print_json({"cards": rows})
        return
    table = [[r["name"], r["mana_cost"], r["type_line"], r["colors"] or "C"] for r in rows]
    click.echo(format_table(table, ["name", "cost", "type", "color"], _terminal_width()))
    env.info(plural(len(rows), "card"))


def _terminal_width() -> int:
    try:
        return os.get_terminal_size().columns if sys.stdout.isatty() else 120
    except OSError:
        return 120


@cli.command()
@click.argument("name")
@json_option
@offline_option
@pass_env
def card(env: Env, name: str, as_json: bool) -> None:
    """Show one card with all its faces.

    \b
    Examples:
      hhd card "pickle krrik"
      hhd card Pyrohyperspasm --json
    """
    from hhdcli.browse import describe_card
    from hhdcli.cards import CardIndex

    found = _find_cards(env, [name], CardIndex(env.cards().cards), strict=True)[0]
    if as_json:
        from hhdcli.rulings import rulings_json

        _print_json({"card": {**found.to_json(), "hell_rulings": rulings_json(found)}})
    else:
        click.echo(describe_card(found))


def _find_cards(env: Env, names: list[str], index: CardIndex, strict: bool = False) -> list[Card]:
    """Each name's card. An unknown name, with "did you mean", is an error when `strict` or when no name
    is known; otherwise a warning, and the known ones are used."""
    from hhdcli.cards import normalize_name

    found = []
    for name in names:
        if not normalize_name(name):
            raise InputError(f"{name!r} names no card: it has no letters or digits", "give part of a card's name")
        card = index.find(name)
        if card is not None:
            found.append(card)
            continue
        suggestions = index.suggest(name)
        if strict or len(names) == 1:
            raise InputError(f"no card named {name!r}", "did you mean: " + ", ".join(suggestions)
                             if suggestions else "try `hhd cards QUERY`")
        env.warn(f"no card named {name!r}" + (f" (did you mean: {', '.join(suggestions)}?)" if suggestions else ""))
    if not found:
        raise InputError("none of the names is a Hellscube v1.2 card", "check the names with `hhd cards QUERY`")
    return found


# --- the Hell library ---------------------------------------------------------------------------------

VIEW_FORMATS = ["text", "csv", "md", "json", "summary"]
EXPORT_FORMATS = ["tts", "cockatrice", "mpc", "csv"]


def unknown_names(names: list[str], index: CardIndex, shown: int = 10) -> str:
    """The first names with their nearest cards; the rest as a count (a long file is one warning)."""
    parts = []
    for name in names[:shown]:
        near = index.suggest(name)
        parts.append(repr(name) + (f" (did you mean {' or '.join(near)}?)" if near else ""))
    more = f"; and {len(names) - shown} more" if len(names) > shown else ""
    return "; ".join(parts) + more


def _print_library(library: Any, cards: list[Card], pool_cards: list[Card], fmt: str, as_json: bool) -> None:
    """The library as chosen: the whole result as JSON, one of the views, or the summary alone."""
    from hhdcli.summary import format_summary, library_rows, render_view, summarize, summary_json

    summary = summarize(cards, pool_cards)
    if as_json:
        _print_json({"library": library.to_json(), "summary": summary_json(summary)})
    elif fmt == "summary":
        click.echo(format_summary(summary))
    else:
        click.echo(render_view(fmt, library, library_rows(library, {c.id: c for c in cards}), summary))


@cli.command()
@click.option("--seed", metavar="TEXT",
              help="Any text; the same seed and card data give the same library. Default: a new memorable seed.")
@click.option("--size", type=int, help="Cards in the library (default: a tenth of the pool, 97).")
@output_option(DEFAULT_LIBRARY, "The library file to write (JSON).")
@format_option(VIEW_FORMATS, "How to print the library (summary: the figures alone).", default="text")
@json_option
@click.option("--exclude-banned", is_flag=True, help="Leave out cards banned in Constructed.")
@click.option("--exclude-tag", multiple=True, metavar="TAG", help="Leave out cards with this registry tag (repeatable).")
@click.option("--exclude-file", type=FILE, metavar="FILE", help="Leave out the cards named in this file, one per line.")
@click.option("--basics-per-type", type=click.IntRange(0, 1000), default=50, show_default=True,
              help="Copies of each basic land in the pool.")
@click.option("--proxies", type=FILE, metavar="FILE", help="Also print proxies to this PDF (with --paper, --backs, --text-only).")
@click.option("--checklist", type=FILE, metavar="FILE",
              help="Also write a checklist (.pdf, .html or .md; English, by color: see hhd checklist for more).")
@paper_option
@backs_option
@text_only_option
@click.option("--export", "exports", type=click.Choice(EXPORT_FORMATS), multiple=True,
              help="Also export the library (repeatable; default file names, see hhd export).")
@click.option("--force", is_flag=True, help="Replace an existing library file that holds another library.")
@offline_option
@pass_env
def generate(env: Env, seed: str | None, size: int | None, output: Path, fmt: str, as_json: bool,
             exclude_banned: bool, exclude_tag: tuple[str, ...], exclude_file: Path | None, basics_per_type: int,
             proxies: Path | None, checklist: Path | None, paper: str, backs: str, text_only: bool,
             exports: tuple[str, ...], force: bool) -> None:
    """Draw a Hell library: a seeded random tenth of Hellscube v1.2 plus 250 basics.

    \b
    Examples:
      hhd generate --seed ember-tide-42
      hhd generate --seed ember-tide-42 --format summary
      hhd generate --seed ember-tide-42 --proxies hell-proxies.pdf --checklist hell-checklist.pdf
    """
    from hhdcli.cards import CardIndex
    from hhdcli.files import dump_json, guard_outputs, refuse_to_replace
    from hhdcli.library import (
        Exclusions,
        build_pool,
        check_seed,
        default_size,
        draws_the_same,
        memorable_seed,
        read_name_list,
        resolve,
        unknown_tags,
    )
    from hhdcli.library import generate as draw

    guard_outputs({"the library file (-o)": output, "--proxies": proxies, "--checklist": checklist},
                  {"--exclude-file": exclude_file})
    if seed is not None:
        check_seed(seed)
    cache = env.cards()
    missing_tags, known_tags = unknown_tags(cache.cards, exclude_tag)
    for tag in missing_tags:
        env.warn(f"--exclude-tag {tag!r}: no card has this tag, so it leaves out nothing (" +
                 (f"tags in the card data: {', '.join(known_tags[:12])}{'…' if len(known_tags) > 12 else ''})"
                  if known_tags else "this card data has no tags; the live registry's does: hhd sync)"))
    names = read_name_list(exclude_file) if exclude_file else ()
    pool, unknown = build_pool(cache.cards, Exclusions(exclude_banned, exclude_tag, names), basics_per_type)
    index = CardIndex(cache.cards)
    if unknown:
        env.warn(f"{exclude_file}: {len(unknown)} {'name matches' if len(unknown) == 1 else 'names match'} no card: "
                 + unknown_names(unknown, index))
    if seed is None:
        seed = memorable_seed()
        env.info(f"seed: {seed}   (pass --seed {seed} to draw this library again)")
    library = draw(pool, size if size is not None else default_size(len(pool.cards)), seed, cache.fingerprint)
    data = dump_json(library.to_json())
    if not draws_the_same(output, library):
        refuse_to_replace(output, data, "library", force)
    _write(env, output, data, f"{library.size} cards, seed {seed!r}")
    cards = resolve(library, pool.cards).cards
    _print_library(library, cards, pool.cards, fmt, as_json)
    if proxies:
        options = _proxy_options(paper, 0.0, 0.0, text_only, False, backs, "0,0", None, f"Hell library {seed!r}")
        _make_proxies(env, cards, cache, proxies, options)
    if checklist:
        _make_checklist(env, library, cards, cache, checklist)
    for fmt in exports:
        _export(env, library, cards, cache, fmt, None)


@cli.command()
@library_option(old_positional=True)
@format_option(VIEW_FORMATS, "How to print the library (summary: the figures alone).", default="text")
@json_option
@offline_option
@pass_env
def show(env: Env, library: Path, fmt: str, as_json: bool) -> None:
    """Print a library file with its summary.

    \b
    Examples:
      hhd show
      hhd show -l hell-library.json --format md
    """
    from hhdcli.library import library_pool

    resolved = env.open_library(library)
    pool = library_pool(resolved.library, env.cards().cards)
    _print_library(resolved.library, resolved.cards, pool.cards, fmt, as_json)


# --- the deck check ---------------------------------------------------------------------------------------


COLORS_HELP = "Use these land colors instead of a deck: letters W U B R G P, or none."


@cli.command()
@click.argument("deck", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=False)
@library_option()
@click.option("--all", "all_cards", is_flag=True, help="Check every Hellscube v1.2 card instead of a library.")
@click.option("--colors", metavar="LETTERS", help=COLORS_HELP)
@click.option("--land", "lands", multiple=True, metavar="NAME=COLORS",
              help='Colors of a land hhd cannot look up: --land "Steam Vents=UR".')
@click.option("--scryfall-url", envvar="HHD_SCRYFALL_URL", show_envvar=True, callback=_check_url, default="https://api.scryfall.com",
              show_default=True, metavar="URL", help="Scryfall API base URL.")
@click.option("--rules-text", is_flag=True, help="Also count mana symbols in rules text (not the format's rule).")
@json_option
@output_option(None, "Also write the report to this file (.html or .md).")
@format_option(["html", "md"])
@offline_option
@hidden_alias("--report", "output", type=FILE)
@hidden_alias("--colours", "colors")
@pass_env
@click.pass_context
def check(ctx: click.Context, env: Env, deck: Path | None, library: Path, all_cards: bool, colors: str | None,
          lands: tuple[str, ...], scryfall_url: str, rules_text: bool, as_json: bool, output: Path | None,
          fmt: str | None) -> None:
    """Which Hell cards a deck can take at once (take), and which are a choice.

    Without --library or --all, the cards of ./hell-library.json are checked when it exists, else every
    Hellscube v1.2 card. Lands that are not Hellscube or basic are looked up on Scryfall (not --offline).

    \b
    Examples:
      hhd check deck.txt
      hhd check deck.txt -l hell-library.json -o check.html
      hhd check --colors WUB --all
    """
    from hhdcli.check import check_deck, format_check
    from hhdcli.deck import parse_colors_option, parse_land_option, read_deck
    from hhdcli.files import guard_outputs
    from hhdcli.mana import SymbolTable
    from hhdcli.render.documents import DocFormat, check_document, doc_format

    if deck is None and colors is None:
        raise InputError("give a deck file or --colors", "for example: hhd check deck.txt, or hhd check --colors WU")
    use_library = not all_cards and (_given(ctx, "library") or library.is_file())
    guard_outputs({"the report (-o)": output}, {"the deck": deck, "the library": library if use_library else None})
    report_format = doc_format(output, fmt, (DocFormat.HTML, DocFormat.MD)) if output else None
    cache = env.cards()
    if use_library:
        cards = env.open_library(library).cards
        scope = f"the {len(cards)} cards of {library}"
    else:
        cards, scope = cache.cards, f"all {len(cache.cards)} Hellscube v1.2 cards"
    table = SymbolTable.from_records(cache.symbols)
    parsed = read_deck(deck) if deck is not None and colors is None else None
    for problem in parsed.warnings if parsed else ():
        env.warn(problem)
    report = check_deck(cards, scope, table, deck=parsed,
                        colors=parse_colors_option(colors) if colors is not None else None,
                        hellscube=cache.cards, lands=dict(parse_land_option(o) for o in lands),
                        lookup=None if env.offline else _scryfall(env, scryfall_url), with_rules_text=rules_text,
                        whole_set=not use_library)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(format_check(report))
    for warning in report.warnings:
        env.warn(warning)
    if output is not None and report_format is not None:
        _write(env, output, check_document(report, table, report_format))


def _scryfall(env: Env, url: str | None = None) -> Any:
    from hhdcli.scryfall import DEFAULT_SCRYFALL_URL, ScryfallLands

    return ScryfallLands(env.cache_dir, url or DEFAULT_SCRYFALL_URL, env.http(), warn=env.warn, notice=env.notice)


# --- exports ----------------------------------------------------------------------------------------------

def _export(env: Env, library: Any, cards: list[Card], cache: CardCache, fmt: str, output: Path | None,
            back_url: str | None = None, cardback: str | None = None, image_base_url: str | None = None) -> None:
    from hhdcli.export import DEFAULT_NAMES, ExportFormat, export_library, format_for
    from hhdcli.files import write_output
    from hhdcli.mana import SymbolTable
    from hhdcli.render.documents import today
    from hhdcli.words import plural

    chosen = ExportFormat(fmt) if fmt else format_for(output)
    target = output or Path(DEFAULT_NAMES[chosen])
    done = export_library(cards, f"Hell library {library.seed}", chosen, target,
                          SymbolTable.from_records(cache.symbols), back_url, cardback, today(), image_base_url)
    for path, data in done.files.items():
        write_output(path, data)
    env.info(f"wrote {target}" + (f" and {plural(len(done.files) - 1, 'more file')}" if len(done.files) > 1 else "")
             + f": {plural(done.count, 'card')} for {chosen.value}")
    for note in done.notes:
        env.info(f"  → {note}")
    for warning in done.warnings:
        env.warn(warning)


@cli.command()
@library_option()
@format_option(EXPORT_FORMATS, "tts: Tabletop Simulator saved object; cockatrice: set + deck; mpc: MPC Autofill "
               "order; csv: a spreadsheet (default: from -o's extension, else tts).")
@output_option(None, "The file to write (default: hell-library.tts.json, .cockatrice.xml, .mpc.xml or .csv).")
@click.option("--image-base-url", metavar="URL", callback=_check_url,
              help="TTS: where you will upload the -images folder; the deck names its images URL/file.")
@click.option("--back-url", metavar="URL", callback=_check_url, help="TTS: a hosted image of the red back, so every player sees it.")
@click.option("--cardback", metavar="DRIVE_ID", help="MPC: the Google Drive id of the card back to print.")
@offline_option
@pass_env
def export(env: Env, library: Path, fmt: str, output: Path | None, image_base_url: str | None,
           back_url: str | None, cardback: str | None) -> None:
    """Export a Hell library to play it online or order it from a print shop.

    \b
    tts         a Tabletop Simulator saved object: copy the .json (and its -images folder) into
                Tabletop Simulator's Saves/Saved Objects folder, then Objects → Saved Objects
    cockatrice  a custom set file (copy it into Cockatrice's customsets folder: Card Database →
                Open custom sets folder, then restart) and a .cod deck to load in the deck editor
    mpc         an MPC Autofill order (cards by their Google Drive image)
    csv         position, name, kind, cost, type line, colors, image

    \b
    Examples:
      hhd export --format tts
      hhd export --format cockatrice -o hell.xml
      hhd export --format mpc --cardback 17ggqviE7RYfYxcW3oJTHhKlTFA5TrJfX
    """
    from hhdcli.files import guard_outputs

    guard_outputs({"the export (-o)": output}, {"the library": library})
    resolved = env.open_library(library)
    _export(env, resolved.library, resolved.cards, env.cards(), fmt, output, back_url, cardback, image_base_url)


# --- printing ----------------------------------------------------------------------------------------------


def _proxy_options(paper: str, gap: float, bleed: float, text_only: bool, skip_basics: bool, backs: str,
                   back_offset: str, font: str | None, title: str, margin: float = 5.0,
                   cut_lines: str = "corners") -> ProxyOptions:
    from hhdcli.render.layout import parse_offset, parse_paper
    from hhdcli.render.proxies import ProxyOptions

    return ProxyOptions(parse_paper(paper), gap, bleed, text_only, skip_basics, backs == "red",
                        parse_offset(back_offset), font, title, margin, cut_lines)


def _make_proxies(env: Env, cards: list[Card], cache: CardCache, output: Path, options: ProxyOptions,
                  dpi: int = 300, quality: int = 85, workers: int = 8, small: bool = False) -> None:
    from hhdcli.mana import SymbolTable
    from hhdcli.render.images import ImageSettings, ImageStore
    from hhdcli.render.proxies import fallback_lines, lay_out
    from hhdcli.words import plural

    settings = ImageSettings(dpi, quality, options.bleed_mm, workers, env.offline, env.cache_max_mb * 2**20, small)
    store = ImageStore(env.cache_dir / "images", settings, env.http(retries=1, backoff=0.3), env.notice)
    wanted = 0 if options.text_only else len({u for c in cards for u in c.print_images})
    progress, finish = _counting_progress(env, wanted, "images")
    try:
        pdf = lay_out(cards, SymbolTable.from_records(cache.symbols), options, store, progress)
    finally:
        finish()
    report = pdf.report
    _write(env, output, pdf.write, lambda: f"{plural(report.pages, 'page')}, {report.proxies} proxies: "
           f"{report.sources()}; {report.size_bytes / 1024:.0f} KB")  # written a scan at a time
    for line in fallback_lines(report):
        env.info(line)
    if options.backs:
        edge = "short" if report.landscape else "long"
        env.info(f"  backs: print at 100 % (actual size), duplex, flipping on the {edge} edge")
    for name, chars in report.missing_glyphs.items():
        env.warn(f"{name}: the font has no glyph for {' '.join(chars)} (printed as ?); pass --font with one that has")


@cli.command()
@library_option(old_positional=True)
@output_option("hell-proxies.pdf", "The PDF to write.")
@click.option("--cards", "names", multiple=True, metavar="NAME", help="Print these cards instead of a library (repeatable).")
@click.option("--all", "all_cards", is_flag=True, help="Print every Hellscube v1.2 card (the whole set) instead.")
@paper_option
@click.option("--gap", type=Finite(0, 20), default=0.0, show_default=True, help="Millimetres between cards.")
@click.option("--bleed", type=Finite(0, 5), default=0.0, show_default=True, help="Millimetres of art beyond the cut.")
@click.option("--margin", type=Finite(5, 40), default=5.0, show_default=True,
              help="Millimetres at the paper's edge left blank (raise it for printers that need more).")
@click.option("--cut-lines", type=click.Choice(["corners", "full"]), default="corners", show_default=True,
              help="corners: crop marks in the margins; full: lines across the whole sheet.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True, help="Image resolution.")
@click.option("--quality", type=click.IntRange(30, 100), default=85, show_default=True, help="JPEG quality of images.")
@click.option("--small", is_flag=True, help="A smaller PDF for more CPU: optimised JPEG tables for every image.")
@text_only_option
@offline_option
@click.option("--workers", type=click.IntRange(1, 32), default=8, show_default=True, help="Parallel image downloads.")
@click.option("--skip-basics", is_flag=True, help="Leave basic lands out (use real basics in red sleeves).")
@backs_option
@click.option("--back-offset", default="0,0", metavar="X,Y", help="Shift the backs by X,Y mm to fix duplex misalignment.")
@click.option("--calibration", is_flag=True, help="Print a sheet to check scale and duplex offset instead.")
@font_option
@pass_env
def proxies(env: Env, library: Path, output: Path, names: tuple[str, ...], all_cards: bool, paper: str, gap: float,
            bleed: float, margin: float, cut_lines: str, dpi: int, quality: int, small: bool, text_only: bool,
            workers: int, skip_basics: bool, backs: str, back_offset: str, calibration: bool, font: str | None) -> None:
    """Print true-to-size proxy sheets (63 x 88 mm, 3 x 3 a page) for a library.

    Print at 100 % (actual size). Images are downloaded once into the cache; a card without one is drawn
    from its data.

    \b
    Examples:
      hhd proxies -o hell-proxies.pdf --backs red
      hhd proxies --cards Pyrohyperspasm --cards "nut shot" --paper letter --text-only -o two.pdf
      hhd proxies --all --text-only --bleed 2 --cut-lines full -o hellscube.pdf
      hhd proxies --calibration -o calibration.pdf
    """
    from hhdcli.cards import CardIndex
    from hhdcli.files import guard_outputs
    from hhdcli.render.layout import parse_offset, parse_paper
    from hhdcli.render.proxies import calibration_pdf

    guard_outputs({"the PDF (-o)": output}, {"the library": None if names or all_cards or calibration else library,
                                             "--font": Path(font) if font else None})
    if calibration:
        _write(env, output, calibration_pdf(parse_paper(paper), font, parse_offset(back_offset)),
               "print it at 100 %, duplex on the long edge, and follow the instructions on its back")
        return
    cache = env.cards()
    if all_cards:
        cards, title = sorted(cache.cards, key=lambda c: c.name.lower()), "Hellscube v1.2, every card"
    elif names:
        cards, title = _find_cards(env, list(names), CardIndex(cache.cards)), "Hellscube proxies"
    else:
        resolved = env.open_library(library)
        cards, title = resolved.cards, f"Hell library {resolved.library.seed!r}"
    options = _proxy_options(paper, gap, bleed, text_only, skip_basics, backs, back_offset, font, title, margin,
                             cut_lines)
    _make_proxies(env, cards, cache, output, options, dpi, quality, workers, small)


def _make_checklist(env: Env, library: Any, cards: list[Card], cache: CardCache, output: Path,
                    fmt: str | None = None, sort: str = "color", mode: str = "sleeve", lang: str = "en",
                    with_rules: bool = False, font: str | None = None) -> None:
    from hhdcli.mana import SymbolTable
    from hhdcli.render.checklist import Mode, Sort, build_checklist
    from hhdcli.render.documents import checklist_document, doc_format, today

    kind = doc_format(output, fmt)
    version = cache.meta.registry_version or cache.meta.sha256[:12]
    sheet = build_checklist(library, cards, version, Sort(sort), Mode(mode), lang, today())
    document = checklist_document(sheet, SymbolTable.from_records(cache.symbols), kind, font, with_rules)
    _write(env, output, document, f"{sheet.total} cards in {len(sheet.groups)} groups")


SORTS = click.Choice(["color", "type", "name", "position", "colour"])


@cli.command()
@library_option(old_positional=True)
@output_option("hell-checklist.pdf", "The checklist to write: .pdf, .html or .md.")
@format_option(["pdf", "html", "md"])
@click.option("--sort", type=SORTS, default="color", show_default=True, help="How to group the lines.")
@click.option("--mode", type=click.Choice(["sleeve", "return"]), default="sleeve", show_default=True,
              help="sleeve: building the library; return: the end-of-session count.")
@lang_option
@click.option("--with-rules", is_flag=True, help="Append the one-page rules reference.")
@font_option
@offline_option
@pass_env
def checklist(env: Env, library: Path, output: Path, fmt: str | None, sort: str, mode: str, lang: str,
              with_rules: bool, font: str | None) -> None:
    """A checklist of the library's physical cards, to sleeve it and to count it back.

    \b
    Examples:
      hhd checklist -o hell-checklist.pdf
      hhd checklist --mode return --lang ru --with-rules -o count.html
    """
    from hhdcli.files import guard_outputs

    guard_outputs({"the checklist (-o)": output}, {"the library": library, "--font": Path(font) if font else None})
    resolved = env.open_library(library)
    _make_checklist(env, resolved.library, resolved.cards, env.cards(), output, fmt, sort, mode, lang, with_rules,
                    font)


@cli.command()
@output_option("hell-rules.pdf", "The rules sheet to write: .pdf, .html or .md.")
@format_option(["pdf", "html", "md"])
@lang_option
@font_option
@pass_env
def rules(env: Env, output: Path, fmt: str | None, lang: str, font: str | None) -> None:
    """A one-page quick reference of the Hell's Half-Draft rules.

    \b
    Examples:
      hhd rules --lang ru -o rules.pdf
      hhd rules -o rules.md
    """
    from hhdcli.cache import symbols_or_builtin
    from hhdcli.files import guard_outputs
    from hhdcli.mana import SymbolTable
    from hhdcli.render.documents import doc_format, rules_document

    guard_outputs({"the rules sheet (-o)": output}, {"--font": Path(font) if font else None})
    kind = doc_format(output, fmt)
    table = SymbolTable.from_records(symbols_or_builtin(env.cache_dir))  # needs no card cache
    _write(env, output, rules_document(lang, table, kind, font))


# --- the Hell table --------------------------------------------------------------------------------------------


@cli.command()
@library_option()
@click.option("--deck", "decks", multiple=True, metavar="NAME=FILE",
              help="A player and their deck list (repeatable): the verdicts follow its lands.")
@click.option("--player", "players", multiple=True, metavar="NAME=COLORS",
              help="A player by the colors their lands make, without a deck file (repeatable): Anna=RG.")
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="Where to listen: 0.0.0.0 lets phones on your network join (with a join code).")
@click.option("--port", type=click.IntRange(1, 65535), default=8040, show_default=True, metavar="PORT",
              envvar="HHD_TABLE_PORT", show_envvar=True, help="The port to listen on.")
@click.option("--state", "state_file", type=FILE, metavar="FILE",
              help="The session's SQLite file (default: beside the library, LIBRARY.table.sqlite).")
@click.option("--land", "lands", multiple=True, metavar="NAME=COLORS",
              help="The colors of a land hhd cannot look up, as in hhd check (repeatable).")
@click.option("--new-code", is_flag=True,
              help="A new join code and host secret (phones must scan the board's QR code again).")
@offline_option
@pass_env
def table(env: Env, library: Path, decks: tuple[str, ...], players: tuple[str, ...], host: str, port: int,
          state_file: Path | None, lands: tuple[str, ...], new_code: bool) -> None:
    """Run a Hell library on this computer for phones around the table.

    Every player opens the printed address (or scans the QR code on the board), picks their name and
    draws from Hell: the phone shows their Hell cards and what the take rule says for their deck. The
    board (the second address, on this computer) shows the library, the sideboard, every player and the
    log, and seats players on new phones. The session lives in a SQLite file, so stopping and starting
    again goes on where it was. Ctrl-C stops it. --deck NAME=FILE reads a player's land colours from
    their deck list instead of --player NAME=COLORS. The examples read hell-library.json (written by hhd
    generate) in this folder.

    \b
    Examples:
      hhd table --player Anna=RG --player Ben=WUB
      hhd table --player Anna=RG --player Ben=WUB --host 0.0.0.0
    """
    from hhdcli.table.serve import serve

    if not decks and not players:
        raise InputError("name the players: --deck NAME=FILE or --player NAME=COLORS",
                         "for example: hhd table --player Anna=RG --player Ben=WUB")
    resolved = env.open_library(library)
    cache = env.cards()
    colors = _table_players(env, cache, decks, players, lands)
    serve(env, resolved, cache, colors, state_file or library.with_suffix(".table.sqlite"), host, port, new_code)


def _table_players(env: Env, cache: CardCache, decks: tuple[str, ...], players: tuple[str, ...],
                   lands: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """Each player's land colours: from a deck file (lands hhd cannot tell are named, as hhd check names
    them; --land tells them), or given as letters."""
    from hhdcli.deck import deck_colors, parse_colors_option, parse_land_option, read_deck

    overrides = dict(parse_land_option(o) for o in lands)
    colors: dict[str, tuple[str, ...]] = {}
    for option, from_deck in [(o, True) for o in decks] + [(o, False) for o in players]:
        name, sep, value = option.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InputError(f"{option!r} is not NAME=VALUE", "for example --deck Anna=anna.txt or --player Anna=RG")
        if from_deck:
            deck = read_deck(Path(value))
            for problem in deck.warnings:
                env.warn(problem)
            lookup = None if env.offline else _scryfall(env)
            found = deck_colors(deck, cache.cards, overrides, lookup)
            if found.unresolved:
                env.warn(f"{value}: not known, so not counted: {', '.join(found.unresolved)} "
                         "(name their colors with --land NAME=COLORS)")
            colors[name.strip()] = found.colors
        else:
            colors[name.strip()] = parse_colors_option(value)
    return colors


@cli.group()
def cache() -> None:
    """The cache folder: card data, symbol table, Scryfall answers, card images. The image cache is kept
    under the global --cache-max MB (least recently used images go first); `clean` empties it.

    \b
    Examples:
      hhd cache clean
      hhd cache clean --help
    """


@cache.command("clean")
@pass_env
def cache_clean(env: Env) -> None:
    """Remove downloaded card images and files left half-written by a killed run (card data stays)."""
    from hhdcli.files import sweep_leftovers
    from hhdcli.render.images import evict

    removed, freed = evict(env.cache_dir / "images", 0)
    swept = sum(sweep_leftovers(folder) for folder in (env.cache_dir, env.cache_dir / "images" / "raw",
                                                        env.cache_dir / "images" / "print"))
    click.echo(f"removed {removed} images ({freed / 2**20:.1f} MB) and {swept} half-written files "
               f"from {env.cache_dir}")


def main() -> None:
    cli(prog_name="hhd")

"""The `hhd` command line: options in, library calls, text out. No rules live here."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import click

from hhdcli import __version__
from hhdcli.errors import CacheError, HhdError


@dataclass
class Env:
    """What every command shares: where the cache is, how to reach the registry, how loud to be."""

    cache_dir: Path
    registry_url: str | None
    timeout: float
    quiet: bool
    debug: bool
    _cache: Any = field(default=None, repr=False)

    def info(self, message: str) -> None:
        if not self.quiet:
            click.echo(message, err=True)

    def warn(self, message: str) -> None:
        click.secho(f"warning: {message}", err=True, fg="yellow")

    def syncer(self, progress: Callable[[int, int | None], None] | None = None):
        from hhdcli.registry import DEFAULT_URLS, HttpSettings, RegistryUrls, Syncer

        urls = RegistryUrls.from_base(self.registry_url) if self.registry_url else DEFAULT_URLS
        settings = HttpSettings(timeout=(min(5.0, self.timeout), self.timeout))
        return Syncer(self.cache_dir, urls=urls, settings=settings, progress=progress)

    def cards(self):
        """The card cache; with none yet, one sync is tried before giving up with what to run."""
        from hhdcli.cache import cache_exists, load_cache

        if self._cache is None:
            if not cache_exists(self.cache_dir):
                self.info("no card cache yet: syncing from the registry once…")
                try:
                    self.report_sync(self.syncer().run())
                except HhdError as exc:
                    raise CacheError(f"no card cache in {self.cache_dir}, and syncing failed: {exc.message}",
                                     "run `hhd sync` when online, or `hhd sync --source FILE` offline") from exc
            self._cache = load_cache(self.cache_dir)
        return self._cache

    def report_sync(self, result) -> None:
        for warning in result.warnings:
            self.warn(warning)
        meta = result.meta
        if result.updated:
            self.info(f"synced {meta.card_count} Hellscube v1.2 cards from {meta.source} into {self.cache_dir}")
        else:
            version = meta.registry_version or meta.etag or meta.sha256[:12]
            self.info(f"up to date (version {version}, {meta.card_count} cards)")


class HhdGroup(click.Group):
    """Turns HhdError into `error: …` plus the next step and the error's exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HhdError as exc:
            if ctx.obj is not None and ctx.obj.debug:
                raise
            click.secho(f"error: {exc.message}", err=True, fg="red")
            if exc.hint:
                click.echo(f"  → {exc.hint}", err=True)
            ctx.exit(exc.exit_code)


@click.group(cls=HhdGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Card cache folder (default: $HHD_CACHE_DIR, else ./cache in a checkout, else the user cache).")
@click.option("--registry-url", envvar="HHD_REGISTRY_URL", default=None, metavar="URL",
              help="Base URL of a registry mirror serving catalog.json, catalog-manifest.json, pips.json.")
@click.option("--timeout", type=click.FloatRange(0.1, 600), default=30.0, show_default=True,
              help="Seconds to wait for the network.")
@click.option("-q", "--quiet", is_flag=True, help="Only print results and errors.")
@click.option("--debug", is_flag=True, help="Show tracebacks instead of one-line errors.")
@click.version_option(__version__, prog_name="hhd")
@click.pass_context
def cli(ctx: click.Context, cache_dir: Path | None, registry_url: str | None, timeout: float,
        quiet: bool, debug: bool) -> None:
    """hhd — tools for Hell's Half-Draft with Hellscube v1.2.

    \b
    Start here:
      hhd sync                              # fetch Hellscube v1.2 from the Hellfall registry
      hhd generate --seed ember-tide-42     # build a 97-card Hell library
      hhd check deck.txt --library hell-library.json
      hhd proxies hell-library.json -o hell-proxies.pdf
    """
    from hhdcli.cache import resolve_cache_dir

    ctx.obj = Env(resolve_cache_dir(cache_dir), registry_url, timeout, quiet, debug)


pass_env = click.make_pass_decorator(Env)


def _byte_progress(env: Env):
    """A byte progress bar on a terminal; nothing when piped or quiet."""
    if env.quiet or not sys.stderr.isatty():
        return None, lambda: None
    bar = click.progressbar(length=1, label="downloading", file=sys.stderr, show_pos=False)
    state = {"started": False}

    def update(done: int, total: int | None) -> None:
        if not state["started"]:
            bar.length = total or 0
            bar.render_progress()
            state["started"] = True
        bar.pos = done
        bar.render_progress()

    return update, lambda: bar.render_finish() if state["started"] else None


@cli.command()
@click.option("--source", metavar="URL|PATH", help="Read cards from this URL or file (legacy or current format).")
@click.option("--symbols", metavar="URL|PATH", help="Read the mana-symbol table (pips.json) from here.")
@click.option("--force", is_flag=True, help="Download again even when up to date.")
@pass_env
def sync(env: Env, source: str | None, symbols: str | None, force: bool) -> None:
    """Fetch the Hellscube v1.2 card list into the local cache.

    Example: hhd sync --source ../shared/hellfall/Hellscube-Database.legacy-2024-04-22.json
    """
    progress, finish = _byte_progress(env)
    try:
        result = env.syncer(progress).run(source=source, symbols=symbols, force=force)
    finally:
        finish()
    env.report_sync(result)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@pass_env
def status(env: Env, as_json: bool) -> None:
    """Where the cache is, where it came from, how old it is, what it holds.

    Example: hhd status
    """
    from hhdcli.browse import format_status, status_report
    from hhdcli.cache import load_cache

    report = status_report(load_cache(env.cache_dir), str(env.cache_dir))
    click.echo(json.dumps(report, indent=2) if as_json else format_status(report))


@cli.command()
@click.argument("query", required=False)
@click.option("--color", "--colour", "color", type=click.Choice(list("WUBRGPCM"), case_sensitive=False),
              help="Only cards of this colour (C colourless, M multicolour).")
@click.option("--type", "type_", metavar="T", help="Only cards whose type line contains T.")
@click.option("--land/--no-land", default=None, help="Only lands, or only non-lands.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_env
def cards(env: Env, query: str | None, color: str | None, type_: str | None, land: bool | None,
          as_json: bool) -> None:
    """List cached cards, optionally filtered.

    Example: hhd cards bear --color G --type creature
    """
    from hhdcli.browse import CardFilter, card_row, filter_cards, format_table

    found = filter_cards(env.cards().cards, CardFilter(query, color, type_, land))
    rows = [card_row(c) for c in found]
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    width = _terminal_width()
    table = [[r["name"], r["mana_cost"], r["type_line"], r["colors"] or "C"] for r in rows]
    click.echo(format_table(table, ["name", "cost", "type", "col"], width))
    env.info(f"{len(rows)} card{'s' if len(rows) != 1 else ''}")


def _terminal_width() -> int:
    try:
        return os.get_terminal_size().columns if sys.stdout.isatty() else 120
    except OSError:
        return 120


@cli.command()
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_env
def card(env: Env, name: str, as_json: bool) -> None:
    """Show one card with all its faces.

    Example: hhd card "pickle krrik"
    """
    from hhdcli.browse import describe_card
    from hhdcli.cards import CardIndex
    from hhdcli.errors import InputError

    index = CardIndex(env.cards().cards)
    found = index.find(name)
    if found is None:
        suggestions = index.suggest(name)
        hint = "did you mean: " + ", ".join(suggestions) if suggestions else "try `hhd cards QUERY`"
        raise InputError(f"no card named {name!r}", hint)
    click.echo(json.dumps(found.to_json(), indent=2, ensure_ascii=False) if as_json else describe_card(found))


# --- the Hell library ---------------------------------------------------------------------------

VIEW_FORMATS = click.Choice(["text", "json", "csv", "md"])


def _print_view(env: Env, library, resolved_cards, pool_cards, fmt: str, as_json: bool) -> None:
    from hhdcli.summary import library_rows, render_view, summarize, summary_json

    summary = summarize(resolved_cards, pool_cards)
    if as_json:
        click.echo(json.dumps({"seed": library.seed, "size": library.size, "summary": summary_json(summary)},
                              indent=2, ensure_ascii=False))
        return
    rows = library_rows(library, {c.id: c for c in resolved_cards})
    click.echo(render_view(fmt, library, rows, summary))


@cli.command()
@click.option("--seed", help="Any text; the same seed and card data give the same library. Default: a new memorable seed.")
@click.option("--size", type=int, help="Cards in the library (default: a tenth of the pool, 97).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=Path("hell-library.json"),
              show_default=True, help="The library file to write (JSON).")
@click.option("--format", "fmt", type=VIEW_FORMATS, default="text", show_default=True, help="How to print the library.")
@click.option("--json", "as_json", is_flag=True, help="Print only the summary, as JSON.")
@click.option("--exclude-banned", is_flag=True, help="Leave out cards banned in Constructed.")
@click.option("--exclude-tag", multiple=True, metavar="TAG", help="Leave out cards with this registry tag (repeatable).")
@click.option("--exclude-file", type=click.Path(dir_okay=False, path_type=Path), help="Leave out the cards named in this file, one per line.")
@click.option("--basics-per-type", type=click.IntRange(0, 1000), default=50, show_default=True, help="Copies of each basic land in the pool.")
@click.option("--proxies", type=click.Path(dir_okay=False, path_type=Path), help="Also print proxies to this PDF.")
@click.option("--checklist", type=click.Path(dir_okay=False, path_type=Path), help="Also write a checklist (.pdf, .html or .md).")
@click.pass_context
def generate(ctx: click.Context, seed: str | None, size: int | None, output: Path, fmt: str, as_json: bool,
             exclude_banned: bool, exclude_tag: tuple[str, ...], exclude_file: Path | None, basics_per_type: int,
             proxies: Path | None, checklist: Path | None) -> None:
    """Draw a Hell library: a seeded random tenth of Hellscube v1.2 plus 250 basics.

    Example: hhd generate --seed ember-tide-42 -o hell-library.json
    """
    from hhdcli.cache import dump_json, write_atomic
    from hhdcli.library import Exclusions, build_pool, default_size, generate as draw, memorable_seed, read_name_list

    env: Env = ctx.obj
    cache = env.cards()
    names = read_name_list(exclude_file) if exclude_file else ()
    pool, unknown = build_pool(cache.cards, Exclusions(exclude_banned, exclude_tag, names), basics_per_type)
    if unknown:
        from hhdcli.cards import CardIndex

        index = CardIndex(cache.cards)
        for name in unknown:
            near = index.suggest(name)
            env.warn(f"{exclude_file}: no card named {name!r}" + (f" (did you mean: {', '.join(near)}?)" if near else ""))
    if seed is None:
        seed = memorable_seed()
        env.info(f"seed: {seed}   (pass --seed {seed} to draw this library again)")
    library = draw(pool, size if size is not None else default_size(len(pool.cards)), seed, cache.fingerprint)
    write_atomic(output, dump_json(library.to_json()))
    by_id = {c.id: c for c in pool.cards}
    _print_view(env, library, [by_id[e.id] for e in library.cards], pool.cards, fmt, as_json)
    env.info(f"wrote {output} ({library.size} cards, seed {seed!r})")
    if proxies:
        ctx.invoke(cli.commands["proxies"], library=output, output=proxies)
    if checklist:
        ctx.invoke(cli.commands["checklist"], library=output, output=checklist)


def _open_library(env: Env, path: Path):
    """A library file with its cards, warning when the card data changed since it was made."""
    from hhdcli.library import load_library, resolve

    library = load_library(path)
    cache = env.cards()
    if library.card_data.get("sha256") != cache.meta.sha256:
        env.warn(f"{path}: the card data changed since this library was made "
                 f"(made from {str(library.card_data.get('sha256'))[:12]}, cache has {cache.meta.sha256[:12]})")
    resolved = resolve(library, cache.cards)
    for entry in resolved.missing:
        env.warn(f"{path}: card {entry.position} {entry.name!r} no longer exists in the card data")
    return library, resolved, cache


@cli.command()
@click.argument("library", type=click.Path(dir_okay=False, path_type=Path), default="hell-library.json")
@click.option("--format", "fmt", type=VIEW_FORMATS, default="text", show_default=True, help="How to print the library.")
@click.option("--json", "as_json", is_flag=True, help="Print only the summary, as JSON.")
@pass_env
def show(env: Env, library: Path, fmt: str, as_json: bool) -> None:
    """Print a library file with its summary.

    Example: hhd show hell-library.json --format md
    """
    from hhdcli.library import Exclusions, build_pool

    lib, resolved, cache = _open_library(env, library)
    excluded = lib.pool.get("excluded", {})
    exclusions = Exclusions(bool(excluded.get("banned")), tuple(excluded.get("tags", ())), tuple(excluded.get("names", ())))
    pool, _ = build_pool(cache.cards, exclusions, int(lib.pool.get("basics_per_type", 50)))
    _print_view(env, lib, resolved.cards, pool.cards, fmt, as_json)


# --- the deck colour check -------------------------------------------------------------------------


def write_text_output(path: Path, text: str) -> None:
    write_bytes_output(path, text.encode("utf-8"))


@cli.command()
@click.argument("deck", type=click.Path(dir_okay=False, exists=True, path_type=Path), required=False)
@click.option("--library", type=click.Path(dir_okay=False, path_type=Path),
              help="Check the cards of this library file (default: ./hell-library.json if there is one, else --all).")
@click.option("--all", "all_cards", is_flag=True, help="Check every Hellscube v1.2 card.")
@click.option("--colors", "--colours", "colors", metavar="C", help="Use these land colours instead of a deck (WUB, or none).")
@click.option("--land", "lands", multiple=True, metavar="NAME=C", help='Colours of a land hhd cannot look up: --land "Steam Vents=UR".')
@click.option("--offline", is_flag=True, help="Do not ask Scryfall about non-Hellscube lands.")
@click.option("--scryfall-url", envvar="HHD_SCRYFALL_URL", default="https://api.scryfall.com", show_default=True,
              help="Scryfall API base URL.")
@click.option("--rules-text", is_flag=True, help="Also count mana symbols in rules text (not the format's rule).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), help="Also write the report as .html or .md.")
@pass_env
def check(env: Env, deck: Path | None, library: Path | None, all_cards: bool, colors: str | None,
          lands: tuple[str, ...], offline: bool, scryfall_url: str, rules_text: bool, as_json: bool,
          report: Path | None) -> None:
    """Which Hell cards a deck can take at once (take), and which are a choice.

    Example: hhd check deck.txt --library hell-library.json
    """
    from hhdcli.check import format_check, run_check
    from hhdcli.deck import deck_colors, parse_colors_option, parse_land_option, read_deck
    from hhdcli.errors import InputError
    from hhdcli.mana import SymbolTable

    if deck is None and colors is None:
        raise InputError("give a deck file or --colors", "for example: hhd check deck.txt, or hhd check --colors WU")
    if report is not None and report.suffix.lower() not in (".html", ".htm", ".md"):
        raise InputError(f"--report {report}: use a .html or .md file name", "for example --report check.html")
    cache = env.cards()
    if library is None and not all_cards and Path("hell-library.json").is_file():
        library = Path("hell-library.json")
    if library is not None:
        _, resolved, _ = _open_library(env, library)
        cards, scope = resolved.cards, f"the {len(resolved.cards)} cards of {library}"
    else:
        cards, scope = cache.cards, f"all {len(cache.cards)} Hellscube v1.2 cards"
    problems, unresolved = [], []
    if colors is not None:
        deck_cols, land_list = parse_colors_option(colors), []
    else:
        parsed = read_deck(deck)
        problems = parsed.problems
        for problem in problems:
            env.warn(problem)
        lookup = None
        if not offline:
            from hhdcli.registry import HttpSettings
            from hhdcli.scryfall import ScryfallLands

            lookup = ScryfallLands(env.cache_dir, scryfall_url, HttpSettings(timeout=(min(5.0, env.timeout), env.timeout)),
                                   warn=env.warn)
        found = deck_colors(parsed, cache.cards, dict(parse_land_option(o) for o in lands), lookup)
        deck_cols, land_list, unresolved = found.colors, found.lands, found.unresolved
    table = SymbolTable.from_records(cache.symbols)
    result = run_check(cards, scope, deck_cols, land_list, table, rules_text)
    result.unresolved, result.problems, result.from_deck = unresolved, problems, colors is None
    click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False) if as_json else format_check(result))
    for warning in result.warnings:
        env.warn(warning)
    if report is not None:
        from hhdcli.check import ORDER
        from hhdcli.render.templates import render

        template = "check.md.j2" if report.suffix.lower() == ".md" else "check.html.j2"
        verdicts = sorted(result.verdicts, key=lambda v: (ORDER[v.verdict], v.card.name.lower()))
        write_text_output(report, render(template, report=result, s=result.summary, verdicts=verdicts,
                                         colors="".join(result.deck_colors) or "none",
                                         gains=[w for w in result.what_if if w.gain > 0],
                                         cost=_html_cost(table)))
        env.info(f"wrote {report}")


# --- printing ---------------------------------------------------------------------------------------


def _cards_for_printing(env: Env, library: Path | None, names: tuple[str, ...]):
    """The cards of a library file (in library order) or of --cards names, and a title for the footer."""
    from hhdcli.cards import CardIndex
    from hhdcli.errors import InputError

    if names:
        cache = env.cards()
        index = CardIndex(cache.cards)
        matches = {name: index.find(name) for name in names}
        found = [card for card in matches.values() if card]
        unknown = [name for name, card in matches.items() if card is None]
        for name in unknown:
            near = index.suggest(name)
            env.warn(f"no card named {name!r}" + (f" (did you mean: {', '.join(near)}?)" if near else ""))
        if not found:
            raise InputError("none of the --cards names is a Hellscube v1.2 card", "check the names with `hhd cards QUERY`")
        return found, "Hellscube proxies", cache
    if library is None and Path("hell-library.json").is_file():
        library = Path("hell-library.json")
    if library is None:
        raise InputError("give a library file or --cards NAME", "for example: hhd proxies hell-library.json")
    lib, resolved, cache = _open_library(env, library)
    return resolved.cards, f"Hell library {lib.seed!r}", cache


def _counting_progress(env: Env, total: int, label: str):
    if env.quiet or not sys.stderr.isatty() or total == 0:
        return None, lambda: None
    bar = click.progressbar(length=total, label=label, file=sys.stderr)
    bar.render_progress()
    return (lambda: bar.update(1)), bar.render_finish


def write_bytes_output(path: Path, data: bytes) -> None:
    from hhdcli.cache import write_atomic
    from hhdcli.errors import InputError

    try:
        write_atomic(path, data)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}", "choose another output path") from exc


@cli.command()
@click.argument("library", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=Path("hell-proxies.pdf"),
              show_default=True, help="The PDF to write.")
@click.option("--cards", "names", multiple=True, metavar="NAME", help="Print these cards instead of a library (repeatable).")
@click.option("--paper", default="a4", show_default=True, help="a4, letter, a3, legal or WxHmm.")
@click.option("--gap", type=click.FloatRange(0, 20), default=0.0, show_default=True, help="Millimetres between cards.")
@click.option("--bleed", type=click.FloatRange(0, 5), default=0.0, show_default=True, help="Millimetres of art beyond the cut.")
@click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True, help="Image resolution.")
@click.option("--quality", type=click.IntRange(30, 100), default=85, show_default=True, help="JPEG quality of images.")
@click.option("--text-only", is_flag=True, help="Draw every card from its data; download no images.")
@click.option("--offline", is_flag=True, help="Use only images already in the image cache.")
@click.option("--workers", type=click.IntRange(1, 32), default=8, show_default=True, help="Parallel image downloads.")
@click.option("--skip-basics", is_flag=True, help="Leave basic lands out (use real basics in red sleeves).")
@click.option("--backs", type=click.Choice(["none", "red"]), default="none", show_default=True,
              help="red: a page of red backs after each page, for long-edge duplex.")
@click.option("--back-offset", default="0,0", metavar="X,Y", help="Shift the backs by X,Y mm to fix duplex misalignment.")
@click.option("--calibration", is_flag=True, help="Print a sheet to check scale and duplex offset instead.")
@click.option("--font", type=click.Path(dir_okay=False, exists=True), help="A TrueType font for text proxies.")
@pass_env
def proxies(env: Env, library: Path | None, output: Path, names: tuple[str, ...], paper: str, gap: float, bleed: float,
            dpi: int, quality: int, text_only: bool, offline: bool, workers: int, skip_basics: bool, backs: str,
            back_offset: str, calibration: bool, font: str | None) -> None:
    """Print true-to-size proxy sheets (63 x 88 mm, 3 x 3 a page) for a library.

    Example: hhd proxies hell-library.json -o hell-proxies.pdf --backs red
    """
    from hhdcli.mana import SymbolTable
    from hhdcli.render.images import ImageSettings, ImageStore
    from hhdcli.render.layout import parse_offset, parse_paper
    from hhdcli.render.proxies import ProxyOptions, calibration_pdf, fallback_lines, render_proxies

    paper_mm = parse_paper(paper)
    if calibration:
        write_bytes_output(output, calibration_pdf(paper_mm, font))
        env.info(f"wrote {output}: print it at 100 %, duplex on the long edge, and measure")
        return
    cards, title, cache = _cards_for_printing(env, library, names)
    options = ProxyOptions(paper_mm, gap, bleed, text_only, skip_basics, backs == "red", parse_offset(back_offset),
                           font, title)
    from hhdcli.registry import HttpSettings

    http = HttpSettings(timeout=(min(5.0, env.timeout), min(20.0, env.timeout)), retries=1, backoff=0.3)
    store = ImageStore(env.cache_dir / "images", ImageSettings(dpi, quality, bleed, workers, offline), http)
    wanted = 0 if text_only else len({u for c in cards for u in c.print_images})
    progress, finish = _counting_progress(env, wanted, "images")
    try:
        pdf, report = render_proxies(cards, SymbolTable.from_records(cache.symbols), options, store, progress)
    finally:
        finish()
    write_bytes_output(output, pdf)
    env.info(f"wrote {output}: {report.pages} pages, {report.proxies} proxies "
             f"({report.proxies - report.text} from {report.images} images, {report.text} drawn from card data), "
             f"{report.size_bytes / 1024:.0f} KB")
    for line in fallback_lines(report):
        env.info(line)


def _output_kind(path: Path) -> str:
    from hhdcli.errors import InputError

    kind = {".pdf": "pdf", ".html": "html", ".htm": "html", ".md": "md"}.get(path.suffix.lower())
    if kind is None:
        raise InputError(f"{path}: the output must end in .pdf, .html or .md", "for example -o checklist.pdf")
    return kind


def _today():
    """Today, or the date in SOURCE_DATE_EPOCH for reproducible builds."""
    from datetime import date, datetime, timezone

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return datetime.fromtimestamp(int(epoch), timezone.utc).date() if epoch and epoch.isdigit() else date.today()


def _frame_css() -> dict[str, str]:
    from hhdcli.render.cardface import FRAME
    from hhdcli.render.symbols import css_color

    return {key: css_color(rgb) for key, rgb in FRAME.items()}


def _html_cost(table):
    from markupsafe import Markup

    from hhdcli.render.symbols import cost_html

    return lambda cost: Markup(cost_html(cost or "", table))


LANG = click.Choice(["en", "ru"])


@cli.command()
@click.argument("library", type=click.Path(dir_okay=False, path_type=Path), default="hell-library.json")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=Path("hell-checklist.pdf"),
              show_default=True, help="The checklist to write: .pdf, .html or .md.")
@click.option("--sort", type=click.Choice(["colour", "type", "name", "position"]), default="colour", show_default=True,
              help="How to group the lines.")
@click.option("--mode", type=click.Choice(["sleeve", "return"]), default="sleeve", show_default=True,
              help="sleeve: building the library; return: the end-of-session count.")
@click.option("--lang", type=LANG, default="en", show_default=True, help="Language of headings and labels.")
@click.option("--with-rules", is_flag=True, help="Append the one-page rules reference.")
@click.option("--font", type=click.Path(dir_okay=False, exists=True), help="A TrueType font for the PDF.")
@pass_env
def checklist(env: Env, library: Path, output: Path, sort: str, mode: str, lang: str, with_rules: bool,
              font: str | None) -> None:
    """A checklist of the library's physical cards, to sleeve it and to count it back.

    Example: hhd checklist hell-library.json -o checklist.pdf --lang ru
    """
    from hhdcli.mana import SymbolTable
    from hhdcli.render.checklist import build_checklist, checklist_pdf
    from hhdcli.render.rules import rules_context
    from hhdcli.render.templates import render

    kind = _output_kind(output)
    lib, resolved, cache = _open_library(env, library)
    version = cache.meta.registry_version or cache.meta.sha256[:12]
    sheet = build_checklist(lib, resolved.cards, version, sort, mode, lang, _today())
    table = SymbolTable.from_records(cache.symbols)
    if kind == "pdf":
        write_bytes_output(output, checklist_pdf(sheet, table, font, lang if with_rules else None))
    else:
        rules = rules_context(lang) if with_rules else None
        write_text_output(output, render(f"checklist.{kind}.j2", checklist=sheet, rules=rules,
                                         cost=_html_cost(table), frame_css=_frame_css()))
    env.info(f"wrote {output}: {sheet.total} cards in {len(sheet.groups)} groups")


@cli.command()
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=Path("hell-rules.pdf"),
              show_default=True, help="The rules sheet to write: .pdf, .html or .md.")
@click.option("--lang", type=LANG, default="en", show_default=True, help="Language.")
@click.option("--font", type=click.Path(dir_okay=False, exists=True), help="A TrueType font for the PDF.")
@pass_env
def rules(env: Env, output: Path, lang: str, font: str | None) -> None:
    """A one-page quick reference of the Hell's Half-Draft rules.

    Example: hhd rules --lang ru -o rules.pdf
    """
    from hhdcli.cache import load_symbols
    from hhdcli.mana import SymbolTable
    from hhdcli.render.rules import rules_context, rules_pdf
    from hhdcli.render.templates import render

    kind = _output_kind(output)
    table = SymbolTable.from_records(load_symbols(env.cache_dir))  # works without a card cache too
    if kind == "pdf":
        write_bytes_output(output, rules_pdf(lang, table, font))
    else:
        write_text_output(output, render(f"rules.{kind}.j2", cost=_html_cost(table), **rules_context(lang)))
    env.info(f"wrote {output}")


def main() -> None:
    cli(prog_name="hhd")

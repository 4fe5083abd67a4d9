"""The `hhd` command line: options in, library calls, text out. No rules, formats or templates live here."""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from hhdcli import __version__
from hhdcli.colors import BASICS_PER_TYPE
from hhdcli.env import DEFAULT_LIBRARY, Env
from hhdcli.errors import HhdError, InputError
from hhdcli.i18n import LANGUAGES, N_, _, current_language, format_decimal, ngettext, quote
from hhdcli.output import BrokenPipe, OutputError, echo, echo_json, is_terminal, prepare_streams, stdout_failed

if TYPE_CHECKING:
    from hhdcli.cards import Card
    from hhdcli.render.plan.proxies import ProxyOptions

# the ids of hhdcli.rulings, written here so that `--help` does not import the table
RULING_IDS = ["draft", "game-start", "ante", "companion", "freeze", "sideboard", "owner", "zones", "numbers",
              "token-card", "token-copy", "colors"]


class _Translated:
    """Help shown in the run's language: help texts are English msgids (marked with N_ or docstrings, gathered by
    scripts/update-catalog.py) translated when shown, not when the module is imported, so that one import
    serves every language; Click's own help texts (--help, --version) are in the catalog too."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _help_in_language(self):
            super().format_help_text(ctx, formatter)  # type: ignore[misc]

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _help_in_language(self):
            super().format_epilog(ctx, formatter)  # type: ignore[misc]

    def get_short_help_str(self, limit: int = 45) -> str:
        with _help_in_language(self):
            return super().get_short_help_str(limit)  # type: ignore[misc]

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option: click.Option | None = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None and not getattr(option, "hhd_msgid", False):
            # Click makes it once, in the language of that run: it keeps the msgid, translated when shown
            option.help = "Show this message and exit."
            setattr(option, "hhd_msgid", True)  # noqa: B010  # a mark of ours on Click's object
            option.callback = _guarded_help(option.callback)
        return option

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [_(piece) for piece in super().collect_usage_pieces(ctx)]  # type: ignore[misc]

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        params = self.get_params(ctx)  # type: ignore[attr-defined]
        with contextlib.ExitStack() as stack:
            for param in params:
                stack.enter_context(_help_in_language(param))
            super().format_options(ctx, formatter)  # type: ignore[misc]


def _guarded_help(show: Callable[..., Any] | None) -> Callable[..., Any] | None:
    """A command's help that stdout does not take (a full disk, a closed pipe) is hhd's one line, as any output
    is: Click's own writing would otherwise surface as an OSError naming no file."""
    if show is None:
        return None

    def guarded(*args: Any) -> Any:
        try:
            return show(*args)
        except OSError as exc:
            raise stdout_failed(exc) from None
    return guarded


@contextlib.contextmanager
def _help_in_language(thing: Any) -> Iterator[None]:
    """`thing`'s help (and epilog) translated while Click formats it, then the English msgid again."""
    saved = {name: getattr(thing, name, None) for name in ("help", "epilog")}
    for name, text in saved.items():
        if isinstance(text, str) and text:
            setattr(thing, name, _(inspect.cleandoc(text)))
    try:
        yield
    finally:
        for name, text in saved.items():
            if hasattr(thing, name):
                setattr(thing, name, text)


USAGE_PIECES = (N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))  # Click's usage words, shown translated


class HhdOption(click.Option):
    """Click writes "(env var: HHD_X)" into usage errors without gettext: said in the run's language here."""

    def get_error_hint(self, ctx: click.Context | None) -> str:
        hint = super().get_error_hint(ctx)
        start = hint.find(" (env var: ")
        if start < 0 or not hint.endswith(")"):
            return hint
        return hint[:start] + " (" + _("env var: {var}").format(var=hint[start + len(" (env var: "):-1]) + ")"


option = functools.partial(click.option, cls=HhdOption)  # every option of hhd


class _GlobalAfter:
    """The global options (hhd --timeout 5 check …) also after the command (hhd check … --timeout 5), where people
    type them: each command takes a copy of each that it does not have itself, whose value, typed there, changes
    the run's Env (made by the group from the options before the command, so the later one wins)."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params: list[click.Parameter] = super().get_params(ctx)  # type: ignore[misc]
        if ctx.parent is None:
            return params  # the group itself: the originals
        taken = {name for param in params for name in getattr(param, "opts", []) + getattr(param, "secondary_opts", [])}
        return params + [copy for copy in _global_copies(ctx.find_root().command) if not taken & set(copy.opts)]

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)  # type: ignore[misc]
        names = [copy.opts[-1] for copy in _global_copies(ctx.find_root().command)]
        with formatter.section(_("Global options")):
            if ctx.parent is None:
                formatter.write_text(_("Each may also follow the command, as in: hhd check deck.txt --timeout 5"))
            else:
                formatter.write_text(_("{options} may also follow the command (hhd --help says what each does).")
                                     .format(options=", ".join(names)))


@functools.cache
def _global_copies(root: click.Command) -> list[click.Option]:
    """The root group's options (not --help, --version) as options of a command, made once."""
    return [HhdOption(list(param.opts), type=None if param.is_flag else param.type, is_flag=param.is_flag,
                      default=False if param.is_flag else None, metavar=param.metavar, help=param.help,
                      expose_value=False, allow_from_autoenv=False, hidden=True, callback=_global_after_command)
            for param in root.params if isinstance(param, click.Option) and param.expose_value]


def _global_after_command(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    """A global option typed after the command: its value in the run's Env. (--lang was read before anything
    was parsed, wherever it stands: HhdGroup.main.)"""
    source = ctx.get_parameter_source(param.name or "")
    env = ctx.find_object(Env)
    if ctx.resilient_parsing or env is None or source is not click.core.ParameterSource.COMMANDLINE:
        return
    if param.name == "cache_dir":
        from hhdcli.cache import resolve_cache_dir

        env.cache_dir = resolve_cache_dir(value)
    elif param.name in ("registry_url", "deck_sites_url"):
        setattr(env, param.name, _check_url(ctx, param, value))
    elif param.name == "cache_max":
        env.cache_max_mb = value
    elif param.name in ("timeout", "quiet", "debug"):
        setattr(env, param.name, value)


# `hhd show | head -1`: the status a shell gives a Unix tool that a closed pipe ended (128 + SIGPIPE), so that a
# script tells a cut output from a finished one (and `set -o pipefail` treats hhd as it treats `yes | head -1`)
CLOSED_PIPE = 128 + 13


class HhdCommand(_GlobalAfter, _Translated, click.Command):
    pass


class HhdSubgroup(_GlobalAfter, _Translated, click.Group):
    command_class = HhdCommand


class HhdGroup(HhdSubgroup):
    """Turns HhdError into `error: …` plus the next step and the error's exit code. An OSError that no
    module turned into one (a path the system refuses outright) gets the same one line, naming the file.
    The run's language is chosen before anything is parsed (--lang anywhere, HHD_LANG, the locale)."""

    group_class = HhdSubgroup

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        from hhdcli.i18n import choose_language, language_from_args, language_source, set_language

        arguments = list(sys.argv[1:] if args is None else args)
        before = current_language(), language_source()
        set_language(*choose_language(language_from_args(arguments), os.environ))
        prepare_streams()
        try:
            return super().main(arguments, *rest, **kwargs)
        except BrokenPipe:
            raise SystemExit(CLOSED_PIPE) from None  # the reader went away: nothing to say, no one to say it to
        except (OSError, OutputError) as exc:  # Click's own help or usage text that stdout did not take
            if "--debug" in arguments:
                raise
            failed = exc if isinstance(exc, OutputError) else stdout_failed(exc)
            if isinstance(failed, HhdError):  # said as a command's failure is (invoke): the line, its next step
                said_error(failed)
                raise SystemExit(failed.exit_code) from None
            raise SystemExit(CLOSED_PIPE if isinstance(failed, BrokenPipe) else 1) from None
        finally:
            set_language(*before)  # a run in a test's process leaves the next one as it found it

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for arg in args:  # bytes that are not UTF-8 arrive as lone surrogates, which no file or JSON can hold
            try:
                arg.encode("utf-8")
            except UnicodeEncodeError:
                shown = arg.encode("utf-8", "backslashreplace").decode()[:60]
                raise click.UsageError(_("{argument} is not UTF-8 text; type it again").format(
                    argument=quote(shown)), ctx) from None
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (HhdError, OSError) as exc:
            if ctx.obj is not None and ctx.obj.debug:
                raise
            from hhdcli.files import os_reason

            error = exc if isinstance(exc, HhdError) else InputError(
                f"{exc.filename or _('a file')}: {os_reason(exc)}"[:300], _("check the paths given"))
            said_error(error)
            ctx.exit(error.exit_code)


def said_error(error: HhdError) -> None:
    """hhd's one-line error on stderr, with what to do next when it knows."""
    echo(_("error: {message}").format(message=error.message), err=True, fg="red")
    if error.hint:
        echo(f"  → {error.hint}", err=True)


class Finite(click.FloatRange):
    """A float in a range that is a number: FloatRange lets nan through (every comparison with it is false)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(_("{value} is not a number of {range}").format(value=quote(value), range=self._describe_range()),
                      param, ctx)
        return number


def _check_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A URL option that can be fetched, checked before any work (its own default needs no check, and so
    no import of the HTTP module)."""
    if value is None or ctx.get_parameter_source(param.name or "") is click.core.ParameterSource.DEFAULT:
        return value
    from hhdcli.http import url_problem

    wrong = url_problem(value)
    if wrong:
        raise click.BadParameter(f"{value!r}: {wrong}", param=param)
    return value


class Language(click.Choice):
    """en or ru (and a test catalog's language under HHD_LOCALE_DIR, never listed)."""

    def __init__(self) -> None:
        super().__init__(LANGUAGES)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from hhdcli.i18n import available

        return value if isinstance(value, str) and value not in LANGUAGES and available(value) else \
            super().convert(value, param, ctx)


def _command_language(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A command's --lang given on its command line; from HHD_LANG it is the run's language already (which a
    global --lang may have overridden)."""
    source = ctx.get_parameter_source(param.name or "")
    return value if source is not None and source.name == "COMMANDLINE" else None


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100, "auto_envvar_prefix": "HHD"}


@click.group(cls=HhdGroup, context_settings=CONTEXT)
@option("--cache-dir", type=click.Path(file_okay=False, path_type=Path), default=None, show_envvar=True,
              metavar="DIR", help=N_("Card cache folder (default: ./cache in a checkout, else the user cache folder)."))
@option("--registry-url", envvar="HHD_REGISTRY_URL", default=None, metavar="URL", show_envvar=True,
              callback=_check_url,
              help=N_("Base URL of a registry mirror serving catalog.json, catalog-manifest.json, pips.json."))
@option("--deck-sites-url", envvar="HHD_DECK_SITES_URL", default=None, metavar="URL", show_envvar=True,
              callback=_check_url,
              help=N_("Base URL of a mirror of the deck sites: a deck link's request goes to URL/HOST/PATH."))
@option("--timeout", type=Finite(0.1, 600), default=30.0, show_default=True, show_envvar=True,
              metavar="SECONDS", help=N_("Seconds to wait for the network."))
@option("--cache-max", type=click.IntRange(50, 10**7), default=2048, show_default=True, show_envvar=True,
              metavar="MB", help=N_("Size cap of the image cache; the least recently used images go past it."))
@option("-q", "--quiet", is_flag=True, help=N_("Only print results and errors."))
@option("--debug", is_flag=True, help=N_("Show tracebacks instead of one-line errors."))
@option("--lang", type=Language(), default=None, allow_from_autoenv=False,

              help=N_("Language of messages, help and documents (default: HHD_LANG, then LC_ALL, LC_MESSAGES, "
                      "LANG, then English)."))
@click.version_option(__version__, prog_name="hhd")
@click.pass_context
def cli(ctx: click.Context, cache_dir: Path | None, registry_url: str | None, deck_sites_url: str | None, timeout: float,
        cache_max: int, quiet: bool, debug: bool, lang: str | None) -> None:
    """hhd — tools for Hell's Half-Draft with Hellscube v1.2.

    \b
    Start here:
      hhd sync                              # fetch Hellscube v1.2 from the Hellfall registry
      hhd generate --seed ember-tide-42     # draw a 97-card Hell library
      hhd check deck.txt                    # what your deck can take from it
      hhd proxies -o hell-proxies.pdf       # print it
    """
    from hhdcli.cache import resolve_cache_dir

    if os.environ.get("NO_COLOR"):  # https://no-color.org: Click only strips color when not on a terminal
        ctx.color = False
    # --lang was read before parsing (HhdGroup.main), so that --help and usage errors are in the language
    ctx.obj = Env(resolve_cache_dir(cache_dir), registry_url, timeout, quiet, debug, cache_max_mb=cache_max,
                  deck_sites_url=deck_sites_url)


for _param in cli.params:  # --version's line through --help's guard: Click would end a closed pipe with 1
    if _param.name == "version":
        _param.callback = _guarded_help(_param.callback)

pass_env = click.make_pass_decorator(Env)


# --- the option vocabulary: one name, one meaning, on every command ---------------------------------

FILE = click.Path(dir_okay=False, path_type=Path)


def output_option(default: str | None, what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return option("-o", "--output", type=FILE, default=Path(default) if default else None,
                        show_default=default is not None, metavar="FILE", help=what)


def format_option(choices: list[str], what: str = N_("Output format (default: from the output's extension)."),
                  default: str | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return option("--format", "fmt", type=click.Choice(choices), default=default,
                        show_default=default is not None, help=what)


json_option = option("--json", "as_json", is_flag=True,
                           help=N_('Print the whole result as JSON (an object with "schema": 1; its keys are the '
                                   'same in every language).'))


def _set_offline(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.ensure_object(Env).offline = True


offline_option = option("--offline", is_flag=True, expose_value=False, envvar="HHD_OFFLINE",
                              show_envvar=True, callback=_set_offline,
                              help=N_("No network at all: use only the cache (and what is built in)."))
font_option = option("--font", type=click.Path(dir_okay=False, exists=True), envvar="HHD_FONT",
                           show_envvar=True, metavar="TTF", help=N_("A TrueType font for the PDF."))
lang_option = option("--lang", type=Language(), default=None, envvar="HHD_LANG", show_envvar=True,
                           callback=_command_language,
                           help=N_("Language of the document (default: the run's language, as hhd --lang)."))

paper_option = option("--paper", default="a4", show_default=True, envvar="HHD_PAPER", show_envvar=True,
                            metavar="PAPER", help=N_("a4, letter, a3, legal or WxHmm (e.g. 210x297mm)."))
backs_option = option("--backs", type=click.Choice(["none", "red"]), default="none", show_default=True,
                            help=N_("red: a page of red backs after each page, for long-edge duplex."))
basics_option = option("--basics-per-type", type=click.IntRange(0, 1000), default=BASICS_PER_TYPE, show_default=True,
                       help=N_("Copies of each basic land in the pool."))
text_only_option = option("--text-only", is_flag=True, help=N_("Draw every card from its data; no images."))
tokens_option = option("--tokens", "with_tokens", is_flag=True,
                       help=N_("Add the tokens the cards make: one of each per card that makes it."))
token_copies_option = option("--token-copies", type=click.IntRange(1, 99), metavar="N",
                             help=N_("With --tokens: N of each token instead (the TTS deck too)."))


# a server's address on the internet, the same for `hhd table` and `hhd serve`
public_url_option = option(
    "--public-url", metavar="URL", envvar="HHD_PUBLIC_URL", show_envvar=True, callback=_check_url,
    help=N_("The address the internet reaches this table at (a tunnel's or a reverse proxy's): the QR code, "
            "the join and re-seat addresses use it, and only its pages may act."))
behind_proxy_option = option(
    "--behind-proxy", is_flag=True,
    help=N_("A reverse proxy on this computer forwards to hhd: the client's address is the last of its "
            "X-Forwarded-For (one hop; never believed otherwise)."))

class _UnlistedArgument(click.Argument):
    """An old positional spelling that keeps working but is no longer shown in usage or help."""

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        return []

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:  # type: ignore[override]
        return None


def library_option(old_positional: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """-l/--library FILE on every command that reads a library; `hhd show FILE` still works."""

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = option("-l", "--library", type=FILE, default=Path(DEFAULT_LIBRARY), show_default=True,
                         envvar="HHD_LIBRARY", show_envvar=True, metavar="FILE",
                         help=N_("The library file (written by hhd generate)."))(f)
        if not old_positional:
            return f
        f = click.argument("old_library", cls=_UnlistedArgument, required=False, type=FILE)(f)
        return _merged("old_library", "library")(f)

    return decorate


def hidden_alias(old: str, target: str, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An old option name that keeps working, hidden from --help, filling `target`."""
    name = "old_" + old.lstrip("-").replace("-", "_")

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        return option(old, name, hidden=True, default=None, **kwargs)(_merged(name, target)(f))

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
    from hhdcli.jsonio import JSON_SCHEMA

    echo_json({"schema": JSON_SCHEMA, **document})


# --- progress -----------------------------------------------------------------------------------------


def _byte_progress(env: Env) -> tuple[Callable[[int, int | None], None] | None, Callable[[], None]]:
    """A byte progress bar on a terminal; nothing when piped or quiet."""
    if env.quiet or not is_terminal(err=True):
        return None, lambda: None
    bar: Any = click.progressbar(length=1, label=_("downloading"), file=sys.stderr, show_pos=False)
    state = {"started": False}

    def update(done: int, total: int | None) -> None:
        if not state["started"]:
            bar.length = total or 0
            bar.render_progress()
            state["started"] = True
        bar.pos = done
        bar.render_progress()

    return update, lambda: bar.render_finish() if state["started"] else None


# --- the card list -------------------------------------------------------------------------------------


@cli.command()
@option("--source", metavar="URL|FILE", help=N_("Read cards from this URL or file (legacy or current format)."))
@option("--symbols", metavar="URL|FILE", help=N_("Read the mana-symbol table (pips.json) from here."))
@option("--symbols-only", is_flag=True, help=N_("Refresh only the symbol table (from --symbols, else the registry)."))
@option("--force", is_flag=True,
              help=N_("Download again even when up to date; accept a card list far smaller than the cache's."))
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
            raise InputError(_("--symbols-only reads no card list: leave out --source"), "hhd sync --symbols-only")
        done = env.syncer().run_symbols(symbols, force)
        for warning in done.warnings:
            env.warn(warning)
        env.info((_("symbol table refreshed from {source}") if done.updated else
                  _("symbol table up to date: {source}")).format(source=done.source or "-"))
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
        echo(format_status(report))


COLOR_FILTER = click.Choice(list("WUBRGPCM"), case_sensitive=False)


@cli.command()
@click.argument("query", required=False)
@option("--color", type=COLOR_FILTER, help=N_("Only cards of this color (C colorless, M multicolor)."))
@option("--type", "type_", metavar="TYPE", help=N_("Only cards whose type line contains TYPE."))
@option("--land/--no-land", default=None, help=N_("Only lands, or only non-lands."))
@option("--ruling", type=click.Choice(RULING_IDS), help=N_("Only cards with this Hell's Half-Draft ruling."))
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

    for label, value in ((_("the query"), query), ("--type", type_)):
        if value is not None and not normalize_name(value):
            raise InputError(_("{what} {value} has no letters or digits, so it matches nothing").format(
                what=label, value=quote(value)), _("give part of a name or type, or leave it out to list every card"))
    found = filter_cards(env.cards().cards, CardFilter(query, color, type_, land, ruling))
    rows = [card_row(c) for c in found]
    if as_json:
        _print_json({"cards": rows})
        return
    columns = [[r["name"], r["mana_cost"], r["type_line"], r["colors"] or "C"] for r in rows]
    echo(format_table(columns, [_("name"), _("cost"), _("type"), _("color")], _terminal_width()))
    env.info(ngettext("{n} card", "{n} cards", len(rows)).format(n=len(rows)))


def _terminal_width() -> int:
    try:
        return os.get_terminal_size().columns if is_terminal() else 120
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
    from hhdcli.browse import describe_card, find_cards
    from hhdcli.cards import CardIndex

    found = find_cards([name], CardIndex(env.cards().cards), env.warn, strict=True)[0]
    if as_json:
        from hhdcli.rulings import hell_json

        _print_json({"card": {**found.to_json(), **hell_json(found)}})
    else:
        echo(describe_card(found))


# --- the Hell library ---------------------------------------------------------------------------------

VIEW_FORMATS = ["text", "csv", "md", "json", "summary"]
EXPORT_FORMATS = ["tts", "cockatrice", "mpc", "csv"]


def _print_library(library: Any, cards: list[Card], pool_cards: list[Card], fmt: str, as_json: bool) -> None:
    """The library as chosen: the whole result as JSON, one of the views, or the summary alone."""
    from hhdcli.summary import format_summary, library_rows, render_view, summarize, summary_json
    from hhdcli.tokens import library_tokens, needed_json

    summary = summarize(cards, pool_cards)
    if as_json:
        _print_json({"library": library.to_json(), "summary": summary_json(summary),
                     "tokens": needed_json(library_tokens(cards))})
    elif fmt == "summary":
        echo(format_summary(summary))
    else:
        tokens = library_tokens(cards) if fmt in ("text", "md") else ()
        echo(render_view(fmt, library, library_rows(library, {c.id: c for c in cards}), summary, tokens))


@cli.command()
@option("--seed", metavar="TEXT",
              help=N_("Any text; the same seed and card data give the same library. Default: a new memorable seed."))
@option("--size", type=int, help=N_("Cards in the library (default: a tenth of the pool, 97)."))
@output_option(DEFAULT_LIBRARY, N_("The library file to write (JSON)."))
@format_option(VIEW_FORMATS, N_("How to print the library (summary: the figures alone)."), default="text")
@json_option
@option("--exclude-banned", is_flag=True, help=N_("Leave out cards banned in Constructed."))
@option("--exclude-tag", multiple=True, metavar="TAG", help=N_("Leave out cards with this registry tag (repeatable)."))
@option("--exclude-file", type=FILE, metavar="FILE", help=N_("Leave out the cards named in this file, one per line."))
@basics_option
@option("--proxies", type=FILE, metavar="FILE", help=N_("Also print proxies to this PDF (with --paper, --backs, --text-only, --tokens)."))
@option("--checklist", type=FILE, metavar="FILE",
              help=N_("Also write a checklist (.pdf, .html or .md; by color, in the run's language: see hhd checklist for more)."))
@paper_option
@backs_option
@text_only_option
@option("--export", "exports", type=click.Choice(EXPORT_FORMATS), multiple=True,
              help=N_("Also export the library (repeatable; default file names, see hhd export)."))
@tokens_option
@token_copies_option
@option("--force", is_flag=True, help=N_("Replace an existing library file that holds another library."))
@offline_option
@pass_env
def generate(env: Env, seed: str | None, size: int | None, output: Path, fmt: str, as_json: bool,
             exclude_banned: bool, exclude_tag: tuple[str, ...], exclude_file: Path | None, basics_per_type: int,
             proxies: Path | None, checklist: Path | None, paper: str, backs: str, text_only: bool,
             exports: tuple[str, ...], with_tokens: bool, token_copies: int | None, force: bool) -> None:
    """Draw a Hell library: a seeded random tenth of Hellscube v1.2 plus 250 basics.

    \b
    Examples:
      hhd generate --seed ember-tide-42
      hhd generate --seed ember-tide-42 --format summary
      hhd generate --seed ember-tide-42 --proxies hell-proxies.pdf --checklist hell-checklist.pdf
      hhd generate --seed ember-tide-42 --proxies hell-proxies.pdf --tokens
    """
    from hhdcli.files import guard_outputs
    from hhdcli.workflows import Companions, GenerateOptions, generate_library, write_companions

    guard_outputs({_("the library file (-o)"): output, "--proxies": proxies, "--checklist": checklist},
                  {"--exclude-file": exclude_file})
    generated = generate_library(env, GenerateOptions(
        seed=seed, size=size, output=output, exclude_banned=exclude_banned, exclude_tags=exclude_tag,
        exclude_file=exclude_file, basics_per_type=basics_per_type, force=force))
    _print_library(generated.library, generated.cards, generated.pool.cards, fmt, as_json)
    write_companions(env, generated, Companions(
        proxies=proxies, proxy_options=_proxy_options(paper=paper, backs=backs, text_only=text_only) if proxies else None,
        checklist=checklist, exports=exports, with_tokens=with_tokens, token_copies=token_copies))


@cli.command()
@library_option(old_positional=True)
@format_option(VIEW_FORMATS, N_("How to print the library (summary: the figures alone)."), default="text")
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


COLORS_HELP = N_("Use these land colors instead of a deck: letters W U B R G P, or none.")


@cli.command()
@click.argument("deck", required=False)
@library_option()
@option("--all", "all_cards", is_flag=True, help=N_("Check every Hellscube v1.2 card instead of a library."))
@option("--colors", metavar="LETTERS", help=COLORS_HELP)
@option("--land", "lands", multiple=True, metavar="NAME=COLORS",
              help=N_('Colors of a land hhd cannot look up: --land "Steam Vents=UR".'))
@option("--scryfall-url", envvar="HHD_SCRYFALL_URL", show_envvar=True, callback=_check_url, default="https://api.scryfall.com",
              show_default=True, metavar="URL", help=N_("Scryfall API base URL."))
@option("--rules-text", is_flag=True, help=N_("Also count mana symbols in rules text (not the format's rule)."))
@basics_option
@option("--sideboard-after-blank/--no-sideboard-after-blank", default=None,
        help=N_("The deck's last group after a blank line is its sideboard (or: never). Default: as the "
                "file's program reads it."))
@json_option
@output_option(None, N_("Also write the report to this file (.html or .md)."))
@format_option(["html", "md"])
@offline_option
@hidden_alias("--report", "output", type=FILE)
@hidden_alias("--colours", "colors")
@pass_env
@click.pass_context
def check(ctx: click.Context, env: Env, deck: str | None, library: Path, all_cards: bool, colors: str | None,
          lands: tuple[str, ...], scryfall_url: str, rules_text: bool, basics_per_type: int,
          sideboard_after_blank: bool | None,
          as_json: bool, output: Path | None, fmt: str | None) -> None:
    """Which Hell cards a deck can take at once (take), and which are a choice.

    Without --library or --all, the cards of ./hell-library.json are checked when it exists, else every
    Hellscube v1.2 card. Lands that are not Hellscube or basic are looked up on Scryfall (not --offline).

    \b
    Examples:
      hhd check deck.txt
      hhd check deck.txt -l hell-library.json -o check.html
      hhd check --colors WUB --all
    """
    from hhdcli.workflows import CheckOptions, check_cards

    check_cards(env, CheckOptions(
        deck=deck, colors=colors, library=library if _given(ctx, "library") else None, all_cards=all_cards,
        lands=lands, scryfall_url=scryfall_url, rules_text=rules_text, basics_per_type=basics_per_type,
        sideboard_after_blank=sideboard_after_blank, output=output, fmt=fmt, show="json" if as_json else "text"))


# --- exports ----------------------------------------------------------------------------------------------

@cli.command()
@library_option()
@format_option(EXPORT_FORMATS, N_("tts: Tabletop Simulator saved object; cockatrice: set + deck; mpc: MPC Autofill "
               "order; csv: a spreadsheet (default: from -o's extension, else tts)."))
@output_option(None, N_("The file to write (default: hell-library.tts.json, .cockatrice.xml, .mpc.xml or .csv)."))
@option("--image-base-url", metavar="URL", callback=_check_url,
              help=N_("TTS: where you will upload the -images folder; the deck names its images URL/file."))
@option("--back-url", metavar="URL", callback=_check_url, help=N_("TTS: a hosted image of the red back, so every player sees it."))
@option("--cardback", metavar="DRIVE_ID", help=N_("MPC: the Google Drive id of the card back to print."))
@tokens_option
@token_copies_option
@offline_option
@pass_env
def export(env: Env, library: Path, fmt: str, output: Path | None, image_base_url: str | None,
           back_url: str | None, cardback: str | None, with_tokens: bool, token_copies: int | None) -> None:
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
      hhd export --format mpc --tokens
    """
    from hhdcli.files import guard_outputs
    from hhdcli.workflows import ExportOptions, write_export

    guard_outputs({_("the export (-o)"): output}, {_("the library"): library})
    resolved = env.open_library(library)
    write_export(env, resolved.library, resolved.cards, ExportOptions(
        fmt=fmt, output=output, back_url=back_url, cardback=cardback, image_base_url=image_base_url,
        with_tokens=with_tokens, token_copies=token_copies))


# --- printing ----------------------------------------------------------------------------------------------


def _proxy_options(*, paper: str, backs: str, text_only: bool, back_offset: str = "0,0", **layout: Any
                   ) -> ProxyOptions:
    """The sheets' layout from the words of the command line: a paper name or size, none/red backs, X,Y."""
    from hhdcli.render.plan.proxies import ProxyOptions
    from hhdcli.render.plan.sheet import parse_offset, parse_paper

    return ProxyOptions(paper_mm=parse_paper(paper), backs=backs == "red", back_offset_mm=parse_offset(back_offset),
                        text_only=text_only, **layout)


@cli.command()
@library_option(old_positional=True)
@output_option("hell-proxies.pdf", N_("The PDF to write."))
@option("--cards", "names", multiple=True, metavar="NAME", help=N_("Print these cards instead of a library (repeatable)."))
@option("--all", "all_cards", is_flag=True, help=N_("Print every Hellscube v1.2 card (the whole set) instead."))
@paper_option
@option("--gap", type=Finite(0, 20), default=0.0, show_default=True, help=N_("Millimetres between cards."))
@option("--bleed", type=Finite(0, 5), default=0.0, show_default=True, help=N_("Millimetres of art beyond the cut."))
@option("--margin", type=Finite(5, 40), default=5.0, show_default=True,
              help=N_("Millimetres at the paper's edge left blank (raise it for printers that need more)."))
@option("--cut-lines", type=click.Choice(["corners", "full"]), default="corners", show_default=True,
              help=N_("corners: crop marks in the margins; full: lines across the whole sheet."))
@option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True, help=N_("Highest image resolution: larger scans are reduced to it, smaller ones embedded "
                "as they are (never enlarged)."))
@option("--quality", type=click.IntRange(30, 100), default=85, show_default=True, help=N_("JPEG quality of images."))
@option("--small", is_flag=True, help=N_("A smaller PDF for more CPU: optimised JPEG tables for every image."))
@text_only_option
@offline_option
@option("--workers", type=click.IntRange(1, 32), default=8, show_default=True, help=N_("Parallel image downloads."))
@option("--skip-basics", is_flag=True, help=N_("Leave basic lands out (use real basics in red sleeves)."))
@backs_option
@option("--back-offset", default="0,0", metavar="X,Y", help=N_("Shift the backs by X,Y mm to fix duplex misalignment."))
@option("--calibration", is_flag=True, help=N_("Print a sheet to check scale and duplex offset instead."))
@tokens_option
@token_copies_option
@font_option
@pass_env
def proxies(env: Env, library: Path, output: Path, names: tuple[str, ...], all_cards: bool, paper: str, gap: float,
            bleed: float, margin: float, cut_lines: str, dpi: int, quality: int, small: bool, text_only: bool,
            workers: int, skip_basics: bool, backs: str, back_offset: str, calibration: bool, with_tokens: bool,
            token_copies: int | None, font: str | None) -> None:
    """Print true-to-size proxy sheets (63 x 88 mm, 3 x 3 a page) for a library.

    Print at 100 % (actual size). Images are downloaded once into the cache; a card without one is drawn
    from its data.

    \b
    Examples:
      hhd proxies -o hell-proxies.pdf --backs red
      hhd proxies --cards Pyrohyperspasm --cards "nut shot" --paper letter --text-only -o two.pdf
      hhd proxies --all --text-only --bleed 2 --cut-lines full -o hellscube.pdf
      hhd proxies --calibration -o calibration.pdf
      hhd proxies --tokens -o hell-proxies.pdf
    """
    from hhdcli.files import guard_outputs
    from hhdcli.render.draw.calibration import calibration_pdf
    from hhdcli.render.plan.sheet import parse_offset, parse_paper
    from hhdcli.workflows import ImageOptions, ProxyChoice, choose_proxies, print_proxies

    guard_outputs({_("the PDF (-o)"): output}, {_("the library"): None if names or all_cards or calibration
                                                else library, "--font": Path(font) if font else None})
    if calibration:
        env.write(output, calibration_pdf(parse_paper(paper), font, parse_offset(back_offset)),
                  _("print it at 100 %, duplex on the long edge, and follow the instructions on its back"))
        return
    chosen = choose_proxies(env, ProxyChoice(library=library, names=names, all_cards=all_cards,
                                             with_tokens=with_tokens, token_copies=token_copies))
    options = _proxy_options(paper=paper, backs=backs, text_only=text_only, back_offset=back_offset, gap_mm=gap,
                             bleed_mm=bleed, skip_basics=skip_basics, font=font, title=chosen.title, margin_mm=margin,
                             cut_lines=cut_lines)
    print_proxies(env, chosen.cards, output, options, ImageOptions(dpi=dpi, quality=quality, workers=workers,
                                                                   small=small))


class OldSpellings(click.Choice):
    """A choice whose old spellings keep working, hidden from --help and from the choices an error lists."""

    def __init__(self, choices: list[str], old: dict[str, str]) -> None:
        super().__init__(choices)
        self.old = old

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return super().convert(self.old.get(value, value) if isinstance(value, str) else value, param, ctx)


SORTS = OldSpellings(["color", "type", "name", "position"], {"colour": "color"})  # hhd writes American "color"


@cli.command()
@library_option(old_positional=True)
@output_option("hell-checklist.pdf", N_("The checklist to write: .pdf, .html or .md."))
@format_option(["pdf", "html", "md"])
@option("--sort", type=SORTS, default="color", show_default=True, help=N_("How to group the lines."))
@option("--mode", type=click.Choice(["sleeve", "return"]), default="sleeve", show_default=True,
              help=N_("sleeve: building the library; return: the end-of-session count."))
@lang_option
@option("--with-rules", is_flag=True, help=N_("Append the one-page rules reference."))
@font_option
@offline_option
@pass_env
def checklist(env: Env, library: Path, output: Path, fmt: str | None, sort: str, mode: str, lang: str | None,
              with_rules: bool, font: str | None) -> None:
    """A checklist of the library's physical cards, to sleeve it and to count it back.

    \b
    Examples:
      hhd checklist -o hell-checklist.pdf
      hhd checklist --mode return --lang ru --with-rules -o count.html
    """
    from hhdcli.files import guard_outputs
    from hhdcli.workflows import ChecklistOptions, write_checklist

    guard_outputs({_("the checklist (-o)"): output}, {_("the library"): library,
                                                      "--font": Path(font) if font else None})
    resolved = env.open_library(library)
    write_checklist(env, resolved.library, resolved.cards, output, ChecklistOptions(
        fmt=fmt, sort=sort, mode=mode, lang=lang, with_rules=with_rules, font=font))


@cli.command()
@output_option("hell-rules.pdf", N_("The rules sheet to write: .pdf, .html or .md."))
@format_option(["pdf", "html", "md"])
@lang_option
@font_option
@click.option("-l", "--library", type=FILE, metavar="FILE",
              help=N_("Add a page of this library's cards with their Hell's Half-Draft rulings (a booklet)."))
@pass_env
def rules(env: Env, output: Path, fmt: str | None, lang: str | None, font: str | None,
          library: Path | None) -> None:
    """A one-page quick reference of the Hell's Half-Draft rules.

    \b
    Examples:
      hhd rules --lang ru -o rules.pdf
      hhd rules -o rules.md
      hhd rules -l hell-library.json -o booklet.pdf
    """
    from hhdcli.files import guard_outputs
    from hhdcli.render.documents import doc_format, rules_document

    guard_outputs({_("the rules sheet (-o)"): output}, {"--font": Path(font) if font else None,
                                                         _("the library"): library})
    kind = doc_format(output, fmt)
    symbols = env.symbols()  # the sheet alone needs no card cache
    cards = env.open_library(library).cards if library else None
    chosen = lang or current_language()
    env.write(output, rules_document(chosen, symbols, kind, font, cards))


# --- the Hell table --------------------------------------------------------------------------------------------


@cli.command()
@library_option()
@option("--deck", "decks", multiple=True, metavar="NAME=FILE",
              help=N_("A player and their deck list or its link (repeatable): the verdicts follow its lands."))
@option("--player", "players", multiple=True, metavar="NAME=COLORS",
              help=N_("A player by the colors their lands make, without a deck file (repeatable): Anna=RG."))
@option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help=N_("Where to listen: 0.0.0.0 lets phones on your network join (with a join code)."))
@option("--port", type=click.IntRange(1, 65535), default=8040, show_default=True, metavar="PORT",
        envvar="HHD_TABLE_PORT", show_envvar=True, help=N_("The port to listen on."))
@option("--state", "state_file", type=FILE, metavar="FILE",
              help=N_("The session's SQLite file (default: beside the library, LIBRARY.table.sqlite)."))
@option("--land", "lands", multiple=True, metavar="NAME=COLORS",
              help=N_("The colors of a land hhd cannot look up, as in hhd check (repeatable)."))
@option("--new-code", is_flag=True,
        help=N_("A new join code and host secret (phones must scan the board's QR code again)."))
@option("--life", type=click.IntRange(1, 999), metavar="N",  # hhdcli.table.game.rules.LIFE_MOST, read without loading it
        help=N_("Each player's starting life (default 20; the board can change it)."))
@public_url_option
@behind_proxy_option
@option("--sideboard-after-blank/--no-sideboard-after-blank", default=None,
        help=N_("Each deck's last group after a blank line is its sideboard (or: never), as in hhd check."))
@offline_option
@pass_env
def table(env: Env, library: Path, decks: tuple[str, ...], players: tuple[str, ...], host: str, port: int,
          state_file: Path | None, lands: tuple[str, ...], new_code: bool, life: int | None, public_url: str | None,
          behind_proxy: bool, sideboard_after_blank: bool | None) -> None:
    """Run a Hell library on this computer for phones around the table.

    Every player opens the printed address (or scans the QR code on the board), picks their name and
    draws from Hell: the phone shows their Hell cards and what the take rule says for their deck. The
    board (the second address, on this computer) shows the library, the sideboard, every player and the
    log, and seats players on new phones. The session lives in a SQLite file, so stopping and starting
    again goes on where it was. Ctrl-C stops it. --deck NAME=FILE reads a player's land colors from
    their deck list instead of --player NAME=COLORS. The examples read hell-library.json (written by hhd
    generate) in this folder.

    \b
    Examples:
      hhd table --player Anna=RG --player Ben=WUB
      hhd table --player Anna=RG --player Ben=WUB --host 0.0.0.0
    """
    from hhdcli.table.hosting.online import Public
    from hhdcli.table.hosting.online import public_url as checked_url
    from hhdcli.table.hosting.serve import serve
    from hhdcli.workflows import PlayerOptions, players_from_options

    public = Public(checked_url(public_url), behind_proxy)
    options = PlayerOptions(decks=decks, players=players, lands=lands, sideboard_after_blank=sideboard_after_blank)
    resolved = env.open_library(library)
    cache = env.cards()
    colors = players_from_options(env, options)
    serve(env, resolved, cache, colors, state_file=state_file or library.with_suffix(".table.sqlite"), host=host,
          port=port, new_code=new_code, public=public, life=life)


@cli.command()
@option("--dir", "root", type=click.Path(file_okay=False, path_type=Path), default="hhd-tables", show_default=True,
        metavar="DIR", help=N_("The folder of the tables (one folder per table, deleted after --expire idle days)."))
@option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
        help=N_("Where to listen: 127.0.0.1 behind a reverse proxy or a tunnel, 0.0.0.0 for every network."))
@option("--port", type=click.IntRange(1, 65535), default=8040, show_default=True, metavar="PORT",
        envvar="HHD_TABLE_PORT", show_envvar=True, help=N_("The port to listen on."))
@public_url_option
@behind_proxy_option
@option("--expire", type=click.FloatRange(min=0, min_open=True), default=14, show_default=True, metavar="DAYS",
        help=N_("Delete a table nobody acted at for this many days."))
@option("--max-tables", type=click.IntRange(1, 10**6), default=1000, show_default=True, metavar="N",
        help=N_("Keep at most this many tables: beyond it, new tables are refused (open ones go on)."))
@option("--max-megabytes", type=Finite(1, 10**7), default=2000, show_default=True, metavar="MB",
        help=N_("Keep at most this many megabytes of tables in --dir: beyond it, new tables are refused."))
@option("--backups", "backups", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
        help=N_("Back up the tables into this folder while the server runs: each table changed since its last "
                "backup, every --backup-every minutes."))
@option("--backup-every", type=Finite(0.05, 10080), default=15, show_default=True, metavar="MINUTES",
        help=N_("Minutes between two backups (with --backups)."))
@option("--backups-kept", type=click.IntRange(1, 10000), default=8, show_default=True, metavar="N",
        help=N_("Backups kept for each table, the newest (with --backups)."))
@offline_option
@pass_env
@click.pass_context
def serve(ctx: click.Context, env: Env, root: Path, host: str, port: int, public_url: str | None, behind_proxy: bool,
          expire: float, max_tables: int, max_megabytes: float, backups: Path | None, backup_every: float,
          backups_kept: int) -> None:
    """Run Hell tables for a community: anyone opens a table on the front page.

    The front page (English and Russian) opens a table: the players, each with their lands' colors or
    their deck list, and a seed or a library file of hhd generate. The opener gets the board's link (the
    host's); players join by link, QR code or the table's short code. Each table lives in its own folder
    under --dir, is found by its code alone and is deleted after --expire days without an action. Ctrl-C
    or SIGTERM stops the server; the tables are kept, each in its state file alone. --backups DIR
    copies the tables changed since their last backup every --backup-every minutes into DIR, the last
    --backups-kept of each kept.

    \b
    Examples:
      hhd serve
      hhd serve --public-url https://hell.example.org --behind-proxy
      hhd serve --max-tables 200 --max-megabytes 500 --expire 7
      hhd serve --backups hhd-backups --backup-every 60 --backups-kept 24
    """
    from hhdcli.table.hosting.backups import Plan
    from hhdcli.table.hosting.online import Public
    from hhdcli.table.hosting.online import public_url as checked_url
    from hhdcli.table.hosting.serve import serve_community

    if backups is None and (_given(ctx, "backup_every") or _given(ctx, "backups_kept")):
        raise InputError(_("--backup-every and --backups-kept say how to back up the tables, and need --backups DIR"),
                         _("add --backups DIR, the folder of the backups"))
    plan = None if backups is None else Plan(backups, backup_every * 60, backups_kept, expire * 86400.0)
    public = Public(checked_url(public_url), behind_proxy)
    serve_community(env, root, host=host, port=port, public=public, expire_days=expire, max_tables=max_tables,
                    max_megabytes=max_megabytes, backups=plan)


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
    from hhdcli.cache import written_folders
    from hhdcli.files import sweep_leftovers
    from hhdcli.render.scans.images import evict

    removed, freed = evict(env.cache_dir / "images", 0)
    swept = sum(sweep_leftovers(folder) for folder in written_folders(env.cache_dir))
    echo(_("removed {images} ({size} MB) and {files} from {folder}").format(
        images=ngettext("{n} image", "{n} images", removed).format(n=removed), size=format_decimal(freed / 2**20),
        files=ngettext("{n} half-written file", "{n} half-written files", swept).format(n=swept),
        folder=env.cache_dir))



def main() -> None:
    cli(prog_name="hhd")

"""Printable documents by format: the check report, the checklist and the rules sheet as PDF, HTML or
Markdown. One function per document, callable from Python exactly as the CLI calls it."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, date, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from hhdcli.errors import InputError
from hhdcli.i18n import _
from hhdcli.render.documents.templates import render

if TYPE_CHECKING:
    from markupsafe import Markup

    from hhdcli.cards import Card
    from hhdcli.check import CheckReport
    from hhdcli.mana import SymbolTable
    from hhdcli.render.documents.checklist import Checklist


class DocFormat(StrEnum):
    PDF = "pdf"
    HTML = "html"
    MD = "md"


_BY_SUFFIX = {".pdf": DocFormat.PDF, ".html": DocFormat.HTML, ".htm": DocFormat.HTML, ".md": DocFormat.MD}


def doc_format(path: Path, chosen: str | None, allowed: tuple[DocFormat, ...] = tuple(DocFormat)) -> DocFormat:
    """--format when given, else the output's extension; refused when the command cannot write it."""
    found = DocFormat(chosen) if chosen else _BY_SUFFIX.get(Path(path).suffix.lower())
    names = ", ".join(f.value for f in allowed)
    if found is None:
        raise InputError(_("{path}: cannot tell the format from the extension").format(path=path), _("end the name in .{value} or pass --format ({names})").format(value=allowed[0].value, names=names))
    if found not in allowed:
        raise InputError(_("{path}: this command writes {names}, not {value}").format(path=path, names=names, value=found.value), _("for example -o out.{value}").format(value=allowed[0]))
    return found


def today() -> date:
    """Today, or the date in SOURCE_DATE_EPOCH for reproducible builds."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return datetime.fromtimestamp(int(epoch), UTC).date() if epoch and epoch.isdigit() else date.today()


def _cost_markup(symbols: SymbolTable) -> Callable[[str], Markup]:
    from markupsafe import Markup

    from hhdcli.render.draw.symbols import cost_html

    return lambda cost: Markup(cost_html(cost or "", symbols))


def _frame_css() -> dict[str, str]:
    from hhdcli.render.draw.palette import FRAME
    from hhdcli.render.draw.symbols import css_color

    return {key: css_color(rgb) for key, rgb in FRAME.items()}


def check_document(report: CheckReport, symbols: SymbolTable, fmt: DocFormat) -> str:
    """The deck check as HTML or Markdown."""
    from hhdcli.check import format_odds, how_known, summary_line, verdict_word
    from hhdcli.i18n import current_language, ngettext
    from hhdcli.rulings import card_rulings

    colors = "".join(report.deck_colors) or _("none")
    lang = current_language()
    return render(f"check.{fmt}.j2", report=report, s=report.summary, verdicts=report.sorted_verdicts,
                   colors=colors, gains=[w for w in report.what_if if w.gain > 0], cost=_cost_markup(symbols),
                   odds=report.odds, hell=lambda card: [r.name(lang) for r in card_rulings(card)],
                   # the report speaks the run's language; the take rule's words as the rules sheet says them
                   _=_trusted(_) if fmt is DocFormat.HTML else _, ngettext=ngettext, lang=lang,
                   verdict_word=verdict_word, how_known=how_known,
                   summary_text=summary_line(report.summary), odds_text=format_odds(report.odds, report.whole_set)[0])


def _trusted(gettext: Callable[[str], str]) -> Callable[[str], Markup]:
    """The catalog's texts are ours, safe as HTML (an apostrophe stays one); what .format() puts in them is
    escaped by Markup."""
    from markupsafe import Markup

    return lambda message: Markup(gettext(message))


def checklist_document(checklist: Checklist, symbols: SymbolTable, fmt: DocFormat, font: str | None = None,
                       with_rules: bool = False) -> bytes | str:
    """The red-sleeve checklist; with_rules appends the rules reference in the checklist's language."""
    if fmt is DocFormat.PDF:
        from hhdcli.render.documents.checklist_pdf import checklist_pdf

        return checklist_pdf(checklist, symbols, font, checklist.lang if with_rules else None)
    from hhdcli.render.documents.rules import rules_context

    rules = rules_context(checklist.lang) if with_rules else None
    return render(f"checklist.{fmt}.j2", checklist=checklist, rules=rules, cost=_cost_markup(symbols),
                   frame_css=_frame_css())


def rules_document(lang: str, symbols: SymbolTable, fmt: DocFormat, font: str | None = None,
                   library: list[Card] | None = None) -> bytes | str:
    """The one-page rules reference; with a library's cards, the booklet: the rules, then those of its cards
    that have a Hell's Half-Draft ruling, each with its ruling ids and clarification."""
    from hhdcli.render.documents.rules import library_rulings, rules_context

    section = library_rulings(library, lang) if library is not None else None
    if fmt is DocFormat.PDF:
        from hhdcli.render.documents.rules_pdf import rules_pdf

        return rules_pdf(lang, symbols, font, section)
    return render(f"rules.{fmt}.j2", cost=_cost_markup(symbols), **rules_context(lang, section))

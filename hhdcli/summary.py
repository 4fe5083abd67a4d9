"""What a library holds beside what a random tenth is expected to hold, and its text/CSV/Markdown views."""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hhdcli.cards import Card, CardType, Kind
from hhdcli.colors import COLOR_GROUPS, GROUP_NAMES, POOL_BASICS, Group
from hhdcli.i18n import N_, _, ngettext, quote
from hhdcli.library import Library

if TYPE_CHECKING:
    from hhdcli.tokens import NeededToken

CURVE = ("0", "1", "2", "3", "4", "5", "6", "7+")


def curve_bucket(card: Card) -> str | None:
    if card.is_land or card.mana_value is None:
        return None
    value = max(0, int(card.mana_value))
    return CURVE[min(value, 7)]


def color_bucket(card: Card) -> str:
    """Basic lands and other lands are one bucket here; the basics have a figure of their own."""
    return GROUP_NAMES[Group.LAND if card.is_land else card.color_group]


FIGURES: dict[str, tuple[Sequence[str], Callable[[Card], str | None]]] = {
    "type": (tuple(CardType), lambda c: c.primary_type),
    "color": (tuple(GROUP_NAMES[g] for g in (*COLOR_GROUPS, Group.LAND)), color_bucket),
    "basics": (tuple(POOL_BASICS), lambda c: c.name if c.kind is Kind.BASIC else None),
    "mana value": (CURVE, curve_bucket),
}


@dataclass(frozen=True)
class Row:
    """One figure of a library's summary: its count, and how many a random library has."""

    figure: str
    label: str
    count: int
    expected: float


def summarize(library_cards: Sequence[Card], pool: Sequence[Card]) -> list[Row]:
    """Each figure's count in the library and its expected value for a uniform sample of that size."""
    share = len(library_cards) / len(pool) if pool else 0.0
    rows: list[Row] = []
    for figure, (labels, bucket) in FIGURES.items():
        have = Counter(bucket(c) for c in library_cards)
        expected = Counter(bucket(c) for c in pool)
        rows.extend(Row(figure, label, have.get(label, 0), round(expected.get(label, 0) * share, 1))
                    for label in labels)
    return rows


def summary_json(rows: Sequence[Row]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for row in rows:
        result.setdefault(row.figure, {})[row.label] = {"count": row.count, "expected": row.expected}
    return result


# The figures' names and labels as shown to people; the JSON keeps the English ones (they are keys). Basic
# lands are card names and stay as printed.
SHOWN = {"type": N_("type"), "color": N_("color"), "basics": N_("basics"), "mana value": N_("mana value"),
         "Land": N_("Land"), "Creature": N_("Creature"), "Planeswalker": N_("Planeswalker"),
         "Instant": N_("Instant"), "Sorcery": N_("Sorcery"), "Artifact": N_("Artifact"),
         "Enchantment": N_("Enchantment"), "Other": N_("Other"), "White": N_("White"), "Blue": N_("Blue"),
         "Black": N_("Black"), "Red": N_("Red"), "Green": N_("Green"), "Purple": N_("Purple"),
         "Multicolor": N_("Multicolor"), "Colorless": N_("Colorless")}


def shown(word: str) -> str:
    return _(SHOWN[word]) if word in SHOWN else word


def format_summary(rows: Sequence[Row]) -> str:
    lines = []
    width = max(len(shown(figure)) for figure in FIGURES) + 2
    for figure in FIGURES:
        cells = [f"{shown(r.label)} {r.count} ({r.expected:g})" for r in rows if r.figure == figure]
        lines.append(f"{shown(figure) + ':':<{width}}" + "  ".join(cells))
    lines.append(_("(in brackets: expected for a random tenth)"))
    return "\n".join(lines)


# --- views of a library ------------------------------------------------------------------------


def _row(position: int, card: Card | None, entry) -> dict[str, Any]:
    return {"position": position, "name": entry.name, "kind": entry.kind,
            "mana_cost": card.mana_cost if card else "", "type_line": card.type_line if card else "",
            "id": entry.id}


def library_rows(library: Library, cards_by_id: dict[str, Card]) -> list[dict[str, Any]]:
    return [_row(e.position, cards_by_id.get(e.id), e) for e in library.cards]


def token_lines(needed: Sequence[NeededToken]) -> list[str]:
    """The tokens to bring, one line each: how many, the token, the cards that make it (a token only the cards'
    texts name is marked as inferred)."""
    lines = []
    for item in needed:
        token = item.token
        stats = f" {token.power}/{token.toughness}" if token.power or token.toughness else ""
        makers = ", ".join(m.card.name for m in item.makers)
        inferred = " " + _("(inferred from the text)") if item.inferred else ""
        lines.append(_("{n} × {token}{stats} ({type}) — made by {cards}{inferred}").format(
            n=item.copies(), token=token.name, stats=stats, type=token.type_line, cards=makers, inferred=inferred))
    return lines


def render_view(fmt: str, library: Library, rows: list[dict[str, Any]], summary: Sequence[Row],
                tokens: Sequence[NeededToken] = ()) -> str:
    if fmt == "json":
        return json.dumps(library.to_json(), indent=2, sort_keys=True, ensure_ascii=False)
    if fmt == "csv":
        import csv  # here: the other views never need it

        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["position"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue().rstrip("\n")
    if fmt == "md":
        return _markdown(library, rows, summary, tokens)
    return _text(library, rows, summary, tokens)


def _text(library: Library, rows: list[dict[str, Any]], summary: Sequence[Row],
          tokens: Sequence[NeededToken]) -> str:
    pool = int(library.pool.get("cards") or 0)
    header = ngettext("Hell library — seed {seed}, {n} of {pool} card (top first)",
                      "Hell library — seed {seed}, {n} of {pool} cards (top first)", pool).format(
        seed=quote(library.seed), n=library.size, pool=pool)
    body = [f"{r['position']:>3}. {r['name']}" + (f"   {r['mana_cost']}" if r["mana_cost"] else "")
            + (f"   — {r['type_line']}" if r["type_line"] else "") for r in rows]
    listed = ["", ngettext("{n} token to bring:", "{n} tokens to bring:", len(tokens)).format(n=len(tokens)),
              *("  " + line for line in token_lines(tokens))] if tokens else []
    return "\n".join([header, *body, *listed, "", format_summary(summary)])


def _md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _markdown(library: Library, rows: list[dict[str, Any]], summary: Sequence[Row],
              tokens: Sequence[NeededToken]) -> str:
    pool = int(library.pool.get("cards") or 0)
    lines = ["# " + _("Hell library — seed {seed}").format(seed=f"`{library.seed}`"), "",
             ngettext("{n} of {pool} card, top first.", "{n} of {pool} cards, top first.", pool).format(
                 n=library.size, pool=pool), "",
             "| # | {} | {} | {} |".format(_("Card"), _("Cost"), _("Type")), "|---:|---|---|---|"]
    lines += [f"| {r['position']} | {_md_cell(r['name'])} | {_md_cell(r['mana_cost'])} | {_md_cell(r['type_line'])} |"
              for r in rows]
    if tokens:
        lines += ["", "## " + _("Tokens to bring"), "", *(f"- {_md_cell(line)}" for line in token_lines(tokens))]
    lines += ["", "| {} | {} | {} | {} |".format(_("Figure"), _("Value"), _("Library"), _("Expected")),
              "|---|---|---:|---:|"]
    lines += [f"| {shown(r.figure)} | {shown(r.label)} | {r.count} | {r.expected:g} |" for r in summary]

    return "\n".join(lines)

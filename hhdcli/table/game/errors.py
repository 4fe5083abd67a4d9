"""The table's refusals: what the rules or the session refuse, with the HTTP status that says so. Each text is
a message of the table's catalog (table.po), said in the asker's language by `said`."""

from __future__ import annotations

from collections.abc import Callable

from hhdcli.i18n import N_


class TableError(Exception):
    """A request the rules or the session refuse: `status` is the HTTP status that says so. The text is a
    message of the page's catalog (translated for the player asking) with `values` put in its {fields}."""

    translated: tuple[str, ...] = ()  # values that are words of the catalog too (a log action)

    def __init__(self, template: str, status: int = 409, **values: object) -> None:
        self.template, self.status, self.values = template, status, values
        self.message = self.said()
        super().__init__(self.message)

    def said(self, gettext: Callable[[str], str] = str) -> str:
        """The message in English, or through `gettext` in another language."""
        values = {k: gettext(str(v)) if k in self.translated else v for k, v in self.values.items()}
        text = gettext(self.template)
        return text.format(**values) if values else text


class NeedsConfirmation(TableError):
    """Refused unless the player confirms: undoing another player's action."""

    translated = ("action",)


class Depends(TableError):
    """Refused: later actions moved the same cards (or began a later game); they must be undone first. They
    are named as "Ben: draw", the action in the asker's language."""

    def __init__(self, action: str, later: list[tuple[str | None, str]]) -> None:
        self.action, self.later = action, later  # the action refused (named: "it" alone says not which)
        super().__init__(N_('cannot undo "{action}": later actions depend on it; undo them first: {actions}'),
                         action=action, actions="")

    def said(self, gettext: Callable[[str], str] = str) -> str:
        named = ", ".join(f"{who or gettext('the host')}: {gettext(action)}" for who, action in self.later)
        return gettext(self.template).format(action=gettext(self.action), actions=named)

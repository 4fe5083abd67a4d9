"""Jinja2 templates shipped in the wheel (hhdcli/templates/)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("hhdcli", "templates"),
        extensions=["jinja2.ext.i18n"],  # _() in templates; a page passes its language's gettext as `_`
        # HTML is escaped everywhere: card names hold <, & and quotes; Markdown is escaped by a filter
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]  # English unless told
    env.filters["md"] = md_escape
    return env


def md_escape(text: Any) -> str:
    """Characters that would change a Markdown table cell or start markup."""
    out = str(text)
    for char in "\\|*_`[]<>#":
        out = out.replace(char, "\\" + char)
    return out.replace("\n", " ")


def render(name: str, **context: Any) -> str:
    """The document, through the write guard: no control character of the data reaches a file or a browser."""
    from hhdcli.terminal import file_text

    return file_text(environment().get_template(name).render(**context))

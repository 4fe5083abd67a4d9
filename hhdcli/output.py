"""The one path every command's text takes to the terminal: through the write guard (hhdcli.terminal), in any
encoding the stream has (what it cannot show is replaced, never a UnicodeEncodeError), and with a stdout that is
closed, full or a broken pipe ending the run in one line rather than a traceback."""

from __future__ import annotations

import errno
import os
import sys
from typing import IO, Any

import click

from hhdcli.errors import HhdError
from hhdcli.i18n import _
from hhdcli.terminal import json_text, printable


class OutputError(HhdError):
    """Standard output that cannot take what a command prints: closed, full, gone."""

    exit_code = 1


class BrokenPipe(Exception):
    """The reader of stdout went away (`hhd cards | head`): the run ends quietly, as Unix tools do."""


def prepare_streams() -> None:
    """stdout and stderr replace what their encoding cannot hold (a cp1252 or Latin-1 stdout, Windows with output
    redirected) instead of raising, for Click's own help and errors too; a Windows console gets UTF-8."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        try:
            if os.name == "nt" and stream.isatty():
                reconfigure(encoding="utf-8", errors="replace")
            else:
                reconfigure(errors="replace")
        except (OSError, ValueError):  # a stream already closed or detached: echo says so when it is used
            pass


def is_terminal(err: bool = False) -> bool:
    """Whether stdout (or stderr) is a terminal; a closed one (None: started with `>&-`) is not."""
    stream = sys.stderr if err else sys.stdout
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


def echo(text: str, err: bool = False, fg: str | None = None) -> None:
    """`text` and a new line, guarded, on stdout (or stderr: a message that cannot be shown is dropped, since
    there is nowhere left to say so)."""
    stream: IO[str] | None = sys.stderr if err else sys.stdout
    if stream is None:
        if err:
            return
        raise _closed()
    shown = _encodable(printable(text), stream)
    try:
        click.echo(click.style(shown, fg=fg) if fg else shown, file=stream)
    except (OSError, ValueError) as exc:
        if not err:
            raise stdout_failed(exc) from None


def echo_json(document: Any) -> None:
    echo(json_text(document))


def _encodable(text: str, stream: IO[str]) -> str:
    """`text` with what the stream's encoding cannot hold replaced (a stream prepare_streams could not set)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode(encoding, "replace").decode(encoding)
    except LookupError:
        pass
    return text


def stdout_failed(exc: BaseException) -> BaseException:
    """What a failed write to stdout means: a reader that went away, or one line naming why it took nothing."""
    _silence_stdout()
    if isinstance(exc, BrokenPipeError) or getattr(exc, "errno", None) == errno.EPIPE:
        return BrokenPipe()
    if getattr(exc, "errno", None) == errno.EBADF:
        return _closed()
    reason = os.strerror(exc.errno) if isinstance(exc, OSError) and exc.errno else _("it is closed")
    return OutputError(_("cannot print to standard output: {reason}").format(reason=reason),
                       _("send the output to a terminal or a file with room in it"))


def _closed() -> OutputError:
    return OutputError(_("standard output is closed, so there is nowhere to print the result"),
                       _("run it again with its output sent to a terminal, a file or a pipe"))


def _silence_stdout() -> None:
    """What is still buffered for a stdout that failed is dropped, so that the exit does not fail again on it."""
    stream = sys.stdout
    if stream is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is an OSError
        pass  # a stream with no descriptor (a test's runner): it keeps what it holds

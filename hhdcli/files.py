"""Every file hhd writes goes through here: atomic replacement, and OS errors as one-line errors."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hhdcli.errors import CacheError, InputError


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temp file beside `path`, then rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, _file_mode(path))  # mkstemp makes 0600; a replaced file keeps the mode a new one would get
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _file_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _why(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


def write_output(path: Path, data: bytes | str) -> None:
    """A file the user asked for (-o): a failure names the path and suggests another."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        write_atomic(Path(path), payload)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {_why(exc)}",
                         "choose another output path (-o) in a folder you can write to") from exc


def write_cache_file(path: Path, data: bytes) -> None:
    """A file in the cache folder: a failure points at --cache-dir."""
    try:
        write_atomic(Path(path), data)
    except OSError as exc:
        raise CacheError(f"cannot write the cache file {path}: {_why(exc)}",
                         "make the cache folder writable, or choose another with --cache-dir or HHD_CACHE_DIR") from exc


def dump_json(document: Any) -> bytes:
    """The one JSON style hhd writes: sorted keys, two-space indent, UTF-8, trailing newline."""
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")

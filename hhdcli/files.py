"""Every file hhd writes goes through here: atomic replacement, and OS errors as one-line errors."""

from __future__ import annotations

import codecs
import errno
import functools
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from hhdcli.errors import CacheError, InputError
from hhdcli.i18n import N_, _


def write_atomic(path: Path, data: bytes | Callable[[BinaryIO], object], durable: bool = True) -> None:
    """Write to a temp file beside `path`, then rename: readers never see half a file. `durable` also
    flushes it to the disk first (not worth it for a cache of downloads that can be fetched again).
    The temp file's name carries the writer's pid, so a run killed mid-write is swept up by the next.
    `data` may be a function that writes the content to the file it is given (a large PDF, a piece at a time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.parent not in _SWEPT:  # once a folder and run: a folder of 1,500 images is not listed per write
        sweep_leftovers(path.parent)
    made: list[str] = []  # the temp file's name, known here before the file exists: Ctrl-C at any moment after
    try:  # (even as it is being made) leaves nothing behind
        fd, tmp = _new_temp_file(path.parent, f".{path.name}.{os.getpid()}{LEFTOVER_MARK}", ".tmp", made)
        os.chmod(tmp, _file_mode(path))  # mkstemp makes 0600; a replaced file keeps the mode a new one would get
        with os.fdopen(fd, "wb") as handle:
            if callable(data):
                data(handle)
            else:
                handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        for tmp in made:
            Path(tmp).unlink(missing_ok=True)
        raise


def _new_temp_file(folder: Path, prefix: str, suffix: str, made: list[str]) -> tuple[int, str]:
    """tempfile.mkstemp's contract (a new file that no one else opened, mode 0600, its absolute path) without
    importing tempfile, whose shutil loads three compression modules: 3 ms of every writing command's start-up.
    The name goes into `made` before the file is made, so that an interrupt just after leaves it known."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _attempt in range(100):  # as mkstemp: another name when one is taken
        name = os.path.abspath(os.path.join(folder, f"{prefix}{os.urandom(5).hex()}{suffix}"))
        made.append(name)
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:  # another's: not ours to remove
            made.remove(name)
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(folder))


_SWEPT: set[Path] = set()
LEFTOVER_MARK = ".hhd-"  # .NAME.<pid>.hhd-XXXX.tmp: a temp file of ours, and whose


def sweep_leftovers(folder: Path) -> int:
    """Remove our temp files whose writer is no longer running (killed mid-write); how many went."""
    _SWEPT.add(folder)
    removed = 0
    try:
        candidates = [p for p in folder.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp")
                      and LEFTOVER_MARK in p.name]
    except OSError:
        return 0
    for leftover in candidates:
        pid_text = leftover.name.split(LEFTOVER_MARK)[0].rsplit(".", 1)[-1]
        if pid_text.isdigit() and not _running(int(pid_text)):
            try:
                leftover.unlink()
                removed += 1
            except OSError:
                pass
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process, or no way to ask: leave its file alone
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """A killed process its parent has not reaped yet still answers kill(pid, 0): it writes nothing more."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat_line.rsplit(")", 1)[-1].split()[:1] == ["Z"]


def _read_umask() -> int:
    """The process's umask, read once at import: reading it means setting it, which is not safe while
    download threads create files."""
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _read_umask()


def _file_mode(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o666 & ~_UMASK


# The system's reasons as the C library words them in English (Python does not translate strerror): the
# common ones are msgids, so that a Russian message does not end in English.
OS_REASONS = {errno.ENOENT: N_("No such file or directory"), errno.EACCES: N_("Permission denied"),
              errno.EPERM: N_("Operation not permitted"), errno.EISDIR: N_("Is a directory"),
              errno.ENOTDIR: N_("Not a directory"), errno.EEXIST: N_("File exists"),
              errno.ENOSPC: N_("No space left on device"), errno.EROFS: N_("Read-only file system"),
              errno.ENAMETOOLONG: N_("File name too long"), errno.ELOOP: N_("Too many levels of symbolic links")}


def os_reason(exc: OSError) -> str:
    """Why the system refused, in the run's language where the catalog has it."""
    return _(OS_REASONS[exc.errno]) if exc.errno in OS_REASONS else exc.strerror or exc.__class__.__name__




def write_output(path: Path, data: bytes | str | Callable[[BinaryIO], object]) -> None:
    """A file the user asked for (-o): a failure names the path and suggests another. Only a regular file
    or a new path: renaming over a device or a pipe would replace it with a file."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if Path(path).exists() and not Path(path).is_file():
        raise InputError(_("cannot write {path}: it is not a regular file").format(path=path),
                         _("choose another output path (-o): a new file or one hhd wrote"))
    try:
        write_atomic(Path(path), payload)
    except OSError as exc:
        raise InputError(_("cannot write {path}: {why}").format(path=path, why=os_reason(exc)),
                         _("choose another output path (-o) in a folder you can write to")) from exc


def write_cache_file(path: Path, data: bytes, durable: bool = True) -> None:
    """A file in the cache folder: a failure points at --cache-dir."""
    try:
        write_atomic(Path(path), data, durable)
    except OSError as exc:
        raise cache_write_error(path, exc) from exc


def cache_write_error(path: Path, exc: OSError) -> CacheError:
    """A cache file that could not be written: the one message, pointing at --cache-dir."""
    return CacheError(_("cannot write the cache file {path}: {why}").format(path=path, why=os_reason(exc)),
                      _("make the cache folder writable, or choose another with --cache-dir or HHD_CACHE_DIR"))


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of data, in hex: how the cache names the files of one sync."""
    if len(data) > 1 << 20:  # a registry file: OpenSSL's is five times as fast on megabytes
        import hashlib

        return hashlib.sha256(data).hexdigest()
    return str(_small_sha256()(data).hexdigest())


@functools.cache
def _small_sha256() -> Callable[[bytes], Any]:
    """CPython's own SHA-256 (3.11: _sha256, 3.12 on: _sha2) for what every command reads (pips.json, 80 kB):
    importing hashlib loads OpenSSL, ~3 ms of each command's start. Looked up once: a failed import is not
    remembered, and images name their files by it, thousands of times a run."""
    for module in ("_sha256", "_sha2", "hashlib"):
        try:
            return __import__(module).sha256
        except ImportError:
            continue
    raise ImportError("no SHA-256 in this Python")


def dump_json(document: Any) -> bytes:
    """The one JSON style hhd writes: sorted keys, two-space indent, UTF-8, trailing newline."""
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


# --- reading what people write ----------------------------------------------------------------------

MAX_TEXT_BYTES = 1024 * 1024  # a deck list or a name list; anything larger is not one


# Byte-order marks of the wide encodings, UTF-32 first (its little-endian mark begins with UTF-16's):
# Windows PowerShell's `>` writes UTF-16 LE with a BOM.
_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
              (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def wide_encoding(raw: bytes) -> str | None:
    """The UTF-16 or UTF-32 encoding a text's byte-order mark says; else UTF-16 without a mark (Dragon Shield's
    export is UTF-16 LE without one) when its first bytes are Latin text, each letter's other byte a NUL; or None."""
    marked = next((encoding for bom, encoding in _WIDE_BOMS if raw.startswith(bom)), None)
    return marked or _unmarked_utf16(raw[:8192])


def _unmarked_utf16(sample: bytes) -> str | None:
    """UTF-16 LE or BE without a BOM: at least a third of the sample's two-byte units are one NUL and one other
    byte, and every NUL falls on the same side. UTF-8 text holds no NUL; a binary file has NULs on both sides."""
    nuls = [i % 2 for i, byte in enumerate(sample) if byte == 0]
    if len(sample) % 2 or len(nuls) * 3 < len(sample) // 2 or len(set(nuls)) != 1:
        return None
    return "utf-16-le" if nuls[0] else "utf-16-be"


def decode_text(raw: bytes) -> str:
    """UTF-16 or UTF-32 with a BOM, or UTF-16 whose NULs say it; UTF-8 (with or without a BOM), else
    Windows-1252 (what Notepad writes: `Urza’s Saga`)."""
    wide = wide_encoding(raw)
    if wide:
        return raw.decode(wide, errors="replace")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def read_input(path: Path, what: str, limit: int, hint: str | None = None) -> bytes:
    """The bytes of a file a person named: a regular file only (a FIFO would hang, /dev/zero never end),
    read no further than `limit` + 1 bytes so that the caller can tell "too large"."""
    hint = hint or _("check the path")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opens at once, then is refused
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise InputError(_("{path} is not a regular file (a device, pipe or folder): cannot read it as {what}").format(path=path, what=what), hint)
            with os.fdopen(fd, "rb", closefd=False) as handle:
                return handle.read(limit + 1)
        finally:
            os.close(fd)
    except OSError as exc:
        raise InputError(_("cannot read {what} {path}: {why}").format(what=what, path=path, why=os_reason(exc)), hint) from exc


def read_text_file(path: Path, what: str, hint: str) -> str:
    """A text file a person gave (deck, exclusions, names), read the same way everywhere."""
    raw = read_input(path, what, MAX_TEXT_BYTES)
    text = decode_text(raw)
    # UTF-16 text is full of NUL bytes: a wide file is binary when its text holds one
    binary = "\0" in text if wide_encoding(raw) else b"\0" in raw[:8192]
    if len(raw) > MAX_TEXT_BYTES or binary:
        why = _("a binary file") if binary else _("over {n} MB").format(n=MAX_TEXT_BYTES // 2**20)
        raise InputError(_("{path} is not a {what} ({why})").format(path=path, what=what, why=why), hint)
    return text


# --- outputs never overwrite inputs ----------------------------------------------------------------------


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)  # links and hard links included
    except OSError:
        pass
    return a.resolve() == b.resolve()


def guard_outputs(outputs: dict[str, Path | None], inputs: dict[str, Path | None]) -> None:
    """Refuse a command whose output is one of its inputs, or whose two outputs are one file: writing
    it would destroy what it reads (or one output would replace the other)."""
    given_out = [(label, Path(p)) for label, p in outputs.items() if p is not None]
    given_in = [(label, Path(p)) for label, p in inputs.items() if p is not None]
    for i, (out_label, out) in enumerate(given_out):
        for in_label, source in given_in + given_out[i + 1:]:
            if _same_file(out, source):
                raise InputError(_("{out} is both {out_label} and {in_label}: writing one would destroy the other").format(out=out, out_label=out_label, in_label=in_label),
                                 _("choose another path for {out_label}").format(out_label=out_label))


def refuse_to_replace(path: Path, data: bytes, what: str, force: bool) -> None:
    """An existing file with other contents is only replaced with --force; the same bytes are harmless."""
    if not path.is_file():
        return  # nothing there to lose (and a device or pipe is refused when written)
    try:
        with path.open("rb") as handle:
            same = handle.read(len(data) + 1) == data
    except OSError:
        return  # nothing readable to lose
    if not same and not force:
        raise InputError(_("{path} exists and holds another {what}").format(path=path, what=what),
                         _("pass --force to replace it, or choose another path with -o"))

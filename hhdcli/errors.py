"""One error family: every failure a person can fix carries a message and a next step."""

from __future__ import annotations

from hhdcli.i18n import _


class HhdError(Exception):
    """An error meant for a person: `message` says what went wrong, `hint` what to do next."""

    exit_code = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = _(hint) if hint else hint  # a hint kept as a constant (N_) is translated here

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message

    def __reduce__(self) -> tuple[object, ...]:
        # raised in a worker process (hhdcli.table.web.offloop), raised again in the server as it was: pickle's
        # default would call the class with the message alone, losing the hint (or failing, for DownloadError)
        return _again, (type(self), self.args, self.__dict__)


def _again(kind: type[HhdError], args: tuple[object, ...], state: dict[str, object]) -> HhdError:
    error = Exception.__new__(kind)
    error.args = args
    error.__dict__.update(state)
    return error


class InputError(HhdError):
    """Bad input from the user: a file, an option value, a deck list."""

    exit_code = 2


class DataError(HhdError):
    """Registry data or a library file that cannot be read as expected."""

    exit_code = 3


class NetworkError(HhdError):
    """A download failed: HTTP error, timeout, truncated body."""

    exit_code = 4


class DownloadError(NetworkError):
    """A request that failed, with `reason` alone (no URL) for summaries that group failures."""

    def __init__(self, url: str, reason: str, hint: str | None = None) -> None:
        super().__init__(_("could not download {url}: {reason}").format(url=url, reason=reason), hint)
        self.url, self.reason = url, reason


class CacheError(HhdError):
    """The local card cache is missing or damaged."""

    exit_code = 5

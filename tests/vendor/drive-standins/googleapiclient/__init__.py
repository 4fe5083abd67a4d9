"""Stand-ins for what MPC Autofill's io.py imports from Google's Drive client (see ../README.md)."""


class NotHere:
    """Anything of Google's client: using it fails, since the tests never reach Google Drive."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("the tests read MPC Autofill orders only; they never call Google Drive")

    @classmethod
    def from_json_keyfile_name(cls, *args: object, **kwargs: object) -> "NotHere":
        return cls()

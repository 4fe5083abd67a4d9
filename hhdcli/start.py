"""The `hhd` command's first module, so small that nothing is imported before the collector is set aside.

Starting the CLI (Click, hhd's modules, its command tree) makes some 12,000 objects the collector tracks, none of
them garbage: each collector pass during the imports walks them all again, and so does the final collection when
the process ends. Measured as processes, that is 10–12 ms of `hhd card` or `hhd check` (about a seventh of each). So the imports
run with the collector off, and what they made is then frozen (`gc.freeze`: moved where no collection looks,
which also spares the pages of forked children); the command itself runs with the collector on, as usual, so
a long run (the table, 2,880 proxies) collects its own garbage.
"""

from __future__ import annotations

import gc


def main() -> None:
    gc.disable()
    try:
        from hhdcli.cli import main as run
    finally:
        gc.freeze()
        gc.enable()
    run()

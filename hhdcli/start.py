"""The `hhd` command's first module, so small that nothing is imported before the collector is set aside.

Starting the CLI (Click, hhd's modules, its command tree) makes some 12,000 objects the collector tracks, none of
them garbage: each collector pass during the imports walks them all again, and so does the final collection when
the process ends. Measured as processes, that is 10-12 ms of `hhd card` or `hhd check`, about a seventh of each.
So the imports run with the collector off, and what they made is then frozen (`gc.freeze`: moved where no
collection looks, which also spares the pages of forked children).

The command itself runs with the collector on, so a long run (the table, 2,880 proxies) collects its own garbage,
but less often than Python's default pass every 700 new objects: what a command builds (720 cards, their faces,
a symbol table) lives until it ends, and each pass would only walk it again. At 20,000, garbage waits at most
that many objects (a few megabytes), and `hhd card` and `hhd check` run 2 % fewer instructions.
"""

from __future__ import annotations

import gc

GENERATION_0 = 20_000  # new objects between two passes of the collector (Python's default: 700)


def main() -> None:
    gc.disable()
    try:
        from hhdcli.cli import main as run
    finally:
        gc.freeze()
        gc.set_threshold(GENERATION_0, *gc.get_threshold()[1:])
        gc.enable()
    run()

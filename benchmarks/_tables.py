"""Where benchmarks print their result tables."""

from __future__ import annotations

import sys

from rich.console import Console

# Rich lays a table out for 80 columns when standard output is not a terminal, and cuts
# the cells that do not fit ("12.67/28.3…"): a table redirected to a file would lose the
# figures it exists to keep.
FILE_WIDTH = 200


def table_console() -> Console:
    """A console on standard output, FILE_WIDTH columns wide when that is not a terminal."""
    return Console() if sys.stdout.isatty() else Console(width=FILE_WIDTH)

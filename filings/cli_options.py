"""Options and the error exit shared by the `filings` commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from filings.output import line

HomeOpt = Annotated[Path | None, typer.Option("--home", help="Warehouse folder (default $FILINGS_HOME or ./.filings)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines")]
NARROW = 110  # a terminal narrower than this gets tables in fewer, folded columns


def fail(message: str, code: int = 2) -> None:
    """Print ``error: message`` on stderr and exit with ``code`` (2: a usage error, 1: nothing found)."""
    line(Console(stderr=True), ("error:", "red"), " ", message)
    raise typer.Exit(code)

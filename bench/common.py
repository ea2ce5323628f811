"""Shared bits of the bench scripts: where the corpus is, a median, a printed table."""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def corpus_root() -> Path:
    root = Path(os.environ.get("FILINGS_CORPUS") or REPO.parent / "shared" / "corpus").resolve()
    if not root.exists():
        sys.exit(f"corpus not found at {root}: set FILINGS_CORPUS")
    return root


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def print_table(headers: list[str], rows: list[list], title: str | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for h in headers:
        table.add_column(h, justify="left" if h in {"file", "document", "kind"} else "right")
    for r in rows:
        table.add_row(*(f"{v:.3f}" if isinstance(v, float) else str(v) for v in r))
    Console(width=160).print(table)

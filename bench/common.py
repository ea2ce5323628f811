"""Shared bits of the bench scripts: where the corpus is, the FinanceBench dev questions, a median, a printed table."""

from __future__ import annotations

import argparse
import json
import logging
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


def financebench_dev() -> list[dict]:
    """The FinanceBench dev questions (``us/financebench/questions_dev.jsonl``), one dict per line."""
    path = corpus_root() / "us" / "financebench" / "questions_dev.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def evidence_pages(question: dict) -> set[tuple[str, int]]:
    """A dev question's evidence pages as (doc_name, page): ``evidence_page_num`` is 0-indexed, our pages 1-based."""
    return {(e.get("doc_name") or question["doc_name"], int(e["evidence_page_num"]) + 1) for e in question["evidence"]}


def home_args(description: str | None = None) -> argparse.Namespace:
    """The ``--home`` argument of a bench that reads a built store (default ``.bench/shared``); warnings off."""
    logging.disable(logging.WARNING)
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--home", default=str(REPO / ".bench" / "shared"))
    return ap.parse_args()


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

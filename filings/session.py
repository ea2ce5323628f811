"""One read-only facade shared by a server's request threads (the web viewer, the MCP server).

DuckDB connections and the embedded Qdrant engine are used by one thread at a time: every use of
``session.filings`` holds ``session.lock``. The facade reads the published version of the warehouse and moves
to a newer one between calls (README "Readers and the writer"): a server never blocks an ingest, and sees
each document once it is published.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path

import pandas as pd

from filings.api import Filings


class ReadSession:
    def __init__(self, home: str | Path | None = None):
        self.filings = Filings(home, read_only=True)
        self.home = self.filings.home
        self.lock = threading.RLock()

    def close(self) -> None:
        with self.lock:
            self.filings.close()


def records(frame: pd.DataFrame) -> list[dict]:
    """A facade frame as plain rows: missing values as None (never NaN), Decimal values kept."""
    rows = frame.to_dict("records")
    for row in rows:
        for key, value in row.items():
            if isinstance(value, float) and math.isnan(value):
                row[key] = None
    return rows

"""How the column-table reader (router/part_columns.py) holds over every stored page of a warehouse.

For each page, each line the reader takes for a row of column headings, each heading as the part asked and each year
of its years line, and each metric whose row the table prints: the reading, and where the year's columns end in a total
column, whether the row's cells add up to it. The reader refuses a table that does not add up, so the figure printed
here is how many tables it reads, how many of those a total column confirms, and how many a total column rejected
(the headings or columns mis-split, or a table with columns the row leaves out).

    python bench/part_columns.py --home DIR [--show 20]   (DIR: a warehouse home, e.g. "$FILINGS_HOME")
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import duckdb  # noqa: E402

from mappings.vocabulary import simplified_in_place  # noqa: E402
from router import part_columns as pc  # noqa: E402
from router.fallback import labels_of  # noqa: E402

METRICS = ("revenue", "segment_result", "gross_profit", "operating_income", "total_assets", "net_income")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", required=True)
    ap.add_argument("--show", type=int, default=10, help="readings to print, sampled")
    args = ap.parse_args()
    con = duckdb.connect(str(Path(args.home) / "warehouse.duckdb"), read_only=True)
    pages = con.execute("SELECT d.doc_name, p.page, p.text FROM pages p JOIN documents d USING (document_id) "
                        "WHERE d.market IN ('CN', 'HK')").fetchall()
    tally: Counter = Counter()
    readings = []
    for doc, page, text in pages:
        text = simplified_in_place(text or "")
        lines = text.split("\n")
        for at, line in enumerate(lines):
            if not (2 <= len(line.split()) <= 16) or pc._NUMBERS.search(re.sub(r"(?:19|20)\d\d", "", line)):
                continue
            for heading in dict.fromkeys(line.split()):
                name = re.compile(re.escape(heading), re.I)
                layout = pc._layout(lines, at, name)
                if layout is None:
                    continue
                tally["heading layouts"] += 1
                _, by_year, _, _, by_column = layout
                totals = any(pc._TOTALS.match(h.split()[-1]) for h in by_column)
                for metric in METRICS:
                    for year in dict.fromkeys(y for y in by_year if y):
                        reading = pc.column_reading(text, name, labels_of(metric), {year})
                        if reading is None:
                            continue
                        tally["readings"] += 1
                        tally["readings confirmed by a total column" if totals else "readings without a total column"] += 1
                        readings.append((doc, page, metric, reading))
                    # the same table's row refused by its totals: the reader gives nothing for it
                    span = pc._read(text, name, labels_of(metric), set(by_year))
                    if span is None and totals and any(pc._row(lines[r], labels_of(metric), len(by_column))
                                                       for r in range(at + 1, min(len(lines), at + 20))):
                        tally["rows refused: cells do not add up to the total"] += 1
    print(f"pages scanned: {len(pages):,}")
    for key, n in tally.most_common():
        print(f"{key}: {n:,}")
    random.seed(0)
    for doc, page, metric, r in random.sample(readings, min(args.show, len(readings))):
        print(f"  {doc} p{page} {metric}: {r.heading} {r.year} {r.row!r} = {r.figure} {r.unit}")


if __name__ == "__main__":
    main()

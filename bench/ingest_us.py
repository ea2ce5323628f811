"""US XBRL ingest speed: per filing, arelle's bare load time next to our full ingest (parse + DuckDB).

    .venv/bin/python bench/ingest_us.py

Bare load = arelle Session.run with the offline options of DESIGN.md section 7 and nothing else.
Full ingest = warehouse.ingest.ingest_one into a fresh DuckDB file (sha256, arelle, facts, labels,
metrics, one transaction). Each figure is the best of 3 runs to damp noise on a shared 2-core machine.
Target: median ratio (ingest / bare load) <= 1.5.
"""

from __future__ import annotations

import logging
import tempfile
import time
from pathlib import Path

from common import corpus_root, median, print_table

import parsers
from warehouse import ingest, store

RUNS = 3


def arelle_bare_load(path: Path) -> float:
    from arelle.api.Session import Session
    from arelle.RuntimeOptions import RuntimeOptions

    t0 = time.perf_counter()
    with Session() as session:
        session.run(RuntimeOptions(entrypointFile=str(path), internetConnectivity="offline", keepOpen=True,
                                   disablePersistentConfig=True), logFileName="logToBuffer")
    return time.perf_counter() - t0


def our_ingest(path: Path) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        con = store.connect(tmp)
        try:
            result = ingest.ingest_one(con, path)
        finally:
            con.close()
    if result.status != "added":
        raise SystemExit(f"{path}: {result.reason}")
    return result.seconds, result.facts


def main() -> None:
    logging.disable(logging.CRITICAL)
    root = corpus_root() / "us"
    files = [p for d in ("ixbrl", "xbrl") for p in sorted((root / d).rglob("*")) if p.is_file() and parsers.detect(p)]
    rows, ratios = [], []
    for path in files:
        bare = min(arelle_bare_load(path) for _ in range(RUNS))
        runs = [our_ingest(path) for _ in range(RUNS)]
        ours, facts = min(r[0] for r in runs), runs[0][1]
        ratios.append(ours / bare)
        rows.append([path.name, f"{path.stat().st_size / 1e6:.2f}", bare, ours, facts, f"{facts / ours:,.0f}",
                     f"{ours / bare:.2f}"])
    print_table(["file", "MB", "arelle load s", "our ingest s", "facts", "facts/s", "ratio"], rows,
                title="US XBRL ingest vs arelle bare load (best of 3)")
    print(f"filings: {len(files)}  median ratio ingest/arelle-load: {median(ratios):.2f}  (target <= 1.5)")
    print(f"total ingest s: {sum(float(r[3]) for r in rows):.2f}")


if __name__ == "__main__":
    main()

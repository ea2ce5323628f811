"""Bench: arelle's bare offline load vs our parsers.us_xbrl.parse() for every US XBRL corpus filing.

Bare load = ``Session().run(RuntimeOptions(entrypointFile=f, internetConnectivity='offline', keepOpen=True,
disablePersistentConfig=True), logFileName="logToBuffer")`` (DESIGN.md section 7), nothing else.
Each figure is the median of REPEAT runs in this process (arelle imported once beforehand).

    python bench/bench_xbrl_parse.py [CORPUS]      # CORPUS defaults to $FILINGS_CORPUS or ../shared/corpus
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arelle.api.Session import Session  # noqa: E402
from arelle.RuntimeOptions import RuntimeOptions  # noqa: E402

from parsers.us_xbrl import is_xbrl, parse  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))


def corpus_dir() -> Path:
    if len(sys.argv) > 1:
        return Path(sys.argv[1])
    env = os.environ.get("FILINGS_CORPUS")
    return Path(env) if env else ROOT.parent / "shared" / "corpus"


def bare_load(path: Path) -> float:
    t = time.perf_counter()
    s = Session()
    s.run(RuntimeOptions(entrypointFile=str(path), internetConnectivity="offline", keepOpen=True,
                         disablePersistentConfig=True), logFileName="logToBuffer")
    dt = time.perf_counter() - t
    s.close()
    return dt


def main() -> None:
    us = corpus_dir() / "us"
    files = sorted(p for sub in ("ixbrl", "xbrl") for p in (us / sub).glob("*/*") if p.is_file() and is_xbrl(p))
    bare_load(files[0])  # warm imports
    parse(files[0])
    print(f"{'filing':28} {'bare s':>7} {'parse s':>8} {'facts':>6} {'facts/s':>8} {'ratio':>6}")
    ratios = []
    for f in files:
        bare = statistics.median(bare_load(f) for _ in range(REPEAT))
        times = []
        n = 0
        for _ in range(REPEAT):
            t = time.perf_counter()
            doc = parse(f)
            times.append(time.perf_counter() - t)
            n = len(doc.facts)
        ours = statistics.median(times)
        ratio = ours / bare
        ratios.append(ratio)
        print(f"{f.name:28} {bare:7.3f} {ours:8.3f} {n:6d} {n / ours:8.0f} {ratio:6.2f}")
    print(f"median ratio parse/bare: {statistics.median(ratios):.2f} over {len(files)} filings (target <= 1.5)")


if __name__ == "__main__":
    main()

"""Ingest one corpus folder with each executor: the process pool at 1 and 2 workers, local Ray at 1 and 2 CPUs.

Each run is `filings ingest FOLDER --no-index` into a fresh temporary home, in its own process, so wall time
includes start-up (imports; for Ray, starting the local instance) and the driver's peak RSS is that run's
alone (``ru_maxrss`` of the CLI process, written at its exit; parse workers are other processes). "same rows"
compares documents, pages, facts and financial_metrics with the first process-pool run.

    python bench/cluster_run.py [FOLDER]      # default: ../shared/corpus/cn

Times on a shared 2-core machine are noisy: run it when nothing else is busy (check `uptime`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import REPO, corpus_root, print_table

from warehouse import store  # noqa: E402  (common puts the repo on sys.path)

RUNS = [("process pool", 1, None), ("process pool", 2, None), ("local Ray", 1, "local-ray"),
        ("local Ray", 2, "local-ray")]

CHILD = """
import atexit, json, os, resource, sys
sys.path.insert(0, {repo!r})
atexit.register(lambda: open(os.environ["BENCH_RSS_FILE"], "w").write(
    json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)))
sys.argv = ["filings"] + sys.argv[1:]
from filings.cli import main
main()
"""


def run(folder: Path, home: Path, workers: int, cluster: str | None) -> tuple[float, float]:
    """(wall seconds, driver peak RSS MiB) of one `filings ingest --no-index` run."""
    rss_file = home.with_suffix(".rss")
    args = [sys.executable, "-c", CHILD.format(repo=str(REPO)), "ingest", str(folder), "--no-index", "--json",
            "--home", str(home)] + (["--cluster", cluster] if cluster else [])
    env = {**os.environ, "FILINGS_WORKERS": str(workers), "BENCH_RSS_FILE": str(rss_file)}
    t0 = time.perf_counter()
    res = subprocess.run(args, capture_output=True, text=True, env=env, timeout=7200)
    wall = time.perf_counter() - t0
    if res.returncode not in (0, 1):
        sys.exit(f"ingest failed ({res.returncode}): {res.stderr.strip()[-2000:]}")
    return wall, json.loads(rss_file.read_text())


def rows(home: Path) -> dict:
    con = store.connect(home, read_only=True)
    try:
        return store.snapshot(con)
    finally:
        con.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=None)
    folder = (ap.parse_args().folder or corpus_root() / "cn").resolve()
    table, reference = [], None
    with tempfile.TemporaryDirectory(prefix="cluster-bench-") as tmp:
        for i, (engine, workers, cluster) in enumerate(RUNS):
            home = Path(tmp) / f"home{i}"
            wall, rss = run(folder, home, workers, cluster)
            got = rows(home)
            reference = reference or got
            docs = len(got["documents"])
            table.append([engine, workers, docs, len(got["pages"]), round(wall, 1), round(wall / max(docs, 1), 2), round(rss),
                          "yes" if got == reference else "NO"])
    print_table(["executor", "workers", "documents", "pages", "wall s", "s / document", "driver peak RSS MiB",
                 "same rows as pool (1)"], table, title=f"filings ingest --no-index {folder}")


if __name__ == "__main__":
    main()

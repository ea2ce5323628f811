"""Reads while an ingest writes (issue 13 "readers never blocked", issue 17 item 4).

    python bench/concurrent_reads.py [--corpus ../shared/corpus/cn] [--reads 100] [--concurrent 10] [--index]

1. A fresh home is seeded with two A-share reports, indexed (so that search and ask have passages).
2. `filings ingest --no-index CORPUS` starts (`--index`: with embeddings). Meanwhile five reader processes,
   one per kind (metrics, companies, sql, search, ask), each with one long-lived read-only ``Filings`` (it
   moves to each newly published version), make ``--reads`` reads each and time them; then
   ``--concurrent`` `filings search` and as many `filings sql` processes are started at once: their
   successes are counted.
3. When the ingest has finished, the same reads again on the idle warehouse: p50 / p95 latency, idle vs
   during the ingest.

Embeddings use the tests' hashing provider unless FILINGS_EMBED_MODEL_A is set (the figures are about
concurrency, not retrieval). Timing figures depend on the machine's load: say what else ran.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.common import corpus_root, print_table  # noqa: E402

SEED = ["600080_jinhuagufen_2024_annual.pdf", "600080_jinhuagufen_2025_q1.pdf"]
KINDS = ("metrics", "companies", "sql", "search", "ask")

READER = r"""
import json, sys, time
from filings import Filings
kind, n, home = sys.argv[1], int(sys.argv[2]), sys.argv[3]
calls = {
    "metrics": lambda f: f.metrics("600080"),
    "companies": lambda f: f.companies(),
    "sql": lambda f: f.sql("SELECT market, count(*) AS n, sum(pages) AS pages FROM documents GROUP BY market"),
    "search": lambda f: f.search("营业收入 增长 原因", k=5),
    "ask": lambda f: f.ask("金花股份 2024 营业收入是多少"),
}
out = []
with Filings(home) as f:
    for i in range(n):
        t0 = time.time()
        try:
            calls[kind](f)
            ok, err = True, None
        except Exception as exc:
            ok, err = False, f"{type(exc).__name__}: {exc}"[:300]
        out.append({"t0": t0, "s": time.time() - t0, "ok": ok, "err": err})
print(json.dumps(out))
"""


def _env(home: Path) -> dict:
    env = dict(os.environ, FILINGS_HOME=str(home))
    env.setdefault("FILINGS_EMBED_MODEL_A", "hashing@64")
    env.setdefault("FILINGS_EMBED_MODEL_HK", "hashing@64")
    env.setdefault("FILINGS_EMBED_MODEL_US", "hashing@64")
    return env


def _cli(home: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "filings.cli", *args], cwd=REPO, env=_env(home),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _readers(home: Path, reads: int) -> dict[str, list[dict]]:
    procs = {k: subprocess.Popen([sys.executable, "-c", READER, k, str(reads), str(home)], cwd=REPO, env=_env(home),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in KINDS}
    results = {}
    for kind, p in procs.items():
        out, err = p.communicate()
        results[kind] = json.loads(out) if p.returncode == 0 and out.strip() else [
            {"t0": 0, "s": 0, "ok": False, "err": err.strip().splitlines()[-1] if err.strip() else "no output"}]
    return results


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, default=corpus_root() / "cn")
    ap.add_argument("--reads", type=int, default=100)
    ap.add_argument("--concurrent", type=int, default=10)
    ap.add_argument("--index", action="store_true", help="the ingest embeds and indexes too (slower)")
    ap.add_argument("--home", type=Path, default=None)
    args = ap.parse_args()
    home = args.home or Path(tempfile.mkdtemp(prefix="concurrent_reads_"))

    seed = _cli(home, "ingest", *[str(args.corpus / n) for n in SEED])
    _out, err = seed.communicate()
    if seed.returncode != 0:
        sys.exit(f"seeding failed: {err.strip()[-500:]}")

    ingest_args = ["ingest", str(args.corpus)] + ([] if args.index else ["--no-index"])
    t_start = time.time()
    writer = _cli(home, *ingest_args)
    during = _readers(home, args.reads)
    bursts = {}
    for kind, cmd in (("search", ["search", "营业收入", "--json", "--k", "3"]),
                      ("sql", ["sql", "SELECT count(*) AS n FROM documents", "--json"])):
        running_at_start = writer.poll() is None
        procs = [_cli(home, *cmd) for _ in range(args.concurrent)]
        outs = [p.communicate() for p in procs]
        fails = [e.strip().splitlines()[-1] for p, (_o, e) in zip(procs, outs) if p.returncode != 0 and e.strip()]
        bursts[kind] = (sum(p.returncode == 0 for p in procs), len(procs), running_at_start, fails[:3])
    _wout, werr = writer.communicate()
    t_end = time.time()
    idle = _readers(home, args.reads)

    rows = []
    for kind in KINDS:
        dur = [r for r in during[kind] if r["t0"] + r["s"] <= t_end]
        all_during = during[kind]
        ok_during = sum(r["ok"] for r in all_during)
        lat_during = [r["s"] for r in dur if r["ok"]]
        lat_idle = [r["s"] for r in idle[kind] if r["ok"]]
        rows.append([kind, f"{ok_during}/{len(all_during)}", len(dur), f"{sum(r['ok'] for r in idle[kind])}/{len(idle[kind])}",
                     _pct(lat_during, 0.5) * 1000, _pct(lat_during, 0.95) * 1000,
                     _pct(lat_idle, 0.5) * 1000, _pct(lat_idle, 0.95) * 1000])
        errors = [r["err"] for r in all_during + idle[kind] if not r["ok"]]
        if errors:
            print(f"{kind}: {len(errors)} failed read(s), first: {errors[0]}")
    print_table(["kind", "ok during ingest", "done before it ended", "ok idle", "p50 ms during", "p95 ms during",
                 "p50 ms idle", "p95 ms idle"], rows,
                title=f"reads while `filings {' '.join(ingest_args[:1] + ingest_args[2:])} {args.corpus}` ran "
                      f"({t_end - t_start:.0f} s, exit {writer.returncode})")
    for kind, (ok, n, running, fails) in bursts.items():
        print(f"{n} concurrent `filings {kind}` processes {'during the ingest' if running else '(ingest had ended)'}: "
              f"{ok}/{n} succeeded" + (f"; failures: {fails}" if fails else ""))
    from warehouse import versions

    db = versions.current_db(home)
    print(f"published version: {versions.disk_bytes(db) / 1e6:.1f} MB database, "
          f"{versions.disk_bytes(db.parent / versions.QDRANT) / 1e6 if (db.parent / versions.QDRANT).exists() else 0:.1f}"
          f" MB shards; versions kept: {len(list((home / versions.VERSIONS).iterdir()))}, all versions "
          f"{versions.disk_bytes(home / versions.VERSIONS) / 1e6:.1f} MB on disk")
    if writer.returncode not in (0, 1):
        print(f"ingest exit {writer.returncode}: {werr.strip()[-300:]}")


if __name__ == "__main__":
    main()

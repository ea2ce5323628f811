"""Ingest cost at scale: wall time to searchable (every document stored, BM25 units in, published) and to fully
embedded, units embedded per second per market, and the peak memory of the ingest, for one file or a corpus.

    python bench/ingest_scale.py --one ../shared/corpus/cn/600080_jinhuagufen_2024_annual.pdf
    python bench/ingest_scale.py --corpus ../shared/corpus [--home DIR] [--cluster local-ray]

``--one``: three fresh homes, the same file: ``--no-index`` (pages, facts, metrics), ``--keywords-only`` (plus BM25
units) and the full ingest (plus dense vectors), each with an empty embedding cache; prints each wall time and
its ratio to the ``--no-index`` run (after a discarded warm-up run; the median of ``--rounds``). ``--corpus``: one full ingest of the folder into a fresh home (or ``--home``,
kept afterwards for the retrieval and latency benches). Each run is a child process driving the facade;
this process samples the RSS of the child and its parse workers every 0.25 s (peak of the driver alone and of
the whole process tree). Figures only; nothing is asserted. Models: whatever the environment configures
(the defaults unless FILINGS_EMBED_MODEL_* are set), their graphs exported before any timing (``export_models``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import REPO, print_table

CHILD = r"""
import json, sys, time
sys.path.insert(0, {repo!r})
from filings import Filings
mode, home, paths, cluster = sys.argv[1], sys.argv[2], sys.argv[3:-1], sys.argv[-1] or None
t0 = time.perf_counter()
def event(kind, **kw):
    print(json.dumps({{"event": kind, "t": round(time.perf_counter() - t0, 3), **kw}}), flush=True)
kw = {{"cluster": cluster}} if cluster else {{}}
with Filings(home) as f:
    report = f.ingest(*paths, index=mode != "no-index", dense=mode == "full",
                      on_progress=lambda r: event("stored", status=r.status),
                      on_embedded=lambda name: event("embedded", doc=name), **kw)
    units = f.con.execute("SELECT collection, count(*), sum(units) FROM index_state GROUP BY 1").fetchall()
event("done", added=report.count("added"), failed=report.count("failed"), units=units)
"""


def _tree_rss(pid: int) -> tuple[int, int, list[tuple[int, str, int]]]:
    """RSS of the driver, the sum over its process tree, and (pid, name, rss) of each process of the tree."""
    import psutil

    try:
        proc = psutil.Process(pid)
        procs = [(proc.pid, "driver", proc.memory_info().rss)]
        procs += [(c.pid, c.name(), c.memory_info().rss) for c in proc.children(recursive=True)]
        return procs[0][2], sum(p[2] for p in procs), procs
    except psutil.Error:
        return 0, 0, []


def _tree_breakdown(procs: list[tuple[int, str, int]]) -> list[dict]:
    """Each process of the tree at the tree's peak: RSS and PSS (GB). PSS shares a page among the processes that map
    it (forked workers share the driver's copy-on-write pages), so the PSS sum is the tree's real footprint where the
    RSS sum counts a shared page once per process."""
    import psutil

    out = []
    for pid, name, rss in procs:
        try:
            pss = psutil.Process(pid).memory_full_info().pss
        except (psutil.Error, AttributeError):
            pss = 0
        out.append({"pid": pid, "name": name, "rss_gb": round(rss / 2**30, 3), "pss_gb": round(pss / 2**30, 3)})
    return out


def _rss_kinds(pid: int) -> dict[str, float]:
    """The driver's resident memory by kind at a moment (GB): anonymous (heap, arenas, model weights) and the
    rest (file-backed mappings such as memory-mapped segments, and shared memory), from ``smaps_rollup``."""
    try:
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:])
    except (OSError, ValueError):
        return {}
    kb = {k.strip(): int(v.split()[0]) for k, v in fields.items()}
    anon = kb.get("Anonymous", 0)
    return {"anon_gb": round(anon / 2**20, 3), "file_and_shared_gb": round((kb.get("Rss", 0) - anon) / 2**20, 3)}


def run(mode: str, home: Path, paths: list[str], cluster: str | None = None) -> dict:
    cmd = [sys.executable, "-c", CHILD.format(repo=str(REPO)), mode, str(home), *paths, cluster or ""]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = [0, 0, 0.0, 0.0]  # driver, tree, seconds at the driver's peak, seconds at the tree's peak
    kinds: dict[str, float] = {}  # the driver's RSS by kind near its peak
    tree: list[dict] = []  # each process of the tree near the tree's peak

    def sample() -> None:
        while proc.poll() is None:
            own, total, procs = _tree_rss(proc.pid)
            if own > peak[0]:
                if own > peak[0] * 1.02:  # read the breakdown when the peak has grown, not at every byte
                    kinds.update(_rss_kinds(proc.pid))
                peak[0], peak[2] = own, time.perf_counter() - t0
            if total > peak[1]:
                if total > peak[1] * 1.02:
                    tree[:] = _tree_breakdown(procs)
                peak[1], peak[3] = total, time.perf_counter() - t0
            time.sleep(0.25)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    events = [json.loads(line) for line in proc.stdout if line.startswith("{")]
    proc.wait()
    sampler.join()
    if proc.returncode:
        sys.exit(f"{mode} ingest failed:\n{proc.stderr.read()[-3000:]}")
    stored = [e["t"] for e in events if e["event"] == "stored"]
    embedded = [e["t"] for e in events if e["event"] == "embedded"]
    done = events[-1]
    return {"mode": mode, "wall": time.perf_counter() - t0, "searchable": max(stored) if stored else None,
            "embedded_docs": len(embedded), "dense_s": (embedded[-1] - max(stored)) if embedded and stored else 0.0,
            "added": done["added"], "failed": done["failed"], "units": done["units"],
            "driver_peak_gb": peak[0] / 2**30, "tree_peak_gb": peak[1] / 2**30,
            "driver_peak_at": _phase(peak[2], events), "driver_peak_kinds": kinds,
            "tree_peak_at": _phase(peak[3], events), "tree_peak_processes": tree,
            "tree_peak_pss_gb": round(sum(p["pss_gb"] for p in tree), 3)}


def _phase(t: float, events: list[dict]) -> str:
    """Where a moment of the run falls: "parse" (documents being stored), "dense" (vectors being filled) or
    "end" (after the last event), with the document event just before it."""
    before = [e for e in events if e["t"] <= t]
    last = before[-1] if before else {"event": "start"}
    if last["event"] == "done" or (before and before is events):
        return f"{t:.0f} s, end"
    stored = [e for e in events if e["event"] == "stored"]
    phase = "parse" if stored and t <= stored[-1]["t"] else "dense"
    return f"{t:.0f} s, {phase} (after {last['event']} {last.get('doc') or last.get('status') or ''})".strip()


def _prose_units(home: Path) -> dict[str, int]:
    """Prose units (the ones embedded) per collection, counted in the published shards."""
    from filings import Filings

    with Filings(home, read_only=True) as f:
        return {name: f.index.engine.count(name) - f.index.engine.count(name, {"kind": "table"})
                for _m, name in f.index.collections()}


def one(path: str, rounds: int = 2) -> None:
    """A discarded warm-up ``--no-index`` run (first imports, jieba's dictionary cache, a cold page cache), then
    ``rounds`` rounds of the three modes; each mode's figure is its median round (the lower one of an even count)."""
    with tempfile.TemporaryDirectory(prefix="scale-warmup-") as tmp:
        print(f"  warm-up (discarded): {run('no-index', Path(tmp), [path])['wall']:.1f}s", flush=True)
    results: dict[str, list[dict]] = {}
    for k in range(rounds):
        for mode in ("no-index", "keywords-only", "full"):
            with tempfile.TemporaryDirectory(prefix=f"scale-{mode}-") as tmp:
                r = run(mode, Path(tmp), [path])
                r["prose"] = sum(_prose_units(Path(tmp)).values()) if mode == "full" else 0
            results.setdefault(mode, []).append(r)
            print(f"  round {k + 1} {mode}: {r['wall']:.1f}s", flush=True)
    rows = []
    base = None
    for mode, rs in results.items():
        r = sorted(rs, key=lambda x: x["wall"])[(len(rs) - 1) // 2]
        base = base or r["wall"]
        rows.append([mode, r["wall"], r["wall"] / base, r["dense_s"], r["prose"] or "-",
                     (r["prose"] / r["dense_s"]) if r["dense_s"] else "-", r["driver_peak_gb"], r["tree_peak_gb"]])
    print_table(["mode", "wall s", "x no-index", "dense s", "prose units", "units/s", "driver peak GB",
                 "tree peak GB"], rows, title=f"one document: {Path(path).name} (median of {rounds} rounds)")


def corpus(folder: str, home: str | None, cluster: str | None) -> None:
    target = Path(home) if home else Path(tempfile.mkdtemp(prefix="scale-corpus-"))
    r = run("full", target, [folder], cluster)
    prose = _prose_units(target)
    print(json.dumps({k: v for k, v in r.items()}, default=str, indent=1))
    print_table(["documents", "failed", "to searchable s", "dense s", "wall s", "prose units", "units/s (dense)",
                 "driver peak GB", "tree peak GB (RSS sum)", "tree at its peak GB (PSS sum)"],
                [[r["added"], r["failed"], r["searchable"], r["dense_s"], r["wall"], sum(prose.values()),
                  sum(prose.values()) / r["dense_s"] if r["dense_s"] else "-", r["driver_peak_gb"],
                  r["tree_peak_gb"], r["tree_peak_pss_gb"]]], title=f"full ingest of {folder} into {target}")
    print("prose units per collection:", prose)


def export_models() -> None:
    """Model graphs are exported from the bundled weights once per machine (vectorstore.onnx_export / e5_onnx), into
    one model cache (``FILINGS_MODEL_CACHE``, here .bench/models unless set): not part of any ingest timed here
    unless ``--first-run`` (an empty model cache, as on a new machine: the ingest exports them first)."""
    os.environ.setdefault("FILINGS_MODEL_CACHE", str(REPO / ".bench" / "models"))
    code = ("import sys; sys.path.insert(0, {repo!r}); from vectorstore.embeddings import model_for_market, "
            "provider_for; [getattr(p, 'prepare', lambda: None)() for p in "
            "(provider_for(model_for_market(m)) for m in ('US', 'A', 'HK'))]").format(repo=str(REPO))
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one", help="one file: no-index vs keywords-only vs full, fresh homes")
    ap.add_argument("--rounds", type=int, default=2, help="with --one: rounds of the three modes (median kept)")
    ap.add_argument("--corpus", help="a folder: one full ingest")
    ap.add_argument("--home", help="with --corpus: the home to build (kept)")
    ap.add_argument("--cluster", help="with --corpus: where parsing runs (see `filings ingest --cluster`)")
    ap.add_argument("--first-run", action="store_true",
                    help="an empty model cache (a new machine): the timed ingest exports the model graphs itself")
    a = ap.parse_args()
    if a.first_run:
        os.environ["FILINGS_MODEL_CACHE"] = tempfile.mkdtemp(prefix="filings-models-")
    else:
        export_models()
    if a.one:
        one(a.one, a.rounds)
    elif a.corpus:
        corpus(a.corpus, a.home, a.cluster)
    else:
        ap.error("give --one FILE or --corpus DIR")


if __name__ == "__main__":
    main()

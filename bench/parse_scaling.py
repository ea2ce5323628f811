"""Parse time against input size for plain-text transcripts (1, 2, 5, 10 MB), and the memory-bomb PDF.

Two transcript shapes, generated in a temporary folder:
* ``calls``: real plain-text calls of the corpus (../shared/corpus/transcripts/*.txt) joined end to end;
* ``exchanges``: one call of short analyst exchanges (the worst case for a parser that scans the whole call
  once per exchange: issue 17 measured 2 MB 25 s, 5 MB 102 s, 10 MB > 2 min before the fix).
Each file is parsed in a fresh process (``parsers.parse``), so times and peak RSS are that parse's alone.
The memory-bomb PDF is one 14,400 x 14,400 pt page showing an image and no text (issue 17: > 10 GB at 170 dpi).

    python bench/parse_scaling.py [--sizes 1,2,5,10]

Times on a shared 2-core machine are noisy: read the ratio between sizes (linear: ~2x per doubling).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from common import REPO, corpus_root, print_table

sys.path.insert(0, str(REPO / "tests" / "hostile"))

from hostile_files import exchanges_transcript, image_page_pdf  # noqa: E402

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {repo!r})
import parsers
from schema.errors import FilingsError
t = time.perf_counter()
try:
    doc = parsers.parse(sys.argv[1]); outcome = f"{{len(doc.pages)}} pages"
    note = next((w for w in doc.warnings if "OCR" in w), "")
except FilingsError as exc:
    outcome, note = "refused", str(exc).split(": ", 1)[-1]
print(json.dumps({{"seconds": time.perf_counter() - t, "outcome": outcome, "note": note,
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def measure(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD.format(repo=str(REPO)), str(path)], capture_output=True,
                         text=True, timeout=3600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def calls_transcript(path: Path, megabytes: float) -> Path:
    texts = [p.read_text(encoding="utf-8") for p in sorted((corpus_root() / "transcripts").glob("*.txt"))]
    target = int(megabytes * 1024 * 1024)
    out, n, i = [], 0, 0
    while n < target:
        out.append(texts[i % len(texts)])
        n += len(out[-1]) + 1
        i += 1
    path.write_text(" ".join(out)[:target], encoding="utf-8")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,2,5,10", help="transcript sizes in MB")
    args = ap.parse_args()
    sizes = [float(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        for shape, make in (("calls", calls_transcript), ("exchanges", exchanges_transcript)):
            base = None
            for mb in sizes:
                path = make(tmp_path / f"EX_2024_Q4_{shape}_{mb:g}.txt", mb)
                r = measure(path)
                base = base or r["seconds"] / mb
                rows.append([shape, f"{mb:g} MB", r["outcome"], r["seconds"], r["seconds"] / mb,
                             f"{r['seconds'] / mb / base:.2f}", f"{r['rss_mib']:.0f}"])
        bomb = image_page_pdf(tmp_path / "bomb.pdf", size_pt=14_400, image_px=(400, 400))
        r = measure(bomb)
        rows.append(["memory-bomb PDF", f"{bomb.stat().st_size} B", r["outcome"], r["seconds"], "", "",
                     f"{r['rss_mib']:.0f}"])
        print_table(["input", "size", "outcome", "seconds", "s per MB", "vs first", "peak RSS MiB"], rows,
                    title="parse time against size (fresh process per file)")
        print(f"memory-bomb PDF: {r['note']}")


if __name__ == "__main__":
    main()

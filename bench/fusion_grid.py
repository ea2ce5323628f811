"""The fusion-weight grid of the tuning protocol: FinanceBench dev evidence-page R@5 / R@20 in the shared store
(query filters, as `filings search`) for every setting of ``router.search.FUSION_WEIGHTS`` on a small grid, per half.

    .venv/bin/python bench/fusion_grid.py --home DIR      # a warehouse holding the FinanceBench PDFs

The rule that picks a setting is fixed before the checking half is looked at: the best tuning-half R@5 among the
settings that lose at most one tuning question at R@20 against the current weights. The checking half is printed
for every setting so that the choice can be audited, never to choose. Figures only; nothing is asserted."""

from __future__ import annotations

import itertools

from common import evidence_pages, financebench_dev, home_args, print_table
from financebench_retrieval import split

import router.search as search
from filings import Filings

GRID = {"dense": (0.25, 0.5, 1.0), "bm25": (0.5, 1.0), "bm25_tables": (0.5, 1.0, 1.5), "statement": (1.0, 1.5, 2.5)}


def recall(f: Filings, questions: list[dict], halves: dict[str, str]) -> dict[str, tuple[float, float]]:
    got: dict[str, list[tuple[bool, bool]]] = {"tuning": [], "checking": []}
    for q in questions:
        evidence = evidence_pages(q)
        ranked = [(h["doc_name"], h["page"]) for h in f.search(q["question"], k=20)["hits"]]
        first = next((i for i, hit in enumerate(ranked) if hit in evidence), None)
        got[halves[q["company"]]].append((first is not None and first < 5, first is not None))
    return {h: (sum(a for a, _ in v) / len(v), sum(b for _, b in v) / len(v)) for h, v in got.items()}


def main() -> None:
    args = home_args()
    questions = financebench_dev()
    halves = split(questions)
    current = dict(search.FUSION_WEIGHTS)
    rows = []
    with Filings(args.home, read_only=True) as f:
        base = recall(f, questions, halves)
        for values in itertools.product(*GRID.values()):
            search.FUSION_WEIGHTS.update(dict(zip(GRID, values)))
            r = recall(f, questions, halves)
            rows.append([*values, *r["tuning"], *r["checking"]])
            print(values, r, flush=True)
    search.FUSION_WEIGHTS.update(current)
    n_tuning = sum(h == "tuning" for h in (halves[q["company"]] for q in questions))
    eligible = [r for r in rows if r[5] >= base["tuning"][1] - 1.0 / n_tuning - 1e-9]
    pick = max(eligible, key=lambda r: (r[4], r[5]))
    print_table([*GRID, "tuning R@5", "tuning R@20", "checking R@5", "checking R@20"],
                [[*r[:4], *(f"{x:.3f}" for x in r[4:])] for r in rows], title="fusion weights, per half")
    print(f"current {current}: tuning R@5 / R@20 {base['tuning'][0]:.3f} / {base['tuning'][1]:.3f}, checking "
          f"{base['checking'][0]:.3f} / {base['checking'][1]:.3f}")
    print(f"rule's pick: {dict(zip(GRID, pick[:4]))}: tuning {pick[4]:.3f} / {pick[5]:.3f}, checking "
          f"{pick[6]:.3f} / {pick[7]:.3f}")


if __name__ == "__main__":
    main()

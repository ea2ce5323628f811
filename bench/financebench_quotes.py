"""Which pages an answer quotes: FinanceBench evidence pages among the passages the search route cites.

    .venv/bin/python bench/financebench_quotes.py [--home DIR]

For each dev question (``questions_dev.jsonl``), the search route's evidence (``router.search_route``: the one
search pipeline, then the passages quoted) is asked for with the question's own plan and filters, whatever route
the question would take; a question counts when a quoted passage is on one of its evidence pages. Printed for
the tuning and the checking half (``financebench_retrieval.split``) and for the settings of the one-company
look (``LOOK``: 1 quotes the k best-ranked passages; 2 looks at 2k and quotes the best-ranked half of k and the
best-answering rest). The store is the one `bench/financebench_retrieval.py` builds (``--home``).
"""

from __future__ import annotations

from collections import defaultdict

from common import evidence_pages, financebench_dev, home_args, print_table
from financebench_retrieval import split

from filings import Filings
from router import search_route
from router.search import filters_for

LOOKS = (1, 2, 3)


def main() -> None:
    args = home_args()
    questions = financebench_dev()
    halves = split(questions)
    default = search_route.LOOK
    found: dict[tuple[int, str], list[bool]] = defaultdict(list)
    with Filings(args.home) as f:
        router = f.router
        for look in LOOKS:
            search_route.LOOK = look
            for q in questions:
                evidence = evidence_pages(q)
                plan = router.planner.plan(q["question"])
                passages = router.searcher(plan, filters_for(plan))
                cited = {(p.source["doc_name"], p.source["page"]) for p in passages}
                for half in (halves[q["company"]], "all"):
                    found[(look, half)].append(bool(cited & evidence))
    search_route.LOOK = default
    rows = [[f"{look}{' (default)' if look == default else ''}", half, len(found[(look, half)]),
             f"{sum(found[(look, half)]) / len(found[(look, half)]):.3f}"]
            for look in LOOKS for half in ("tuning", "checking", "all")]
    print_table(["LOOK", "half", "n", "evidence page quoted"], rows,
                title="FinanceBench dev: evidence pages among the passages the search route quotes")


if __name__ == "__main__":
    main()

"""The paraphrase grid (tests/paraphrase_grid.py) over a warehouse of filings with different fiscal years
(Apple September, Nvidia / Walmart / Home Depot January, December filers, A-shares, HK March and December
years): every generated question must give exactly the expected plan (company, period, metric) and go to SQL: each asks
for one figure, and no metric's name may read as a question word ("attributable" is not "why")."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import ingested_home
from filings import Filings
from paraphrase_grid import grid
from router.plan import Planner

DOCS = [("us", "ixbrl"), ("cn", "600080_jinhuagufen_2024_annual.pdf"), ("cn", "603259_yaomingkangde_2025_interim.pdf"),
        ("hk", "0328_alco_2025_annual-results.pdf"), ("hk", "1741_riying_2021_annual.pdf")]


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    with Filings(ingested_home(tmp_path_factory, "grid_home", DOCS), read_only=True) as f:
        yield f.con


def _plan_key(plan):
    periods = [("relative", p.relative) if p.relative else (p.fiscal_year, p.fiscal_period) for p in plan.periods]
    if plan.last_n_years:
        periods.append(("last_n", plan.last_n_years))
    return [c.company_id for c in plan.companies], plan.metrics, periods


def test_paraphrase_grid(con):
    cases = grid(con)
    planner = Planner(con)
    failures = []
    for case in cases:
        plan = planner.plan(case.question)
        companies, metrics, periods = _plan_key(plan)
        fiscal = [p.fiscal for p in plan.periods]
        ok = companies == [case.company_id] and metrics == [case.metric] and periods == [case.period] \
            and plan.route == "sql"
        if ok and case.fiscal is not None:
            ok = fiscal == [case.fiscal]
        if not ok:
            failures.append((case, (companies, metrics, periods, fiscal, plan.route)))
    kinds = Counter("company" if f[1][0] != [f[0].company_id] else "metric" if f[1][1] != [f[0].metric] else
                    "route" if f[1][4] != "sql" else "period" for f in failures)
    print(f"\nparaphrase grid: {len(cases)} cases, plan accuracy {1 - len(failures) / len(cases):.4f}; "
          f"failures by part: {dict(kinds)}")
    for case, got in failures[:40]:
        print(f"  {case.question!r}: expected {case.company_id} {case.metric} {case.period} fiscal={case.fiscal}; got {got}")
    assert len(cases) >= 5000
    assert not failures, f"{len(failures)} of {len(cases)} grid cases plan wrongly (first: {failures[0]})"


def test_comparison_grid_pairs_each_company_with_its_year(con):
    from paraphrase_grid import comparison_grid

    cases = comparison_grid(con)
    planner = Planner(con)
    failures = []
    for case in cases:
        plan = planner.plan(case.question)
        got = ([c.company_id for c in plan.companies], plan.metrics,
               [(p.fiscal_year, p.fiscal_period) for p in plan.periods], plan.company_periods, plan.route)
        want = (list(case.companies), [case.metric], [(y, "FY") for y in case.years],
                {case.companies[0]: [0], case.companies[1]: [1]}, "sql")
        if got != want:
            failures.append((case.question, got))
    print(f"\ncomparison grid: {len(cases)} cases, plan accuracy {1 - len(failures) / max(len(cases), 1):.4f}")
    for q, got in failures[:20]:
        print(f"  {q!r}: got {got}")
    assert len(cases) >= 500
    assert not failures, f"{len(failures)} of {len(cases)} comparison cases plan wrongly (first: {failures[0]})"

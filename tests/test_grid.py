"""The paraphrase grid (tests/paraphrase_grid.py) over a warehouse of filings with different fiscal years
(Apple September, Nvidia / Walmart / Home Depot January, December filers, A-shares, HK March and December
years): every generated question must give exactly the expected plan (company, period, metric) and go to SQL: each asks
for one figure, and no metric's name may read as a question word ("attributable" is not "why")."""

from __future__ import annotations

import re
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


def _failures(con, cases, got_of, want_of) -> list[tuple]:
    """(case, got, expected) for every generated case whose plan differs from the expected one."""
    planner = Planner(con)
    out = []
    for case in cases:
        got, want = got_of(planner.plan(case.question), case), want_of(case)
        if got != want:
            out.append((case, got, want))
    return out


def test_paraphrase_grid(con):
    cases = grid(con)
    failures = _failures(
        con, cases,
        lambda plan, case: (*_plan_key(plan), plan.route,
                            [p.fiscal for p in plan.periods] if case.fiscal is not None else None),
        lambda case: ([case.company_id], [case.metric], [case.period], "sql",
                      [case.fiscal] if case.fiscal is not None else None))
    parts = ("company", "metric", "period", "route", "fiscal")
    kinds = Counter(next(part for part, g, w in zip(parts, got, want) if g != w) for _, got, want in failures)
    print(f"\nparaphrase grid: {len(cases)} cases, plan accuracy {1 - len(failures) / len(cases):.4f}; "
          f"failures by part: {dict(kinds)}")
    for case, got, want in failures[:40]:
        print(f"  {case.question!r}: expected {want}; got {got}")
    assert len(cases) >= 5000
    assert not failures, f"{len(failures)} of {len(cases)} grid cases plan wrongly (first: {failures[0]})"


def test_comparison_grid_pairs_each_company_with_its_year(con):
    from paraphrase_grid import comparison_grid

    cases = comparison_grid(con)
    failures = _failures(
        con, cases,
        lambda plan, case: ([c.company_id for c in plan.companies], plan.metrics,
                            [(p.fiscal_year, p.fiscal_period) for p in plan.periods], plan.company_periods, plan.route),
        lambda case: (list(case.companies), [case.metric], [(y, "FY") for y in case.years],
                      {case.companies[0]: [0], case.companies[1]: [1]}, "sql"))
    print(f"\ncomparison grid: {len(cases)} cases, plan accuracy {1 - len(failures) / max(len(cases), 1):.4f}")
    for case, got, want in failures[:20]:
        print(f"  {case.question!r}: expected {want}; got {got}")
    assert len(cases) >= 500
    assert not failures, f"{len(failures)} of {len(cases)} comparison cases plan wrongly (first: {failures[0]})"


def test_a_change_on_the_year_before_is_asked_by_every_growth_phrase_that_names_it(con):
    """Every growth phrase of the vocabulary that names the earlier year ("compared with the previous year", 与上年相比,
    上年同期) asks for the change on it: each is appended to grid questions of either language; the plan keeps the
    company, metric and period and asks for the change (the figure of the year before and the change are answered)."""
    from mappings.vocabulary import words

    phrases = [w for w in words("growth").phrases if re.search(r"\byears?\b|年", w) and not w.startswith("re:")]
    assert len(phrases) >= 10
    cases = grid(con)
    en = [c for c in cases if not re.search(r"[\u4e00-\u9fff]", c.question)][::211]
    zh = [c for c in cases if re.search(r"[\u4e00-\u9fff]", c.question)][::211]
    planner = Planner(con)
    failures = []
    for i, phrase in enumerate(phrases * 3):
        chinese = bool(re.search(r"[\u4e00-\u9fff]", phrase))
        case = (zh if chinese else en)[i % len(zh if chinese else en)]
        q = (f"{case.question.rstrip('?？')}，{phrase}相比如何？" if chinese
             else f"{case.question.rstrip('?')}: how did it compare with the {phrase}?")
        plan = planner.plan(q)
        if not plan.growth or _plan_key(plan) != ([case.company_id], [case.metric], [case.period]):
            failures.append((q, plan.growth, _plan_key(plan)))
    print(f"\ngrowth phrases: {len(phrases) * 3} cases, {len(failures)} failures")
    assert not failures, failures[:5]

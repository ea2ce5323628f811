"""A line item the vocabulary has no metric for, answered from a filing's own XBRL fact ("Netflix marketing expense
for the quarter ended September 30, 2010": us-gaap:MarketingExpense, 81,238,000 USD, 2010-07-01 to 2010-09-30, in
nflx-20100930.xml). The warehouse stores every fact of an XBRL or inline-XBRL filing and of SEC companyfacts (table
``facts``, cited by its locator); a fact answers when its label, or its concept's name read as words
("MarketingExpense": marketing expense), is the question's line item in the form printed labels are compared in, it is
the group's (consolidated, no dimension), and its period is an asked one (a quarter is a quarter, never the year to
date). A filing's own fact comes before the same fact as companyfacts repeats it. Without such a fact the answer is
as before: a statement row read from a PDF, else the search route."""

from __future__ import annotations

import re

import duckdb

from router.statement_items import (Item, ItemAnswer, as_asked, choose, exact_key, fact_period, item_key, item_line,
                                    item_row, missing_periods, wanted)
from schema.models import QueryPlan

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def concept_words(concept: str) -> str:
    """A concept's local name as words: "us-gaap:MarketingExpense" -> "marketing expense"."""
    return _CAMEL.sub(" ", concept.rsplit(":", 1)[-1]).casefold()


def fact_items(con: duckdb.DuckDBPyConnection, company_id: str, labels: list[str]) -> list[tuple[Item, str, str]]:
    """(item, concept, locator) for each of the company's group facts whose label or concept is one of ``labels``."""
    exact = {exact_key(w) for w in labels if w} - {""}
    keys = {item_key(w) for w in labels if w} - {""}
    if not exact:
        return []
    rows = con.execute(
        "SELECT f.document_id, d.doc_name, d.company_id, d.stock_code, d.market, d.accounting_standard, f.label, "
        "f.concept, f.value, f.value_text, f.unit, f.period_start, f.period_end, f.period_type, f.locator, d.form, "
        "d.fiscal_year_end_month, d.period_end, d.fiscal_period FROM facts f JOIN documents d USING (document_id) "
        "WHERE d.company_id = ? AND f.page IS NULL AND f.locator IS NOT NULL AND f.consolidated "
        "AND f.dimensions IS NULL AND f.value IS NOT NULL AND f.period_end IS NOT NULL", [company_id]).fetchall()
    out = []
    for (doc_id, doc_name, cid, code, market, std, label, concept, value, text, unit, start, end, kind, locator, form,
         fye, doc_end, doc_period) in rows:
        names = [n for n in (label, concept_words(concept or "")) if n]
        if not any(exact_key(n) in exact or item_key(n) in keys for n in names) or (unit and "/" in unit):
            continue
        period = fact_period(kind, start, end, fye, market, doc_end, doc_period)
        if period is None:
            continue
        own = form != "companyfacts" and doc_end == end
        item = Item(doc_id, doc_name, cid, code, market, std, label or concept_words(concept), value, text or "", unit,
                    "balance" if kind == "instant" else "income", 0, end, period[0], period[1], own, doc_end or end)
        out.append((item, concept or "", locator))
    # a filing's own fact first, then the latest filing's (companyfacts repeats them all)
    out.sort(key=lambda x: (x[0].document_id.startswith("CIK"), not x[0].own, -x[0].reported.toordinal()))
    return out


def answer_parts(con: duckdb.DuckDBPyConnection, plan: QueryPlan, labels: list[str]) -> ItemAnswer | None:
    """The answer text and rows for the plan's line item of its one company from its XBRL facts, or None when no fact
    of an asked period is the item."""
    company, name = plan.companies[0].company_id, plan.companies[0].matched
    found = fact_items(con, company, list(dict.fromkeys([*as_asked(plan.question, labels), *labels])))
    if not found:
        return None
    where = {id(item): (concept, locator) for item, concept, locator in found}
    # a flow's quarter, half-year and year to date end on one day: the span asked is read (Q3, not nine months)
    spans = {period for _, period, _ in wanted(plan)}
    items = [item for item, _, _ in found if item.statement == "balance" or item.fiscal_period in spans]
    chosen = choose(items, plan)
    if not chosen or not wanted(plan):
        return None  # (a period is asked: a fact of the latest period alone is not read for an unnamed one)
    zh = plan.language == "zh"
    lines, rows = [], []
    for item in chosen:
        concept, locator = where[id(item)]
        lines.append(item_line(name, item, zh, f"{item.doc_name}, XBRL fact {concept}"))
        rows.append(item_row(item, {"page": locator, "concept": concept}))
    return ItemAnswer("\n".join(lines), rows, [], missing_periods(plan, rows))

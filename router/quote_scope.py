"""What a quoted passage is of, against what is asked: a year's figure asked and only a quarter's or half-year's
reports quoted (:func:`part_of_year_note`); the whole year's figure asked ("全年每10股派息") where a report prints the
interim's, the final's and the year's (:func:`whole_year_first`); the whole company's asked ("global e-commerce") where
a call gives a segment's figure too (:func:`whole_company_first`); a rate of change asked ("how fast did AWS grow")
where passages about the same thing print none (:func:`rate_first`); several companies asked, each one's best
passage among the first (:func:`each_company_first`)."""

from __future__ import annotations

import re

import duckdb

from mappings.vocabulary import fold, words
from schema.models import Passage, QueryPlan


def part_of_year_note(con: duckdb.DuckDBPyConnection, plan: QueryPlan, passages: list[Passage]) -> list[str]:
    """A year's figure asked and every passage from a report or call of part of a year: say whose figures they are
    (a quarter's adjusted EPS is not the year's)."""
    if not plan.periods or any(p.fiscal_period not in (None, "FY") for p in plan.periods):
        return []
    ids = sorted({p.source.get("document_id") for p in passages if p.source.get("document_id")})
    rows = con.execute("SELECT DISTINCT fiscal_period, fiscal_year FROM documents WHERE document_id IN "
                       "(SELECT unnest(?)) ORDER BY 2, 1", [ids]).fetchall()
    if not rows or any(period in (None, "FY") for period, _ in rows):
        return []
    return ["the passages are from reports or calls of " + ", ".join(f"{p} {y}" for p, y in rows) +
            ": figures of those periods, not of the fiscal year asked"]


def whole_year_first(question: str, passages: list[Passage]) -> list[Passage]:
    """The whole year asked for in its words (全年, "full year"): the passages that say it first, those that speak only
    of a part of it (中期, 末期, interim, final: the year's two dividends) after them; as they are otherwise."""
    if not words("whole_year").search(fold(question)):
        return passages

    def part_only(p: Passage) -> bool:
        text = fold(p.text)
        return bool(words("year_parts").search(text)) and not words("whole_year").search(text)

    return sorted(passages, key=part_only)


def whole_company_first(question: str, passages: list[Passage]) -> list[Passage]:
    """The whole company asked for in its words (globally, worldwide, 全球): the passages that say it first ("Globally,
    we grew e-commerce 22%" before "Walmart U.S. comp sales grew 4.5%, aided by e-commerce sales growth of 21%")."""
    if not words("whole_company").search(fold(question)):
        return passages
    return sorted(passages, key=lambda p: not words("whole_company").search(fold(p.text)))


_RATE = re.compile(r"\d(?:\.\d+)?\s?(?:%|％|percent\b|per cent\b|个百分点|百分点|basis points\b|bps\b)", re.I)


def rate_first(question: str, passages: list[Passage]) -> list[Passage]:
    """A rate of change asked in its words ("how fast", "by how much", 增速, 增幅): the passages that print one (a
    percentage, percentage points) first ("revenue is $28.8 billion, an increase of 19% year-over-year" before what the
    year's spending on the same segment will be)."""
    if not words("rate_asked").search(fold(question)):
        return passages
    return sorted(passages, key=lambda p: not _RATE.search(p.text))


def each_company_first(passages: list[Passage], companies: list[str]) -> list[Passage]:
    """Several companies asked ("泰格医药和凯莱英分别有多少员工"): each one's first passage first, in the order found, the
    rest after them; as they are for one company or none."""
    if len(companies) < 2:
        return passages
    leads = {}
    for i, p in enumerate(passages):
        if p.company_id in companies and p.company_id not in leads:
            leads[p.company_id] = i
    first = sorted(leads.values())
    return [passages[i] for i in first] + [p for i, p in enumerate(passages) if i not in set(first)]


def not_holding(found: list[Passage], passages: list[Passage]) -> list[Passage]:
    """``passages`` less those that hold a quote of ``found`` whole on the same page (the unit a count was cut from)."""
    return [p for p in passages if not any(q.text in p.text and q.source.get("document_id") == p.source.get("document_id")
                                           and q.source.get("page") == p.source.get("page") for q in found)]

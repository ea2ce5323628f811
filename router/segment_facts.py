"""A part of a company's figure tagged in its XBRL: a segment's, region's or product's revenue or operating income is
a fact of the metric's concept with the part as a dimension member ("us-gaap:OperatingIncomeLoss" with
StatementBusinessSegmentsAxis = nvda:GraphicsMember; RevenueFromContractWithCustomerExcludingAssessedTax with
bby:DomesticSegmentMember and srt:ProductOrServiceAxis = bby:AppliancesMember). Such a fact answers a part question
exactly, cited to the filing and the fact.

A fact is the part when its members' words are the part's words (compared without case, spacing or plural; words
that only say a member is a segment or a line count on neither side): "Greater China" is aapl:GreaterChinaSegmentMember,
"iPhone" aapl:IPhoneMember; a part asked in Chinese is read by the member name its words say
(:mod:`router.other_language_names`: 大中华区 is "Greater China"). A fact with any other member is another part."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from decimal import Decimal

import duckdb

from mappings.glossary import stem
from mappings.metrics import CJK, display_name, metrics
from mappings.vocabulary import fold, part_nouns
from router.answer_text import money
from router.other_language_names import other_language_name
from router.part_names import part_names
from router.statement_items import ItemAnswer, wanted
from schema.models import AnswerRow, QueryPlan
from warehouse.periods import classify_duration, classify_instant

# words that only say what kind of member a member is
_MEMBER_WORDS = frozenset({"member", "segment", "segments", "reportable", "operating", "business", "division", "total",
                           "product", "products", "geographic", "geographical", "region", "the", "and"})
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def member_name(member: str) -> str:
    """A member's name in words: "aapl:GreaterChinaSegmentMember" -> "Greater China", "aapl:IPhoneMember" -> "IPhone"
    (a capital alone begins the next word)."""
    local = member.rsplit(":", 1)[-1]
    local = re.sub(r"(?:Reportable)?(?:Segments?)?Member$", "", local) or local
    return re.sub(r"\b([A-Z]) (?=[A-Z])", r"\1", " ".join(_CAMEL.findall(local)))


def _words(name: str) -> frozenset[str]:
    return frozenset(stem(w) for w in re.findall(r"[a-z0-9]+", name.casefold().replace("'s", "").replace(".", ""))
                     if w not in _MEMBER_WORDS and w not in part_nouns())


def _same_part(asked: str, members: list[str], company: frozenset[str] = frozenset()) -> bool:
    """Do the members name exactly the asked part (its words, or its letters run together: "iPhone", "I Phone")? The
    company's own name is no word of either ("International segment" is wmt:WalmartInternationalMember)."""
    names = [member_name(m) for m in members]
    mine, theirs = _words(asked) - company, frozenset().union(*(_words(n) for n in names)) - company
    return bool(mine) and (mine == theirs or "".join(sorted(mine)) == "".join(sorted(theirs))
                           or "".join(mine) == "".join(w for n in names for w in _words(n)))


@dataclass
class _Fact:
    doc_name: str
    document_id: str
    stock_code: str
    market: str
    standard: str | None
    concept: str
    locator: str | None
    value: Decimal
    unit: str | None
    members: dict[str, str]
    period_end: dt.date
    fiscal_year: int
    fiscal_period: str
    own: bool


def _facts(con: duckdb.DuckDBPyConnection, company_id: str, concepts: list[str]) -> list[_Fact]:
    rows = con.execute(
        "SELECT d.doc_name, f.document_id, d.stock_code, d.market, d.accounting_standard, f.concept, f.locator, f.value, "
        "f.unit, f.dimensions, f.period_start, f.period_end, f.period_type, d.fiscal_year_end_month, d.period_end, "
        "d.fiscal_period FROM facts f JOIN documents d USING (document_id) WHERE d.company_id = ? AND f.dimensions IS "
        "NOT NULL AND f.value IS NOT NULL AND f.period_end IS NOT NULL AND f.concept IN (SELECT unnest(?))",
        [company_id, concepts]).fetchall()
    out = []
    for doc, doc_id, code, market, std, concept, locator, value, unit, dims, start, end, kind, fye, doc_end, doc_period in rows:
        members = json.loads(dims) if isinstance(dims, str) else dims
        if not members or (unit and "/" in unit):
            continue
        fye = fye or 12
        period = (classify_instant(end, fye, market, doc_end, doc_period) if kind == "instant"
                  else classify_duration(start, end, fye) if start else None)
        if period is not None:
            out.append(_Fact(doc, doc_id, code, market, std, concept, locator, value, unit, members, end, *period,
                             doc_end == end))
    return out


def part_facts(con: duckdb.DuckDBPyConnection, plan: QueryPlan, parts: list[tuple[str, str]]) -> ItemAnswer | None:
    """The answer from tagged facts for the plan's first part (qualifier, metric) of its one company, for every asked
    period (the latest the filings tag without one), or None when no tagged fact is the part."""
    if len(plan.companies) != 1 or not parts:
        return None
    qualifier, metric = parts[0]
    spec = metrics().get(metric)
    if spec is None:
        return None
    concepts = list(spec.concepts)
    company = plan.companies[0]
    facts = _facts(con, company.company_id, concepts)
    if not facts:
        return None
    own, _ = part_names(qualifier)
    if own and CJK.search(own[0]):  # asked in Chinese: the member its words say
        printed = other_language_name(own, sorted({member_name(m) for f in facts for m in f.members.values()}))
        own = [printed] if printed else []
    named = _words(company.matched or "") | _words(company.company_id.replace("_", " "))
    matching = [f for f in facts if any(_same_part(name, list(f.members.values()), named) for name in own)]
    if not matching:
        return None
    # one concept: the metric's first one the filings tag the part with; sales asked, a sales concept before total
    # revenues (Walmart International's net sales 121,885 are RevenueFromContractWithCustomer..., its Revenues 123,363
    # hold membership and other income too)
    text = fold(plan.question)
    if re.search(r"\bsales\b|销售额|销售收入|销售净额", text, re.I) and not re.search(r"\brevenues?\b|营业收入|总收入", text, re.I):
        concepts.sort(key=lambda c: not re.search(r"Sales|ContractWithCustomer", c))
    order = {c: i for i, c in enumerate(concepts)}
    concept = min({f.concept for f in matching}, key=order.get)
    matching = sorted((f for f in matching if f.concept == concept), key=lambda f: (not f.own, -f.period_end.toordinal()))
    targets = wanted(plan) or [(matching[0].fiscal_year, matching[0].fiscal_period, None)]
    chosen = []
    for year, period, end in targets:
        hit = next((f for f in matching if (f.period_end == end if end else (f.fiscal_year, f.fiscal_period) == (year, period))), None)
        if hit is not None and not any(h.period_end == hit.period_end and h.fiscal_period == hit.fiscal_period for h in chosen):
            chosen.append(hit)
    if not chosen:
        return None
    lines, rows = [], []
    for f in sorted(chosen, key=lambda f: f.period_end):
        members = ", ".join(f"{axis.rsplit(':', 1)[-1]} = {member_name(m)}" for axis, m in f.members.items()
                            if _words(member_name(m)))  # (not the members that only say "a segment's")
        lines.append(f"{company.matched} ({f.stock_code}) {display_name(metric)} of {members}, {f.fiscal_period} "
                     f"{f.fiscal_year}, to {f.period_end}: {money(f.value, f.unit)} [{f.standard + '; ' if f.standard else ''}"
                     f"{f.doc_name}, XBRL fact {f.concept}{' ' + f.locator if f.locator else ''}]")
        rows.append(AnswerRow(company_id=company.company_id, stock_code=f.stock_code, market=f.market,
                              fiscal_year=f.fiscal_year, fiscal_period=f.fiscal_period, period_end=f.period_end,
                              metric=metric, value=f"{f.value.normalize():f}", currency=f.unit,
                              accounting_standard=f.standard, original_label=f"{f.concept} [{members}]",
                              source={"document_id": f.document_id, "doc_name": f.doc_name, "page": None,
                                      "locator": f.locator, "concept": f.concept, "dimensions": f.members}))
    got = {(r.fiscal_year, r.fiscal_period) for r in rows} | {r.period_end for r in rows}
    missing = [f"{period} {year}" for year, period, end in wanted(plan) if (end or (year, period)) not in got]
    return ItemAnswer("\n".join(lines), rows, [], missing)

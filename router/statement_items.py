"""A line item of the consolidated statements that the vocabulary has no metric for (在建工程, 长期股权投资, 投资收益,
"Content assets, net"): answered from the row the warehouse stored when it read the statement (table ``facts``),
for the asked periods, with its exact value, currency, page and the printed line quoted.

A stored row answers when its printed label is the question's line item (compared in the form printed labels are
compared in, ``mappings.metrics.normalise_label``, Simplified Chinese; the label itself first, and for an item asked
without "total" / "net", a row printed as "X, net" / X净额 / "Total X"), it is the group's (consolidated, no
dimension), its column is an asked period (a balance at the period's end, a flow over it: a quarter is a quarter,
never the year to date), and the statement prints that label once for the period (lease liabilities under current and
under non-current liabilities are two parts, and neither is given for the item). A period's own report is read first, then the latest
report that prints it as a comparative. Without such a row the search route answers as before."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal

import duckdb

from mappings.metrics import normalise_label
from router.bilingual_labels import labels_printed_beside
from mappings.vocabulary import fold
from router.answer_text import money
from schema.models import AnswerRow, Passage, QueryPlan
from warehouse.periods import classify_duration, classify_instant

STATEMENTS = ("income", "balance", "cashflow")
STATEMENT_NAMES = {"income": "income statement", "balance": "balance sheet", "cashflow": "cash flow statement"}
_SAME_ITEM = re.compile(r"^(?:total\s+)?(.+?)(?:\s*[,，-]\s*net|\s+net|净额)?$")


def item_key(label: str) -> str:
    """The form a line item is compared in: the printed-label form, Simplified Chinese, "X, net" / "Total X" as X."""
    text = fold(normalise_label(label))
    match = _SAME_ITEM.match(text)
    return (match.group(1) if match else text).strip()


@dataclass
class Item:
    document_id: str
    doc_name: str
    company_id: str
    stock_code: str
    market: str
    standard: str | None
    label: str
    value: Decimal
    value_text: str
    currency: str | None
    statement: str
    page: int
    period_end: dt.date
    fiscal_year: int
    fiscal_period: str
    own: bool  # the column is the report's own period
    reported: dt.date  # the report's period end


def exact_key(label: str) -> str:
    return fold(normalise_label(label)).strip()


def stored_items(con: duckdb.DuckDBPyConnection, company_id: str, labels: list[str]) -> list[Item]:
    """The group's statement rows of a company whose label is one of ``labels``, each with the period it is of: the
    rows printed under the label itself when there are any; else, for a label without "total" / "net", the rows
    printed as "X, net" / "Total X" (a question naming "X, net" is never answered with the row "X")."""
    exact = {exact_key(w) for w in labels if w} - {""}
    keys = {item_key(w) for w in labels if w and item_key(w) == exact_key(w)} - {""}
    if not exact:
        return []
    rows = con.execute(
        "SELECT f.document_id, d.doc_name, d.company_id, d.stock_code, d.market, d.accounting_standard, f.label, "
        "f.value, f.value_text, f.unit, f.statement, f.page, f.period_start, f.period_end, f.period_type, "
        "d.fiscal_year_end_month, d.period_end, d.fiscal_period FROM facts f JOIN documents d USING (document_id) "
        "WHERE d.company_id = ? AND f.consolidated AND f.dimensions IS NULL AND f.statement IN (SELECT unnest(?)) "
        "AND f.label IS NOT NULL AND f.value IS NOT NULL AND f.period_end IS NOT NULL AND f.page IS NOT NULL",
        [company_id, list(STATEMENTS)]).fetchall()
    if any(exact_key(r[6]) in exact for r in rows):
        rows = [r for r in rows if exact_key(r[6]) in exact]
    out = []
    for (doc_id, doc_name, cid, code, market, std, label, value, text, unit, statement, page, start, end, kind, fye,
         doc_end, doc_period) in rows:
        if (exact_key(label) not in exact and item_key(label) not in keys) or (unit and "/" in unit):
            continue
        period = fact_period(kind, start, end, fye, market, doc_end, doc_period)
        if period is None:
            continue
        out.append(Item(doc_id, doc_name, cid, code, market, std, label, value, text or "", unit, statement, int(page),
                        end, period[0], period[1], doc_end == end, doc_end or end))
    return out


def fact_period(kind: str, start: dt.date | None, end: dt.date, fye: int | None, market: str, doc_end: dt.date | None,
                doc_period: str | None) -> tuple[int, str] | None:
    """(fiscal year, period) a stored figure is of: a balance's by its date, a flow's by its span; None for a span
    that is no period of the company's year."""
    fye = fye or 12
    if kind == "instant":
        return classify_instant(end, fye, market, doc_end, doc_period)
    return classify_duration(start, end, fye) if start else None


def as_asked(question: str, labels: list[str]) -> list[str]:
    """The item's label with the words the question puts around it that make it another row: "total" before it, "net"
    after it ("..., net", the topic words lose them at the comma); else ``labels`` (the longest reading first)."""
    if not labels:
        return []
    text = fold(question).casefold()
    m = re.search(r"(?:\btotal\s+)?" + re.escape(labels[0].casefold()) + r"(?:\s*,?\s*net\b)?", text)
    return [m.group(0)] if m and m.group(0) != labels[0].casefold() else labels[:1]


def wanted(plan: QueryPlan) -> list[tuple[int, str, dt.date | None]]:
    """The (fiscal year, period, end date if named) the plan asks for; empty for none named (the latest)."""
    out = []
    for p in plan.periods:
        if p.relative is None and p.fiscal_year:
            out.append((p.stored_year or p.fiscal_year, p.fiscal_period or "FY", p.period_end))
    return out


def choose(items: list[Item], plan: QueryPlan) -> list[Item]:
    """One row per asked period (the balance sheet's row before a flow's of the same name, the period's own report
    first, then the latest report printing it); without a period named, the latest period a report prints as its
    own. A balance asked ("as of", 年末) is read from balances only: a cash-flow row "Deposits" is their change."""
    if any(p.instant for p in plan.periods):
        items = [i for i in items if i.statement == "balance"]
    ranked = sorted(items, key=lambda i: (STATEMENTS.index(i.statement) != 1, not i.own, -i.reported.toordinal(), i.page))
    targets = wanted(plan)
    if not targets and plan.last_n_years:  # the last N fiscal years a report prints
        years = sorted({i.fiscal_year for i in ranked if i.fiscal_period == "FY"})[-plan.last_n_years:]
        targets = [(year, "FY", None) for year in years]
    if not targets:
        own = [i for i in ranked if i.own]
        return [max(own, key=lambda i: (i.period_end, i.statement == "balance"))] if own else []
    chosen = []
    for year, period, end in targets:
        hit = next((i for i in ranked if (i.period_end == end if end else (i.fiscal_year, i.fiscal_period) == (year, period))), None)
        if hit is not None and hit not in chosen and not _parts_of_one_item(hit, items):
            chosen.append(hit)
    return sorted(chosen, key=lambda i: i.period_end)


def _parts_of_one_item(hit: Item, items: list[Item]) -> bool:
    """Does the statement print the label twice for that period with other figures (lease liabilities under current and
    under non-current liabilities)? Then no one row is the item: none is given in its place."""
    return any(i.document_id == hit.document_id and i.statement == hit.statement and i.period_end == hit.period_end
               and i.label == hit.label and i.value != hit.value for i in items)


def printed_line(con: duckdb.DuckDBPyConnection, item: Item) -> Passage | None:
    """The page's line that prints the row (its label and the figure), quoted as printed."""
    row = con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?", [item.document_id, item.page]).fetchone()
    if not row or not row[0]:
        return None
    text, key, start = row[0], item_key(item.label).replace(" ", ""), 0
    for line in text.split("\n"):
        folded = fold(line).casefold().replace(" ", "")
        if item.value_text and item.value_text in line and key in folded:
            body = line.rstrip()
            return Passage(text=body, company_id=item.company_id, source={
                "document_id": item.document_id, "doc_name": item.doc_name, "page": item.page,
                "section": "financial_statements", "char_start": start, "char_end": start + len(body)})
        start += len(line) + 1
    return None


def period_name(item: Item, zh: bool) -> str:
    if zh:
        return f"{item.fiscal_year}{'年度' if item.fiscal_period == 'FY' else item.fiscal_period}（截至{item.period_end}）"
    return f"{item.fiscal_period} {item.fiscal_year}, to {item.period_end}"


@dataclass
class ItemAnswer:
    text: str
    rows: list[AnswerRow]
    passages: list[Passage]
    missing: list[str]  # asked periods no stored row is of
    deductions: bool = False  # a figure printed in parentheses, kept with its printed sign


def answer_parts(con: duckdb.DuckDBPyConnection, plan: QueryPlan, labels: list[str],
                 other: list[str] = ()) -> ItemAnswer | None:
    """The answer text, rows and quoted lines for the plan's line item of its one company, or None when no stored
    statement row of an asked period is the item (``other``: its label as the filings print it in the other
    language, 财务费用 for "finance expenses")."""
    company, name = plan.companies[0].company_id, plan.companies[0].matched
    items = stored_items(con, company, [*as_asked(plan.question, labels), *other])
    if not items:  # asked by the Chinese label of a bilingual statement that stored its English one
        items = stored_items(con, company, labels_printed_beside(con, company, labels, tuple(STATEMENTS)))
    chosen = choose(items, plan)
    if not chosen:
        return None
    zh = plan.language == "zh"
    lines, rows, quotes = [], [], []
    for item in chosen:
        quote = printed_line(con, item)
        if quote is None:
            continue
        lines.append(item_line(name, item, zh, f"{item.doc_name} p{item.page}, consolidated {STATEMENT_NAMES[item.statement]}"))
        rows.append(item_row(item, {"page": item.page}))
        if quote not in quotes:
            quotes.append(quote)
    if not rows:
        return None
    text = "\n".join([*lines, *(f"as printed: \"{q.text}\" [{q.source['doc_name']} p{q.source['page']}]" for q in quotes)])
    deductions = any(i.value_text.startswith("(") for i in chosen)
    return ItemAnswer(text, rows, quotes, missing_periods(plan, rows), deductions)


def item_line(name: str, item: Item, zh: bool, where: str) -> str:
    """One answer line: the company as asked, the item's label and period, its amount, and where it is printed."""
    std = f"{item.standard}; " if item.standard else ""
    return f"{name} ({item.stock_code}) {item.label}, {period_name(item, zh)}: {money(item.value, item.currency)} [{std}{where}]"


def item_row(item: Item, source: dict) -> AnswerRow:
    """The item's exact value as an answer row, cited by its document and ``source`` (its page, or XBRL locator)."""
    return AnswerRow(company_id=item.company_id, stock_code=item.stock_code, market=item.market,
                     fiscal_year=item.fiscal_year, fiscal_period=item.fiscal_period, period_end=item.period_end,
                     metric=item.label, value=f"{item.value.normalize():f}", currency=item.currency,
                     accounting_standard=item.standard, original_label=item.label,
                     source={"document_id": item.document_id, "doc_name": item.doc_name, **source})


def missing_periods(plan: QueryPlan, rows: list[AnswerRow]) -> list[str]:
    """The asked periods no row is of."""
    got = {(r.fiscal_year, r.fiscal_period) for r in rows} | {r.period_end for r in rows}
    return [f"{period} {year}" for year, period, end in wanted(plan) if (end or (year, period)) not in got]

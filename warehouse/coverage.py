"""Coverage you can see: for every document, every core metric of its kind, for its own period and each
comparative it prints, one status.

- ``present``: the document's value (``document_metrics``), with page and printed label;
- ``derived``: not printed; derived from this document's own figures (``financial_metrics.derivation``);
- ``missing``: a parser gap: the statement that holds the metric was not read for that period, or the page
  prints a row with one of the metric's labels that was not read or not mapped (the page is given);
- ``not_printed``: the statement was read for that period and prints no such row.

The core set per market and report kind is data (``mappings/coverage.yaml``). "Statement read for a period"
means: the document has facts of that statement for that period, or, for its own period, the parser's own
record says so (``statement_reads``: read, unreadable with the reason, or not found). Evidence of a printed row is a fact or a page line whose label, loosely normalised (parenthesised
remarks and units dropped), equals one of the metric's labels (``labels_*.yaml``) or names.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from decimal import Decimal
from functools import lru_cache

import duckdb

from mappings.coverage import STATEMENTS, coverage_spec
from mappings.metrics import load_yaml, metrics as catalogue, normalise_label
from mappings.statements import title_statement
from warehouse.periods import classify_duration, classify_instant
from warehouse.statement_reads import reads_of

STATUSES = ("present", "derived", "missing", "not_printed")
# A label word or phrase shorter than this (after loose normalisation) is too generic to count as evidence of a
# printed row on its own ("cash", "sales", "收入").
MIN_EVIDENCE_CHARS = 6


@dataclass
class CoverageRow:
    document_id: str
    doc_name: str
    market: str
    stock_code: str | None
    form: str | None
    fiscal_year: int
    fiscal_period: str
    period_end: dt.date | None
    own_period: bool
    metric: str
    status: str
    value: Decimal | None = None
    page: str | None = None
    label: str | None = None
    reason: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def loose(label: str | None) -> str:
    """Comparison form for evidence: normalise_label, then parenthesised remarks (closed or cut off by a line
    end), unit remarks and punctuation dropped."""
    text = normalise_label(label or "")
    text = re.sub(r"[(（\[][^)）\]]*[)）\]]?", "", text)
    text = re.sub(r"(?:人民币)?元(?:/|／)?股?$|\b(?:rmb|hk\$|us\$)?'?000$", "", text)
    return re.sub(r"[\s:：,，.。;；/／\-–—]+", "", text)


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, frozenset[str]]:
    """metric id -> loose labels that show a printed row of it (label files of every market, names)."""
    out: dict[str, set[str]] = defaultdict(set)
    for file in ("labels_cn.yaml", "labels_hk.yaml", "labels_us.yaml"):
        for _statement, entries in load_yaml(file).items():
            for mid, spec in (entries or {}).items():
                labels = spec.get("labels") if isinstance(spec, dict) else spec  # {labels, patterns, us_gaap}
                out[mid].update(loose(str(x)) for x in labels or [])
    for mid, m in catalogue().items():
        out[mid].update(loose(x) for x in (m.name_en, m.name_zh, *m.aliases))
    return {mid: frozenset(x for x in v if len(x) >= MIN_EVIDENCE_CHARS or re.search(r"[\u4e00-\u9fff]{4}", x))
            for mid, v in out.items()}


_NUMBER = re.compile(r"(?<![\w.])[(（]?-?\d[\d,]*(?:\.\d+)?[)）]?(?!\w)")


def _line_label(line: str) -> str | None:
    """The label part of a statement line that carries a figure (text before the first number)."""
    m = _NUMBER.search(line)
    if m is None or m.start() == 0:
        return None
    return line[: m.start()]


@dataclass
class _Fact:
    label: str | None
    statement: str | None
    page: int | None
    period: tuple[int, str] | None
    period_end: dt.date | None
    period_type: str | None
    xbrl: bool


def _document_facts(con, document_id: str, fye: int, market: str, doc_end, doc_fp) -> list[_Fact]:
    out = []
    for label, statement, page, start, end, ptype, concept in con.execute(
            """SELECT coalesce(label, concept), statement, page, period_start, period_end, period_type, concept
               FROM facts WHERE document_id = ? AND value IS NOT NULL AND dimensions IS NULL
                 AND coalesce(consolidated, true) AND period_end IS NOT NULL""", [document_id]).fetchall():
        if ptype == "duration" and start is not None:
            period = classify_duration(start, end, fye)
        elif ptype == "instant":
            period = classify_instant(end, fye, market, doc_end, doc_fp)
        else:
            period = None
        out.append(_Fact(label, statement, page, period, end, ptype, concept is not None))
    return out


def _own_periods(form: str | None, fy: int | None, fp: str | None, end) -> list[tuple[int, str, str]]:
    """(fiscal_year, fiscal_period, kind) a report covers as its own period."""
    if fy is None or fp is None:
        return []
    duration = "9M" if fp == "Q3" and form in ("q3",) else fp
    return [(fy, duration, "duration"), (fy, fp, "instant")]


def document_coverage(con: duckdb.DuckDBPyConnection, document_id: str) -> list[CoverageRow]:
    """Coverage rows of one document (empty for kinds with no core set)."""
    doc = con.execute(
        """SELECT doc_name, market, stock_code, form, fiscal_year, fiscal_period, period_end,
                  coalesce(fiscal_year_end_month, 12), company_metrics FROM documents WHERE document_id = ?""",
        [document_id]).fetchone()
    if doc is None:
        return []
    doc_name, market, code, form, fy, fp, end, fye, company_metrics = doc
    spec = coverage_spec()
    core = spec.core(market, form) if company_metrics else ()
    if not core:
        return []
    known = catalogue()
    printed: dict[tuple[int, str, str], tuple] = {}
    periods: dict[tuple[int, str, str], dt.date | None] = {}
    for year, period, pend, metric, value, page, label in con.execute(
            """SELECT fiscal_year, fiscal_period, period_end, metric_name, metric_value, page, original_label
               FROM document_metrics WHERE document_id = ?""", [document_id]).fetchall():
        printed[(year, period, metric)] = (value, page, label)
        kind = known[metric].period
        periods.setdefault((year, period, kind), pend)
    own = set(_own_periods(form, fy, fp, end))
    for key in own:
        periods.setdefault(key, end)
    derived = _derived_here(con, code, document_id)
    facts = _document_facts(con, document_id, fye, market, end, fp)
    xbrl = any(f.xbrl for f in facts)
    read: dict[tuple[int, str, str], set[str]] = defaultdict(set)  # period, kind -> statements with facts for it
    for f in facts:
        if f.period is not None:
            read[(*f.period, f.period_type)].add("xbrl" if f.xbrl else (f.statement or "other"))
    pages = _statement_pages(con, document_id)
    recorded = reads_of(con, document_id)  # the parser's own record, when it kept one
    vocab = vocabulary()
    rows: list[CoverageRow] = []
    for (year, period, kind), pend in sorted(periods.items(), key=lambda kv: (-kv[0][0], kv[0][1], kv[0][2])):
        statements_read = set(read.get((year, period, kind), set()))
        is_own = (year, period, kind) in own
        if is_own:
            statements_read |= {st for st, r in recorded.items() if r.status == "read"}
        # a period some primary statement prints (its own columns): instants on the balance sheet, flows on
        # the income or cash-flow statement; other periods come from key-figure tables only
        statement_period = bool(statements_read & ({"xbrl", "balance"} if kind == "instant"
                                                   else {"xbrl", "income", "cashflow"}))
        for metric in core:
            if known[metric].period != kind:
                continue
            row = CoverageRow(document_id, doc_name, market, code, form, year, period, pend, is_own, metric, "")
            hit = printed.get((year, period, metric))
            if hit is not None:
                row.status, (row.value, row.page, row.label) = "present", hit
            elif (year, period, metric) in derived:
                row.status, row.value, row.reason = "derived", *derived[(year, period, metric)]
            else:
                where = {"xbrl"} if xbrl else set(spec.statements_of(market, metric))
                key_figure = not xbrl and spec.in_key_figures(market, metric)
                if statements_read & where or (key_figure and "key_figures" in statements_read):
                    # page lines count as evidence for the report's own period only: every row of a statement
                    # has a current-period figure, while a comparative column may be blank
                    evidence = _evidence(facts, vocab.get(metric, frozenset()), (year, period, kind), con,
                                         document_id, sorted({f.page for f in facts if f.period == (year, period)
                                                              and (f.statement in where or f.xbrl) and f.page}
                                                             | {p for st in where if st in recorded
                                                                for p in recorded[st].pages})
                                         if is_own else [])
                    if evidence:
                        row.status, row.page, row.label, row.reason = "missing", *evidence
                    else:
                        row.status = "not_printed"
                elif statement_period or is_own:
                    titled = sorted(p for p, st in pages.items() if st in where)
                    record = next((recorded[st] for st in sorted(where) if st in recorded), None)
                    row.status = "missing"
                    if record is not None and record.status == "read" and not is_own:
                        # the statement was read and has no column for this period (a 10-Q's cash-flow
                        # statement prints the year to date only, not the quarter its income statement prints)
                        row.status, row.page = "not_printed", str(record.page) if record.page else None
                        row.reason = f"the {record.statement} statement read has no column for {period} {year}"
                    elif record is not None and record.status != "read":
                        row.page = str(record.page) if record.page else (",".join(map(str, titled[:4])) or None)
                        row.reason = f"{record.statement} statement {record.status.replace('_', ' ')}: {record.reason}"
                    else:
                        row.page = ",".join(map(str, titled[:4])) or None
                        row.reason = (f"{'/'.join(sorted(where))} statement not read for {period} {year}"
                                      + ("" if titled else " (no page titled as such)"))
                else:
                    continue  # a period the report prints only in a table that does not hold this metric
            rows.append(row)
    return rows


def _evidence(facts: list[_Fact], vocab: frozenset[str], period, con, document_id: str,
              statement_pages: list[int]) -> tuple[str | None, str, str] | None:
    """(page, printed label, reason) of a printed row of the metric that was not read, or None."""
    for f in facts:
        if f.period is not None and (*f.period, f.period_type) == period and loose(f.label) in vocab:
            return (str(f.page) if f.page else None, f.label or "", "printed row read but its label is not mapped")
    if statement_pages:
        for page, text in con.execute("SELECT page, text FROM pages WHERE document_id = ? AND list_contains(?, page)",
                                      [document_id, statement_pages]).fetchall():
            for line in text.split("\n"):
                label = _line_label(line)
                if label and loose(label) in vocab:
                    return (str(page), label.strip(), "row printed on the statement page but not read")
    return None


def _derived_here(con, code: str | None, document_id: str) -> dict[tuple[int, str, str], tuple[Decimal, str]]:
    """Derived values whose inputs all come from this document."""
    out = {}
    for year, period, metric, value, derivation in con.execute(
            """SELECT fiscal_year, fiscal_period, metric_name, metric_value, derivation FROM financial_metrics
               WHERE stock_code = ? AND source_kind = 'derived'""", [code]).fetchall():
        d = json.loads(derivation)
        if all(i["document_id"] == document_id for i in d["inputs"]):
            out[(year, period, metric)] = (value, d["formula"])
    return out


def _statement_pages(con, document_id: str) -> dict[int, str]:
    """Pages titled as a primary statement (the page an unread statement should have been read from)."""
    out = {}
    for page, text in con.execute("SELECT page, text FROM pages WHERE document_id = ?", [document_id]).fetchall():
        st = title_statement(text)
        if st in STATEMENTS:
            out[page] = st
    return out


def coverage(con: duckdb.DuckDBPyConnection, documents: list[str] | None = None) -> list[CoverageRow]:
    """Coverage rows of every document (or of the given document ids)."""
    ids = documents or [r[0] for r in con.execute(
        "SELECT document_id FROM documents WHERE company_metrics ORDER BY market, stock_code, period_end, doc_name"
    ).fetchall()]
    return [row for document_id in ids for row in document_coverage(con, document_id)]


def summary(rows: list[CoverageRow]) -> dict[str, dict[str, int]]:
    """market -> status -> count."""
    out: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        out[r.market][r.status] += 1
    return {m: {s: c[s] for s in STATUSES} for m, c in sorted(out.items())}


def report(con: duckdb.DuckDBPyConnection, company_id: str | None = None, document_id: str | None = None) -> dict:
    """What `filings coverage` and ``Filings.coverage()`` show: per-market counts, every coverage row, every
    identity violation and restatement (with the pages of both sides)."""
    from warehouse.identities import check

    ids = [r[0] for r in con.execute(
        """SELECT document_id FROM documents WHERE company_metrics AND (? IS NULL OR company_id = ?)
           AND (? IS NULL OR document_id = ?) ORDER BY market, stock_code, period_end, doc_name""",
        [company_id, company_id, document_id, document_id]).fetchall()]
    rows = coverage(con, ids)
    # every listing of these documents, also one whose only document has no core set (SEC companyfacts: a
    # database, not a report, whose copies of filings' figures still show restatements)
    codes = sorted({code for (code,) in con.execute(
        "SELECT DISTINCT stock_code FROM documents WHERE list_contains(?, document_id) AND stock_code IS NOT NULL",
        [ids]).fetchall()}) if ids else []
    tally: Counter = Counter()
    findings = check(con, codes, tally) if codes else []
    if document_id:
        findings = [f for f in findings if any(s["document_id"] == document_id for s in f.sources)]
    found: dict[str, Counter] = defaultdict(Counter)
    markets = dict(con.execute("SELECT stock_code, market FROM securities").fetchall())
    for f in findings:
        found[markets.get(f.stock_code, "?")][f.identity] += 1
    return {"documents": len(ids), "summary": summary(rows), "identities_checked": dict(tally),
            "identities": {m: dict(c) for m, c in found.items()},
            "rows": [r.as_dict() for r in rows], "findings": [f.as_dict() for f in findings]}

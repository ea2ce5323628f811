"""Read-side lookups the CLI and the facade share: companies, metrics, documents."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import duckdb

from mappings.companies import alias_key, normalise_code
from mappings.metrics import metrics as metric_catalogue
from schema.errors import FilingsError
from schema.models import DocumentInfo, Fact, Page, ParsedDocument, SectionSpan
from warehouse.basis import BASES, TABLE_OF_BASIS


def resolve_company(con: duckdb.DuckDBPyConnection, text: str) -> str | None:
    """company_id for a listing code (any spelling), a company_id, or an exact name / alias."""
    text = (text or "").strip()
    if not text:
        return None
    code = normalise_code(text)
    if code:
        row = con.execute("SELECT company_id FROM securities WHERE stock_code = ?", [code]).fetchone()
        if row:
            return row[0]
    row = con.execute("SELECT company_id FROM companies WHERE company_id = ?", [text.lower()]).fetchone()
    if row:
        return row[0]
    row = con.execute("SELECT DISTINCT company_id FROM aliases WHERE alias_key = ?", [alias_key(text)]).fetchall()
    if len(row) == 1:
        return row[0][0]
    return None


# rapidfuzz WRatio (0-100) a name must reach to be offered as "did you mean": measured over the corpus
# warehouse's aliases, misspellings score 83-92 (Nvidai -> Nvidia 83, Aple -> Apple 89, Walmrt -> Walmart 92),
# names of companies not in it at most 73 (Aple -> Costco Wholesale 73, Tencent 60, Samsung 65)
SUGGEST_CUTOFF = 80


def suggest_companies(con: duckdb.DuckDBPyConnection, text: str, limit: int = 3) -> list[str]:
    """Names or codes close to ``text`` (a misspelt company), best first, as "name (code)"."""
    from rapidfuzz import fuzz, process, utils

    rows = con.execute(
        "SELECT a.alias, a.company_id, min(s.stock_code) FROM aliases a LEFT JOIN securities s USING (company_id) "
        "GROUP BY ALL").fetchall()
    if not rows:
        return []
    choices = [r[0] for r in rows]
    found = process.extract(text, choices, scorer=fuzz.WRatio, processor=utils.default_process,
                            score_cutoff=SUGGEST_CUTOFF, limit=limit * 4)
    out: list[str] = []
    seen: set[str] = set()
    for _alias, _score, i in found:
        alias, company_id, code = rows[i]
        if company_id in seen:
            continue
        seen.add(company_id)
        out.append(f"{alias} ({code})" if code else alias)
    return out[:limit]


def unknown_company_message(con: duckdb.DuckDBPyConnection, text: str) -> str:
    hints = suggest_companies(con, text)
    hint = f"did you mean {' or '.join(hints)}? " if hints else ""
    return (f"unknown company {text!r}: {hint}try a ticker (AAPL), a code (600080, 0700.HK) or a name listed by "
            "`filings companies`")


def require_company(con: duckdb.DuckDBPyConnection, text: str) -> str:
    """company_id for a listing code, company_id, name or alias; a FilingsError that says what to try otherwise."""
    company_id = resolve_company(con, text)
    if company_id is None:
        raise FilingsError(unknown_company_message(con, text))
    return company_id


def resolve_metrics(names: list[str]) -> tuple[list[str], list[str]]:
    """(canonical ids, unknown names) for ids or aliases (营业收入, Revenues, capex...)."""
    catalogue = metric_catalogue()
    by_alias = {alias_key(a): m.id for m in catalogue.values() for a in (m.id, m.name_en, m.name_zh, *m.aliases)}
    ids, unknown = [], []
    for name in names:
        mid = by_alias.get(alias_key(name))
        (ids if mid else unknown).append(mid or name)
    return ids, unknown


METRICS_SQL = """
SELECT fm.company_id, fm.stock_code, fm.market, fm.fiscal_year, fm.fiscal_year_label, fm.fiscal_period,
       fm.period_end, fm.metric_name AS metric, fm.metric_value AS value, fm.currency, fm.accounting_standard,
       fm.original_label, fm.original_unit, d.doc_name, fm.document_id, fm.page, fm.source_kind, fm.restated,
       fm.report_type, fm.basis, fm.other_basis_value, fm.derivation
FROM {table} fm JOIN documents d USING (document_id)
WHERE fm.company_id = ?
  AND (? IS NULL OR fm.fiscal_year >= ?) AND (? IS NULL OR fm.fiscal_year <= ?)
  AND (len(?) = 0 OR list_contains(?, fm.metric_name))
  AND (len(?) = 0 OR list_contains(?, fm.fiscal_period))
ORDER BY fm.metric_name, fm.fiscal_year, fm.fiscal_period, fm.stock_code
"""


def metrics_table(basis: str = "latest") -> str:
    """The table holding a basis: ``latest`` (restated / split-adjusted, the default) or ``as_reported``."""
    if basis not in TABLE_OF_BASIS:
        raise FilingsError(f"unknown basis {basis!r}: use {' or '.join(BASES)}")
    return TABLE_OF_BASIS[basis]


def metric_rows(con: duckdb.DuckDBPyConnection, company_id: str, year_from: int | None = None,
                year_to: int | None = None, metric_ids: list[str] | None = None,
                periods: list[str] | None = None, basis: str = "latest") -> list[dict]:
    """Metric rows of one company on one basis (``latest`` by default; ``as_reported``: as first reported).
    ``derivation`` is a dict for derived values (formula and inputs), else None."""
    metric_ids, periods = metric_ids or [], periods or []
    cur = con.execute(METRICS_SQL.format(table=metrics_table(basis)),
                      [company_id, year_from, year_from, year_to, year_to, metric_ids, metric_ids, periods, periods])
    cols = [d[0] for d in cur.description]
    rows = [dict(zip(cols, r)) for r in cur.fetchall()]
    for r in rows:
        r["derivation"] = json.loads(r["derivation"]) if r["derivation"] else None
    return rows


def company_rows(con: duckdb.DuckDBPyConnection, market: str | None = None) -> list[dict]:
    cur = con.execute(
        """
        SELECT c.company_id, c.name_en, c.name_zh, string_agg(s.stock_code, ', ' ORDER BY s.market, s.stock_code) AS listings,
               string_agg(DISTINCT s.market, ', ') AS markets,
               (SELECT count(*) FROM documents d WHERE d.company_id = c.company_id) AS documents,
               (SELECT count(*) FROM financial_metrics f WHERE f.company_id = c.company_id) AS metrics,
               (SELECT string_agg(DISTINCT a.alias, '; ' ORDER BY a.alias) FROM aliases a
                WHERE a.company_id = c.company_id AND a.document_id IS NOT NULL
                  AND a.kind NOT IN ('code', 'ticker', 'cik')) AS printed_names
        FROM companies c LEFT JOIN securities s USING (company_id)
        GROUP BY ALL
        HAVING ? IS NULL OR list_contains(list(s.market), ?)
        ORDER BY documents DESC, c.company_id
        """,
        [market, market],
    )
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def scaled(value: Decimal, scale: int) -> Decimal:
    return value.scaleb(-scale) if scale else value


def stored_info(con: duckdb.DuckDBPyConnection, document_id: str):
    """A stored document's DocumentInfo and its documents row."""
    cur = con.execute("SELECT * FROM documents WHERE document_id = ?", [document_id])
    row = dict(zip([d[0] for d in cur.description], cur.fetchone()))
    fields = set(DocumentInfo.model_fields)
    return DocumentInfo(**{k: v for k, v in row.items() if k in fields and v is not None}), row


def stored_facts(con: duckdb.DuckDBPyConnection, document_id: str):
    """A stored document's facts as parsed (every column of ``facts``)."""
    import json

    from schema.models import Fact

    fields = ["concept", "label", "value", "value_text", "unit", "decimals", "scale", "original_unit",
              "period_start", "period_end", "period_type", "dimensions", "statement", "consolidated", "page",
              "locator", "column_label"]
    out = []
    for row in con.execute(f"SELECT {', '.join(fields)} FROM facts WHERE document_id = ? ORDER BY fact_no",
                           [document_id]).fetchall():
        data = dict(zip(fields, row))
        data["column"] = data.pop("column_label")
        data["dimensions"] = json.loads(data["dimensions"]) if data["dimensions"] else {}
        out.append(Fact(**{k: v for k, v in data.items() if v is not None}))
    return out


def stored_document(con: duckdb.DuckDBPyConnection, document_id: str):
    """A stored document as a ParsedDocument (info, pages, sections, statement facts' pages), for
    re-indexing without re-parsing."""
    info, row = stored_info(con, document_id)
    pages = [Page(page=p, text=t, ocr=o) for p, t, o in con.execute(
        "SELECT page, text, ocr FROM pages WHERE document_id = ? ORDER BY page", [document_id]).fetchall()]
    sections = [SectionSpan(section=s, title=t, page_start=ps, char_start=cs, page_end=pe, char_end=ce,
                            confidence=c if c is not None else 1.0, pointer=bool(p), attrs=json.loads(a) if a else {})
                for s, t, ps, cs, pe, ce, c, p, a in con.execute(
                    "SELECT section, title, page_start, char_start, page_end, char_end, confidence, pointer, attrs "
                    "FROM sections WHERE document_id = ?", [document_id]).fetchall()]
    facts = [Fact(page=p, statement=s) for p, s in con.execute(
        "SELECT DISTINCT page, statement FROM facts WHERE document_id = ? AND page IS NOT NULL AND statement IS NOT NULL",
        [document_id]).fetchall()]
    return ParsedDocument(info=info, pages=pages, sections=sections, facts=facts, parser=row["parser"] or ""), row["doc_name"]


QUESTION_CUTOFF = 80  # rapidfuzz ratio (whole-word similarity) of a question's word to a company name or code


def suggest_in_question(con: duckdb.DuckDBPyConnection, question: str, limit: int = 2) -> list[str]:
    """Companies a question may have misspelt ("Nvidai revenue" -> Nvidia): each capitalised word of four
    letters or more, and each pair of words with a capital, against every name and code by whole-string similarity (never a substring, so
    "net" is not Netflix)."""
    from rapidfuzz import fuzz, process, utils

    rows = con.execute(
        "SELECT a.alias, a.company_id, min(s.stock_code) FROM aliases a LEFT JOIN securities s USING (company_id) "
        "GROUP BY ALL").fetchall()
    words = re.findall(r"[A-Za-z][A-Za-z&.'-]+", question)
    candidates = [w for w in words if len(w) >= 4 and w[0].isupper()] + \
        [f"{a} {b}" for a, b in zip(words, words[1:]) if a[0].isupper() or b[0].isupper()]  # names are capitalised
    found: list[tuple[float, str, str]] = []
    for cand in candidates:
        hit = process.extractOne(cand, [r[0] for r in rows], scorer=fuzz.ratio, processor=utils.default_process,
                                 score_cutoff=QUESTION_CUTOFF)
        if hit:
            alias, company_id, code = rows[hit[2]]
            found.append((hit[1], company_id, f"{alias} ({code})" if code else alias))
    out: dict[str, str] = {}
    for _score, company_id, name in sorted(found, key=lambda x: -x[0]):
        out.setdefault(company_id, name)
    return list(out.values())[:limit]


NAME_PRINTED = 8  # a company without filings of its own is looked for in the pages that print a name this long


def filings_printing(con: duckdb.DuckDBPyConnection, filters: dict) -> dict:
    """One company asked that has no filing of its own, a fund of an umbrella trust whose report holds several funds'
    statements (the Amundi ETF Series' report is filed under one of its funds): its siblings' filings whose pages
    print its name, in place of the company filter; else the filters as they are."""
    companies = filters.get("company_id") or []
    if len(companies) != 1 or filters.get("document_id") or con.execute(
            "SELECT 1 FROM documents WHERE company_id = ? LIMIT 1", companies).fetchone():
        return filters
    names = [n for (n,) in con.execute("SELECT DISTINCT alias FROM aliases WHERE company_id = ? AND kind <> 'code'",
                                       companies).fetchall() if len(n) >= NAME_PRINTED]
    # (a sibling's filing: its company's name begins as this one's does, the trust's brand: "Amundi ...")
    brands = {n.split()[0].casefold() for n in names if n.split()}
    docs = sorted({d for n in names for (d, name) in con.execute(
        "SELECT DISTINCT p.document_id, coalesce(c.name_en, c.name_zh) FROM pages p JOIN documents d USING (document_id) "
        "JOIN companies c "
        "ON c.company_id = d.company_id WHERE p.text ILIKE ?", [f"%{n}%"]).fetchall()
        if name and name.split() and name.split()[0].casefold() in brands})
    if not docs:
        return filters
    return {**{key: v for key, v in filters.items() if key != "company_id"}, "document_id": docs}

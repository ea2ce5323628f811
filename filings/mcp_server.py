"""`filings mcp`: the warehouse as an MCP server (the official SDK's ``MCPServer``), read-only.

Tools: ``ask``, ``search``, ``metrics``, ``compare``, ``sql``, ``companies``, ``coverage``. Resources: ``filings://documents`` (what is stored) and one resource per document page,
``filings://doc/{document_id}/page/{page}`` (the page text with its source). Transport: stdio by default;
streamable HTTP on loopback with ``--http``.

Every tool calls the ``Filings`` facade or the warehouse's read functions; the SQL tool goes through the
same guard as ``filings sql``. A user mistake (unknown company or metric, refused SQL, a bad argument) comes
back as a tool error with the reason; nothing returns a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from filings.session import ReadSession, records
from filings.web.guard import MAX_QUERY_CHARS
from schema.errors import FilingsError
from schema.models import as_jsonable
from warehouse import citations, sql as sql_mod

MAX_SQL_ROWS = 500  # rows one sql call returns (`truncated` says there were more: a model's context is small)
MAX_SEARCH_HITS = 50  # largest k of the search tool
PAGE_URI = "filings://doc/{document_id}/page/{page}"


def build_server(home: str | Path | None = None):
    """The MCP server over the warehouse in ``home`` (tools and resources registered)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
    from mcp.types import ToolAnnotations

    session = ReadSession(home)
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                open_world_hint=False)
    server = MCPServer(
        "filings", version="0.1.0",
        instructions=(
            "An offline warehouse of company filings: US 10-K/10-Q (XBRL and PDF), China A-share and Hong Kong "
            "reports. Numbers are exact decimals in base units of their currency (not thousands) with the "
            "accounting standard, fiscal period and source page or XBRL fact; narrative answers quote the filing "
            "with a page-exact citation. Read `filings://doc/{document_id}/page/{page}` to check a citation. "
            "Nothing here writes to the warehouse or leaves the machine."),
    )

    def call(fn, *args, **kwargs):
        """Run a facade call under the session lock; a user mistake becomes a tool error."""
        try:
            with session.lock:
                return fn(*args, **kwargs)
        except FilingsError as exc:
            raise ToolError(str(exc)) from None

    def text(name: str, value: str) -> str:
        value = (value or "").strip()
        if not value:
            raise ToolError(f"{name} is empty")
        if len(value) > MAX_QUERY_CHARS:
            raise ToolError(f"{name} too long: {len(value):,} characters (the limit is {MAX_QUERY_CHARS:,})")
        return value

    @server.tool(annotations=read_only)
    def ask(question: str) -> dict[str, Any]:
        """Answer a question about the stored filings, in English or Chinese, e.g. "Apple revenue fiscal 2024",
        "compare Nvidia and Apple gross margin 2024", "金花股份近三年营业收入", "what supply chain risks does
        Apple describe". Covers US (10-K, 10-Q, earnings calls), A-share and HK reports in this warehouse only.
        Numbers come from SQL: `rows[].value` is an exact decimal string in base units of `currency` (not
        thousands; per-share values per share), with accounting standard, fiscal period, period end and the
        source (document_id, doc_name, page or XBRL fact id); ratios and growth are computed exactly;
        cross-currency comparisons carry the FX rate, date and source. Narrative answers quote passages with
        document, page, section and character span. `status` is "no_data" with a `reason` when the warehouse
        cannot answer (unknown company, metric or period, weak evidence): never a guess. Limit: one question
        of at most 2,000 characters."""
        question = text("question", question)
        return as_jsonable(call(session.filings.ask, question).model_dump())

    @server.tool(annotations=read_only)
    def search(query: str, company: str | None = None, year: int | None = None, section: str | None = None,
               document: str | None = None, k: int = 10, raw: bool = False) -> dict[str, Any]:
        """Hybrid (dense + BM25) search over the narrative of the stored filings: sections (risk factors, MD&A,
        business, 管理层讨论与分析...), statement pages and earnings-call turns. Companies, years, sections and
        report types named in the query become filters (listed in `filters_applied`; `raw=true` turns that
        off); `company` (ticker, code such as 600080 or 0700.HK, or name), `year` (fiscal year), `section`
        (risk_factors, mdna, business, ...) and `document` (doc_name or document_id) filter explicitly.
        Each hit's `text` is an exact substring of its physical page (`page`, 1-based). No numbers are computed
        here: use `ask` or `metrics` for values. Limits: k from 1 to 50; query at most 2,000 characters."""
        query = text("query", query)
        if not 1 <= k <= MAX_SEARCH_HITS:
            raise ToolError(f"k must be from 1 to {MAX_SEARCH_HITS} (got {k})")
        if year is not None and not 1900 <= year <= 2100:
            raise ToolError(f"year must be a fiscal year such as 2024 (got {year})")
        return as_jsonable(call(session.filings.search, query, company=company, year=year, section=section,
                                k=k, raw=raw, document=document))

    @server.tool(annotations=read_only)
    def metrics(company: str, metrics: list[str] | None = None, year_from: int | None = None,
                year_to: int | None = None, periods: list[str] | None = None) -> dict[str, Any]:
        """Stored metric values of one company: one row per listing, fiscal year, fiscal period and metric, with
        `value` (exact decimal string in base units of `currency`: yuan, HK$, US$, never thousands; per-share
        values per share; share counts in shares), accounting standard, period end, the printed label and unit,
        source document and page (or XBRL fact id), and basis (`source_kind` own_report / comparative,
        `restated`). `company`: ticker (AAPL), code (600080, 2359.HK) or name. `metrics`: canonical ids or
        aliases (revenue, net_income_parent, capex, 营业收入...; all when omitted). `year_from`/`year_to`:
        fiscal years (the year in which the fiscal year ends). `periods`: FY, Q1-Q4, H1, 9M. Ratios are not
        stored: ask for them with `ask`. Limit: one company per call."""
        company = text("company", company)
        years = (year_from, year_to) if year_from is not None or year_to is not None else None
        if years is not None:
            years = (years[0] or years[1], years[1] or years[0])
        frame = call(session.filings.metrics, company, years=years, metrics=metrics or None,
                     periods=[p.upper() for p in periods] if periods else None)
        with session.lock:
            company_id = session.filings.company_id(company)
        return as_jsonable({"company_id": company_id, "rows": records(frame)})

    @server.tool(annotations=read_only)
    def compare(companies: list[str], metric: str, year_from: int | None = None, year_to: int | None = None,
                period: str = "FY") -> dict[str, Any]:
        """One metric across companies by fiscal year: per company and listing, its currency, accounting
        standard and the exact value of each year (decimal strings in base units of that currency; values in
        different currencies are NOT converted here; `ask` converts with a dated FX rate). `companies`: 2-20
        tickers, codes or names; `metric`: a canonical id or alias; `period`: FY (default), Q1-Q4, H1 or 9M."""
        if not 1 <= len(companies) <= 20:
            raise ToolError(f"give 1 to 20 companies (got {len(companies)})")
        metric = text("metric", metric)
        years = None
        if year_from is not None or year_to is not None:
            years = (year_from or year_to, year_to or year_from)
        frame = call(session.filings.compare, [text("company", c) for c in companies], metric, years=years,
                     period=period.upper())
        rows = []
        for r in records(frame):
            values = {str(k): v for k, v in r.items() if isinstance(k, int) and v is not None}
            rows.append({key: r.get(key) for key in ("company_id", "stock_code", "currency", "accounting_standard")}
                        | {"values": values})
        return as_jsonable({"metric": metric, "period": period.upper(), "rows": rows})

    @server.tool(annotations=read_only)
    def sql(query: str) -> dict[str, Any]:
        """Run ONE read-only SELECT over the warehouse tables (documents, pages, facts, document_metrics,
        financial_metrics, sections, companies, securities, aliases, ingest_runs, meta). Writes, ATTACH, COPY,
        SET, INSTALL and file reads are refused with the reason; statements run under the warehouse's time and
        memory limits. `metric_value` / `value` are exact DECIMAL(38,6) in base units (returned as strings).
        Returns at most 500 rows (`truncated` says when there were more): aggregate or LIMIT in SQL."""
        query = text("query", query)
        try:
            with session.lock:
                result = sql_mod.run(session.filings.con, query, max_rows=MAX_SQL_ROWS)
        except FilingsError as exc:
            raise ToolError(f"refused: {exc}") from None
        columns, rows = result
        return as_jsonable({"columns": columns, "rows": [list(r) for r in rows], "row_count": len(rows),
                            "truncated": result.truncated})

    @server.tool(annotations=read_only)
    def companies(market: str | None = None) -> dict[str, Any]:
        """Companies in the company master and the warehouse, with their listings (A-share six-digit codes,
        HK codes as 0700.HK, US tickers), names in English and Chinese, and how many documents and metric rows
        are stored for each. `market`: A, HK or US (all when omitted)."""
        if market is not None and market.upper() not in {"A", "HK", "US"}:
            raise ToolError(f"market must be A, HK or US (got {market!r})")
        return as_jsonable({"companies": records(call(session.filings.companies,
                                                      market.upper() if market else None))})

    if hasattr(session.filings, "coverage"):
        @server.tool(annotations=read_only)
        def coverage(company: str | None = None, document: str | None = None) -> dict[str, Any]:
            """How complete the stored metrics are: per document and period, each core metric of its kind as
            present / derived / missing (a parser gap) / not_printed, with value (exact decimal string in base
            units), page and printed label or the reason; per-market counts; every accounting-identity violation
            (assets = liabilities + equity, quarters adding up to the year, comparatives against earlier reports)
            or restatement with the pages of both sides. `company` (ticker, code or name) or `document`
            (doc_name or document_id) narrows it: the whole warehouse's report is long."""
            return as_jsonable(call(session.filings.coverage, company=company or None, document=document or None))

    @server.resource("filings://documents", name="documents", mime_type="application/json",
                     description="Every stored document: id, name, market, company, form, period, pages, and the "
                                 "URI template of its pages.")
    def documents() -> str:
        import json

        rows = call(sql_mod.run, session.filings.con,
                    "SELECT document_id, doc_name, market, company_id, stock_code, form, fiscal_year, "
                    "fiscal_period, period_end, pages FROM documents ORDER BY company_id, period_end")
        columns, data = rows
        return json.dumps(as_jsonable({"page_uri": PAGE_URI, "documents": [dict(zip(columns, r)) for r in data]}),
                          ensure_ascii=False)

    @server.resource(PAGE_URI, name="page", mime_type="text/plain",
                     description="One physical page (1-based) of a stored document: its text as stored (what "
                                 "citations' character spans index), headed by its source.")
    def page(document_id: str, page: str) -> str:
        with session.lock:
            doc = citations.document(session.filings.con, document_id)
            stored = None
            if doc is not None and page.isdigit() and 1 <= int(page) <= doc.pages:
                stored = citations.page(session.filings.con, doc.document_id, int(page))
        if doc is None:
            raise ResourceNotFoundError(f"unknown document id {document_id[:80]!r} (see filings://documents)")
        if stored is None:
            raise ResourceNotFoundError(f"{doc.doc_name} has pages 1-{doc.pages} (asked for {page[:20]!r})")
        head = (f"source: {doc.doc_name} page {int(page)} of {doc.pages} · document_id {doc.document_id} · "
                f"{doc.form or '-'} · {doc.stock_code or doc.company_id or '-'} · "
                f"{doc.fiscal_period or ''} {doc.fiscal_year or ''} · {doc.currency or '-'} / "
                f"{doc.accounting_standard or '-'}{' · text from OCR' if stored[1] else ''}")
        return f"{head}\n\n{stored[0]}"

    server.session = session
    return server


def mcp(http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP instead of stdio")] = False,
        host: Annotated[str, typer.Option("--host", help="Address for --http (loopback by default)")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", help="TCP port for --http")] = 8766,
        home: Annotated[Path | None, typer.Option("--home", help="Warehouse folder (default $FILINGS_HOME or "
                                                                 "./.filings)")] = None) -> None:
    """MCP server over the warehouse (read-only): tools ask, search, metrics, compare, sql, companies; a
    resource per document page. stdio by default (for an assistant that starts it), --http for streamable HTTP."""
    import sys

    from warehouse import store

    path = store.db_path(home)
    if not path.exists():
        sys.stderr.write(f"error: no warehouse at {path}: run `filings ingest PATH` first (or pass --home)\n")
        raise typer.Exit(2)
    server = build_server(home)
    if not http:
        server.run("stdio")
        return
    from mcp.server.transport_security import TransportSecuritySettings

    from filings.web.command import LOOPBACK_HOSTS, is_loopback

    if is_loopback(host):
        hosts = [f"{h}:{port}" for h in (*LOOPBACK_HOSTS, host)] + [*LOOPBACK_HOSTS, host]
        security = TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                             allowed_origins=[f"http://{h}" for h in hosts])
    else:
        sys.stderr.write(f"warning: binding {host}: anyone who can reach it can read the warehouse "
                         "(there is no authentication)\n")
        security = None
    sys.stderr.write(f"filings MCP server on http://{host}:{port}/mcp (read-only over {path})\n")
    server.run("streamable-http", host=host, port=port, transport_security=security)

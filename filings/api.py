"""``Filings``: the Python facade analysts use in notebooks.

    from filings import Filings
    f = Filings()                       # warehouse in $FILINGS_HOME or ./.filings
    f.ingest("../shared/corpus/us/ixbrl")
    f.metrics("AAPL", years=(2022, 2024), metrics=["revenue", "net_income_parent"])
    f.sql("SELECT * FROM financial_metrics WHERE metric_name = 'revenue'")

Frames keep exact values: ``value`` columns hold ``decimal.Decimal`` (object dtype), never float.
"""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pandas as pd

from filings import export
from schema import limits
from schema.errors import FilingsError
from warehouse import ingest as ingest_mod
from warehouse import lookup, sql as sql_mod, store


class Filings:
    def __init__(self, home: str | Path | None = None, read_only: bool = False):
        self.home = store.home_dir(home)
        self.read_only = read_only
        self._con = None
        self._router = None
        self._index = None

    # connections -------------------------------------------------------------------------------
    @property
    def con(self):
        if self._con is None:
            self._con = store.connect(self.home, read_only=self.read_only)
        return self._con

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None
        if self._con is not None:
            self._con.close()
            self._con = None
            self._router = None

    def __enter__(self) -> Filings:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def index(self):
        """The narrative search index (embedded Qdrant under the home, or a server by FILINGS_QDRANT_URL)."""
        if self._index is None:
            from vectorstore.index import NarrativeIndex

            self._index = NarrativeIndex(self.home)
        return self._index

    # writing ------------------------------------------------------------------------------------
    def ingest(self, *paths: str | Path, on_progress: Callable | None = None,
               on_total: Callable[[int], None] | None = None, index: bool = True) -> ingest_mod.IngestReport:
        """Ingest files / folders; with ``index`` (default) narrative units are embedded and indexed too."""
        on_stored = (lambda parsed: self.index.index_document(parsed, Path(parsed.info.file_name).stem)) if index else None
        return ingest_mod.ingest(self.con, paths, on_progress=on_progress, on_total=on_total, on_stored=on_stored)

    def index_missing(self, on_progress: Callable | None = None, only: list[str] | None = None,
                      rebuild: bool = False) -> int:
        """Index documents stored without search units (ingested with ``index=False``); ``only``: doc_names to
        consider (default all). ``rebuild`` drops the collections first and indexes every stored document again
        (after a change of chunking, tokenising or payload; embeddings come from the cache). Returns the number
        of documents indexed."""
        from vectorstore.index import MARKETS, collection_for
        from warehouse.lookup import stored_document

        if rebuild:
            for market in MARKETS:
                if self.index.engine.has_collection(collection_for(market)):
                    self.index.engine.drop_collection(collection_for(market))
        done = 0
        rows = self.con.execute("SELECT document_id, doc_name FROM documents ORDER BY document_id").fetchall()
        for document_id, name in rows:
            if only is not None and name not in only:
                continue
            parsed, doc_name = stored_document(self.con, document_id)
            name = collection_for(parsed.info.market)
            if self.index.engine.has_collection(name) and self.index.engine.count(name, {"document_id": document_id}):
                continue
            self.index.index_document(parsed, doc_name)
            done += 1
            if on_progress:
                on_progress(doc_name)
        return done

    # fetching -------------------------------------------------------------------------------------
    def fetch(self, *watchlist: str | Path, since=None, forms: list[str] | str = (), languages: list[str] | str = (),
              dry_run: bool = False, on_event: Callable[[str], None] | None = None):
        """Download new filings of a watchlist (a watchlist.csv and/or codes, tickers, names) from SEC EDGAR,
        cninfo and HKEXnews into ``<home>/cache``; nothing is ingested (see :meth:`update`). Returns the
        FetchReport (fetched, unchanged, skipped, failed, each with its reason)."""
        from warehouse.sources.fetch import Fetcher
        from warehouse.sources.watchlist import watch_entries

        with Fetcher(self.home, on_event=on_event, dry_run=dry_run) as fetcher:
            return fetcher.run(watch_entries([str(w) for w in watchlist]), _date(since), _words(forms), _words(languages))

    def update(self, *watchlist: str | Path, since=None, forms: list[str] | str = (), languages: list[str] | str = (),
               index: bool = True, on_event: Callable[[str], None] | None = None):
        """Fetch, then ingest what is new (and index it unless ``index=False``); a corrected report replaces the
        report it corrects. Returns the UpdateReport (added, superseded, unchanged, skipped, failed)."""
        from warehouse import update as update_mod
        from warehouse.sources.watchlist import watch_entries

        def on_removed(document_id: str, market: str | None) -> None:
            from vectorstore.index import collection_for

            if self.index.exists() and self.index.engine.has_collection(collection_for(market)):
                self.index.engine.delete_document(collection_for(market), document_id)

        report = update_mod.update(lambda: self.con, self.home, watch_entries([str(w) for w in watchlist]),
                                   ingest=lambda paths: self.ingest(*paths, index=index), on_removed=on_removed,
                                   since=_date(since), forms=_words(forms), languages=_words(languages),
                                   on_event=on_event)
        if index:  # documents an earlier, interrupted run stored but did not index
            ids = [i.document_id for i in report.items if i.status == "unchanged" and i.document_id]
            names = [r[0] for r in self.con.execute("SELECT doc_name FROM documents WHERE document_id IN "
                                                    "(SELECT unnest(?))", [ids]).fetchall()] if ids else []
            report.indexed = self.index_missing(only=names) if names else 0
        return report

    # questions -----------------------------------------------------------------------------------
    @property
    def router(self):
        if self._router is None:
            from router.answer import Router
            from router.search_route import make_searcher

            searcher = make_searcher(self.index) if self.index.exists() else None
            self._router = Router(self.con, searcher=searcher, home=self.home)
        return self._router

    def search(self, query: str, company: str | None = None, year: int | None = None, section: str | None = None,
               k: int = 20, raw: bool = False, document: str | None = None) -> dict:
        """Hybrid search. Companies, years and sections named in the query become filters unless ``raw``;
        explicit arguments are filters too; ``document`` (doc_name or document id) searches inside one document.
        Statements the query points at (balance sheet, a ratio's inputs) bring their pages forward.
        Returns {query, filters_applied, hits} (DESIGN.md section 4). ``k``: 1 to ``limits.SEARCH_K``."""
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= limits.SEARCH_K.value():
            raise FilingsError(f"k must be a whole number from 1 to {limits.SEARCH_K.value()} (got {k!r})")
        from router.search_route import content_query, filters_for, statements_hint, widenings
        from vectorstore.hybrid import diversify

        plan = self.plan(query)
        filters: dict = {} if raw else filters_for(plan)
        hint = statements_hint(plan)
        keywords = None if raw else content_query(plan)
        if not raw and filters.get("kind") == ["narrative", "transcript"]:
            del filters["kind"]  # search shows statement pages too (the page behind a number)
        if document:
            filters = {key: v for key, v in filters.items() if key in ("section", "kind")}
            filters["document_id"] = [self.document_id(document)]
        if company:
            filters["company_id"] = [self.company_id(company)]
        if year:
            filters["fiscal_year"] = [int(year)]
        if section:
            filters["section"] = [section]
        hits = self.index.search(query, filters, k=k * 3, statements_hint=hint, keywords=keywords) if self.index.exists() else []
        for looser in widenings(filters):
            if hits or not self.index.exists():
                break
            hits = self.index.search(query, looser, k=k * 3, statements_hint=hint, keywords=keywords)
        if not filters.get("company_id") and not filters.get("document_id"):
            hits = diversify(hits, per_company=3, k=k)
        hits = hits[:k]
        return {"query": query, "filters_applied": filters, "hits": [
            {"document_id": h.payload["document_id"], "doc_name": h.payload["doc_name"], "page": h.payload["page"],
             "section": h.payload.get("section"), "company_id": h.payload.get("company_id"),
             "stock_code": h.payload.get("stock_code"), "fiscal_year": h.payload.get("fiscal_year"),
             "text": h.payload["text"], "score": round(h.score, 6)} for h in hits]}

    def document_id(self, document: str) -> str:
        row = self.con.execute("SELECT document_id FROM documents WHERE document_id = ? OR doc_name = ? "
                               "ORDER BY ingested_at DESC LIMIT 1", [document, document]).fetchone()
        if row is None:
            raise FilingsError(f"unknown document {document!r}: give a doc_name or document id as listed by "
                               "`filings sql \"SELECT doc_name, document_id FROM documents\"`")
        return row[0]

    def plan(self, question: str):
        """The typed QueryPlan of a question (companies, periods, metrics, intent, route)."""
        return self.router.planner.plan(question)

    def ask(self, question: str):
        """An Answer (DESIGN.md section 4): rows with currency, standard and source; passages with citations;
        status no_data with the reason when the warehouse cannot answer."""
        return self.router.ask(question)

    # reading ------------------------------------------------------------------------------------
    def sql(self, query: str, max_rows: int | None = None) -> pd.DataFrame:
        """A read-only SELECT over the warehouse tables as a DataFrame (DECIMAL stays Decimal), through the same
        guard and limits as `filings sql` (time, memory; at most ``max_rows`` rows, default
        ``limits.SQL_MAX_ROWS``: a cut result warns and has ``frame.attrs["truncated"]``)."""
        result = sql_mod.run(self.con, query, max_rows=max_rows)
        frame = pd.DataFrame.from_records(result.rows, columns=result.columns)
        frame.attrs["truncated"] = result.truncated
        if result.truncated:
            warnings.warn(f"only the first {len(result.rows):,} rows were fetched; narrow the query or pass "
                          "max_rows", stacklevel=2)
        return frame

    def companies(self, market: str | None = None) -> pd.DataFrame:
        return pd.DataFrame(lookup.company_rows(self.con, market))

    def company_id(self, company: str) -> str:
        company_id = lookup.resolve_company(self.con, company)
        if company_id is None:
            raise FilingsError(lookup.unknown_company_message(self.con, company))
        return company_id

    def metrics(self, company: str, years: tuple[int, int] | int | None = None,
                metrics: list[str] | str | None = None, periods: list[str] | str | None = None,
                basis: str = "latest") -> pd.DataFrame:
        """Tidy rows: one per listing, fiscal year, fiscal period and metric, with currency, standard and source.
        ``basis``: "latest" (default: restated / split-adjusted, from the latest report that prints the period)
        or "as_reported" (each period as first reported); ``other_basis_value`` holds the other one."""
        if isinstance(years, int):
            years = (years, years)
        if isinstance(metrics, str):
            metrics = [m.strip() for m in metrics.split(",") if m.strip()]
        if isinstance(periods, str):
            periods = [p.strip().upper() for p in periods.split(",") if p.strip()]
        ids, unknown = lookup.resolve_metrics(metrics or [])
        if unknown:
            raise FilingsError(f"unknown metric(s) {', '.join(unknown)}: see mappings/metrics.yaml for the ids")
        rows = lookup.metric_rows(self.con, self.company_id(company), *(years or (None, None)), ids, periods, basis)
        return export.tidy(rows)

    def pivot(self, company: str, years: tuple[int, int] | int | None = None,
              metrics: list[str] | str | None = None, periods: list[str] | str | None = "FY") -> pd.DataFrame:
        """Years x metrics for one company: one row per listing and period, one column per metric, Decimal values."""
        return export.pivot(self.metrics(company, years=years, metrics=metrics, periods=periods))

    @staticmethod
    def export(frame: pd.DataFrame, path: str | Path, fmt: str | None = None) -> Path:
        """Write a frame exactly (csv, json, xlsx or parquet, from the suffix unless ``fmt``); returns the path."""
        path = Path(path)
        export.write(frame, fmt or path.suffix.lstrip(".").lower(), path)
        return path

    def plot(self, companies: list[str] | str, metric: str, years: tuple[int, int] | None = None,
             period: str = "FY", ax=None):
        """A line chart of one metric across companies and fiscal years (matplotlib Axes). Values are drawn in
        each listing's own currency (the legend says which); the frame behind it is ``compare``'s."""
        import matplotlib.pyplot as plt

        if isinstance(companies, str):
            companies = [companies]
        ax = ax or plt.subplots(figsize=(7, 4))[1]
        ids, unknown = lookup.resolve_metrics([metric])
        if unknown:
            raise FilingsError(f"unknown metric {metric!r}: see mappings/metrics.yaml for the ids")
        frames = [self.metrics(company, years=years, metrics=ids, periods=[period]) for company in companies]
        frames = [fr for fr in frames if not fr.empty]
        if not frames:
            raise FilingsError(f"no {ids[0]} stored for {', '.join(companies)} ({period}, years {years or 'any'})")
        kind = lookup.metric_catalogue()[ids[0]].kind
        largest = max(abs(v) for fr in frames for v in fr["value"])
        scale, word = next(((s, w) for s, w in ((9, "billions"), (6, "millions"), (3, "thousands")) if kind == "money"
                            and largest >= Decimal(10) ** s), (0, ""))
        for frame in frames:
            for (code, currency), part in frame.groupby(["stock_code", "currency"], dropna=False):
                part = part.sort_values("fiscal_year")
                # a chart needs floats: the exact values stay in the frame
                ax.plot(part["fiscal_year"], [float(lookup.scaled(v, scale)) for v in part["value"]], marker="o",
                        label=f"{code} ({currency if isinstance(currency, str) else 'units'})")
        name = lookup.metric_catalogue()[ids[0]].name_en
        ax.set_ylabel(f"{word} of the currency shown" if word else ("%" if kind == "percent" else ""))
        ax.set_title(f"{name}, {period}")
        ax.set_xlabel("fiscal year")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.legend()
        return ax

    def coverage(self, company: str | None = None, document: str | None = None) -> dict:
        """Core metrics per document and period (present / derived / missing / not_printed, with value, page and
        printed label or the reason), per-market counts, and every identity violation or restatement with the
        pages of both sides: {documents, summary, identities, rows, findings} (`filings coverage --json`)."""
        from warehouse.coverage import report

        return report(self.con, self.company_id(company) if company else None,
                      self.document_id(document) if document else None)

    def compare(self, companies: list[str], metric: str, years: tuple[int, int] | None = None,
                period: str = "FY") -> pd.DataFrame:
        """One metric across companies: a wide frame (company x fiscal year) of exact values, plus currency."""
        frames = [self.metrics(c, years=years, metrics=[metric], periods=[period]) for c in companies]
        frames = [f for f in frames if not f.empty]
        if not frames:
            return pd.DataFrame()
        tidy = pd.concat(frames, ignore_index=True)
        wide = tidy.pivot_table(index=["company_id", "stock_code", "currency", "accounting_standard"],
                                columns="fiscal_year", values="value", aggfunc="first")
        return wide.reset_index()


def _words(value: list[str] | tuple[str, ...] | str | None) -> tuple[str, ...]:
    if isinstance(value, str):
        value = value.split(",")
    return tuple(w.strip() for w in value or () if w and w.strip())


def _date(value) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise FilingsError(f"since must be a date like 2024-01-31 (got {value!r})") from None

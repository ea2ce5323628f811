"""``Filings``: the Python facade analysts use in notebooks.

    from filings import Filings
    f = Filings()                       # warehouse in $FILINGS_HOME or ./.filings; reads never block a writer
    f.ingest("../shared/corpus/us/ixbrl")  # the writer for this call (waits for, or refuses, another one)
    f.metrics("AAPL", years=(2022, 2024), metrics=["revenue", "net_income_parent"])
    f.sql("SELECT * FROM financial_metrics WHERE metric_name = 'revenue'")

Frames keep exact values: ``value`` columns hold ``decimal.Decimal`` (object dtype), never float.
"""

from __future__ import annotations

import datetime as dt
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import pandas as pd

from filings.frames import Frames
from schema.errors import FilingsError
from warehouse import ingest as ingest_mod
from warehouse import lookup, sql as sql_mod, store, versions


class Filings(Frames):
    """``read_only``: None (the default) reads the current published version of the warehouse, and each write
    method (:meth:`ingest`, :meth:`update`, :meth:`index_missing`) is the writer for the length of its call
    (``warehouse.writer``: the lock, a private copy, versions published as it goes); True refuses writing;
    False is the writer from the first use until :meth:`close` (the lock held; reads see its own writes).
    A reader notices a newer published version and reopens on the next call; it never blocks a writer and
    never writes a byte (query vectors stay in memory)."""

    def __init__(self, home: str | Path | None = None, read_only: bool | None = None):
        self.home = store.home_dir(home)
        self.read_only = read_only
        self._con = None  # the reader's connection, to the version in ``_version``
        self._version: Path | None = None
        self._index = None  # the reader's index (its own view of the version's shards)
        self._router = None
        self._searcher = None
        self._bound = None  # the connection router and searcher were built on
        self._writer = None  # warehouse.writer.Writer while writing
        self._writer_index = None
        self.index_failures: list[tuple[str, str]] = []  # (doc_name, reason) of the last index_missing

    # connections -------------------------------------------------------------------------------
    @property
    def con(self):
        if self._writer is None and self.read_only is False:
            self._open_writer()
        if self._writer is not None:
            return self._writer.con
        if self._con is not None and versions.current_db(self.home) != self._version:
            self._close_reader()  # a newer version was published: read that one from now on
        if self._con is None:
            self._version = versions.current_db(self.home)
            self._con = store.connect(self.home, read_only=True)
        return self._con

    @property
    def index(self):
        """The narrative search index (embedded Qdrant shards of the version read, or a server by
        FILINGS_QDRANT_URL)."""
        from vectorstore.index import NarrativeIndex

        self.con  # noqa: B018  (opens, or moves to, the current version first)
        if self._writer is not None:
            return self._writer_idx()
        if self._index is None:
            if not self._version.exists() and self._version != versions.link_path(self.home):
                self._close_reader()  # its version was removed since it was opened: read the current one
                self.con  # noqa: B018
            self._index = NarrativeIndex(self.home, shards=self._version.parent / versions.QDRANT, read_only=True)
        return self._index

    def close(self) -> None:
        try:
            self._close_writer()
        finally:
            self._close_reader()

    def __enter__(self) -> Filings:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _close_reader(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None
        if self._con is not None:
            self._con.close()
            self._con = None
        self._router = self._searcher = self._bound = None

    def _open_writer(self) -> None:
        from warehouse.writer import Writer

        if self.read_only:
            raise FilingsError(f"{self.home}: this Filings was opened read-only; write with Filings(home) or "
                               "Filings(home, read_only=False)")
        self._writer = Writer(self.home)
        self._writer.hooks.append(self._publish_index)
        self._router = self._searcher = self._bound = None

    def _close_writer(self) -> None:
        writer, self._writer = self._writer, None
        if writer is None:
            return
        try:
            writer.publish()
        finally:
            if self._writer_index is not None:
                self._writer_index.close()
                self._writer_index = None
            writer.close(publish=False)
            self._router = self._searcher = self._bound = None
            self._close_reader()

    @contextmanager
    def _writing(self):
        """The writer for one write method: the facade's own (read_only=False, or an enclosing call), else one
        opened for this call and closed (published) at its end."""
        if self._writer is not None or self.read_only is False:
            _ = self.con
            yield self._writer
            return
        self._open_writer()
        try:
            yield self._writer
        finally:
            self._close_writer()

    def _writer_idx(self):
        """The writer's index: its private copy of the shards (copied from the current version on first use)."""
        from vectorstore.shards import publish_shards
        from vectorstore.index import NarrativeIndex

        if self._writer_index is None:
            private = self._writer.private / versions.QDRANT
            published = versions.qdrant_dir(self.home)
            index = NarrativeIndex(self.home, shards=private)
            if not index.url and not private.exists() and published.is_dir():
                publish_shards(published, private)
            self._writer_index = index
        return self._writer_index

    def _publish_index(self, folder: Path, previous: Path) -> None:
        """Writer hook: the new version's shards (the writer's, flushed; or the previous version's, linked)."""
        from vectorstore.shards import link_tree, publish_shards

        index = self._writer_index
        if index is not None and index.url:
            return
        if index is not None and index.shards.is_dir():
            index.flush()
            publish_shards(index.shards, folder / versions.QDRANT)
        elif (previous / versions.QDRANT).is_dir():
            link_tree(previous / versions.QDRANT, folder / versions.QDRANT)

    # writing ------------------------------------------------------------------------------------
    def ingest(self, *paths: str | Path, on_progress: Callable | None = None,
               on_total: Callable[[int], None] | None = None, index: bool = True,
               dense: bool = True, on_embedded: Callable[[str], None] | None = None,
               cluster: str | None = None) -> ingest_mod.IngestReport:
        """Ingest files / folders. With ``index`` (default) each stored document's search units go in with it,
        searchable by keywords (BM25) as soon as the document is published; then, with ``dense`` (default), the
        prose units of the new documents get their dense vectors (``on_embedded(doc_name)`` after each), and
        documents stored earlier whose index is missing, failed, stale or keywords-only are completed.
        ``dense=False`` leaves the dense vectors to :meth:`index_missing` (`filings index`). Readers see each
        document whole once it is published (after it, every few seconds, and at the end). ``cluster``: where
        parsing runs (``warehouse.cluster``: ``ray://host:port``, ``local-ray``; default the process pool)."""
        from warehouse.cluster import LocalCluster, open_cluster, resolve_spec
        from warehouse.parse_pool import default_workers

        executor = open_cluster(resolve_spec(cluster) if isinstance(cluster, str) or cluster is None else cluster,
                                default_workers())
        with self._writing() as writer, _closing(executor, owned=executor is not cluster):
            if index and dense:  # a first ingest on a machine exports the model graphs before any parse worker runs
                self._writer_idx().prepare_models()

            def progress(result) -> None:
                writer.changed()
                if on_progress:
                    on_progress(result)
                writer.maybe_publish()

            on_stored = (lambda parsed: self._index_one(parsed, Path(parsed.info.file_name).stem, dense=False)) \
                if index else None
            report = ingest_mod.ingest(writer.con, paths, on_progress=progress, on_total=on_total,
                                       on_stored=on_stored, cluster=executor)
            if index:
                earlier = {r.document_id for r in report.results if r.status == "unchanged" and r.document_id}
                added = {r.document_id for r in report.results if r.status == "added" and r.document_id}
                writer.publish()  # every new document searchable by keywords before the first one is embedded
                if not isinstance(executor, LocalCluster):  # a cluster embeds the passages too
                    self._writer_idx().passages_via = _embed_on(executor)
                report.indexed = self.index_missing(only_ids=earlier, dense=dense) if earlier else 0
                failures = list(self.index_failures)
                if dense and added:
                    report.embedded = self.index_missing(only_ids=added, on_progress=on_embedded)
                report.index_failures = failures + self.index_failures
                self._writer_idx().passages_via = None
            return report

    def _index_one(self, parsed, doc_name: str, dense: bool = True) -> int:
        """Index one stored document with the writer (``filings.indexing``): BM25 units, dense vectors too with
        ``dense``."""
        from filings import indexing

        self._writer.changed()
        return indexing.index_one(self._writer.con, self._writer_idx(), parsed, doc_name, dense=dense)

    def index_missing(self, on_progress: Callable | None = None, only: list[str] | None = None,
                      rebuild: bool = False, only_ids: set[str] | None = None, dense: bool = True) -> int:
        """Index the stored documents whose index state (table ``index_state``) is missing, failed, stale
        (embedded with another model than its collection's now) or keywords-only (dense vectors pending; left
        so when ``dense`` is False); ``only``: doc_names (``only_ids``: document ids) to consider (default all).
        ``rebuild`` drops the collections first and indexes every stored document again (after a change of
        chunking, tokenising or payload; embeddings come from the cache). Returns the number of documents
        indexed; failures are in ``self.index_failures``."""
        from filings import indexing

        self.index_failures = []
        with self._writing() as writer:
            done, self.index_failures = indexing.complete(
                writer.con, self._writer_idx(), changed=writer.changed, checkpoint=writer.maybe_publish, only=only,
                only_ids=only_ids, rebuild=rebuild, dense=dense, on_progress=on_progress)
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
               index: bool = True, on_event: Callable[[str], None] | None = None, cluster: str | None = None):
        """Fetch, then ingest what is new (and index it unless ``index=False``); a corrected report replaces the
        report it corrects. Returns the UpdateReport (added, superseded, unchanged, skipped, failed)."""
        from warehouse import update as update_mod
        from warehouse.sources.watchlist import watch_entries

        if self.read_only:
            raise FilingsError(f"{self.home}: this Filings was opened read-only; update with Filings(home)")
        opened = self._writer is None and self.read_only is not False

        def connect():  # after the fetch: the network part holds no writer lock
            if self._writer is None:
                self._open_writer()
            return self._writer.con

        def on_removed(document_id: str, market: str | None) -> None:
            from vectorstore.index import collection_for

            index = self._writer_idx()
            if index.exists() and index.engine.has_collection(collection_for(market)):
                index.engine.delete_document(collection_for(market), document_id)
            self._writer.con.execute("DELETE FROM index_state WHERE document_id = ?", [document_id])
            self._writer.changed()

        try:
            report = update_mod.update(connect, self.home, watch_entries([str(w) for w in watchlist]),
                                       ingest=lambda paths: self.ingest(*paths, index=index, cluster=cluster),
                                       on_removed=on_removed,
                                       since=_date(since), forms=_words(forms), languages=_words(languages),
                                       on_event=on_event)
            if index:  # documents an earlier, interrupted run stored but did not index (or whose index failed)
                ids = {i.document_id for i in report.items if i.status == "unchanged" and i.document_id}
                report.indexed = self.index_missing(only_ids=ids) if ids else 0
        finally:
            if opened:
                self._close_writer()
        return report

    # questions -----------------------------------------------------------------------------------
    def _bind(self):
        """The connection of this call; router and searcher are rebuilt when it changed (a newer version)."""
        con = self.con
        if self._bound is not con:
            self._router = self._searcher = None
            self._bound = con
        return con

    @property
    def router(self):
        self._bind()
        if self._router is None:
            from router.answer import Router
            from router.search_route import EvidenceSearcher

            pipeline = self.searcher
            searcher = EvidenceSearcher(pipeline) if pipeline.available else None
            self._router = Router(self._bind(), searcher=searcher, home=self.home)
        return self._router

    @property
    def searcher(self):
        """The one search pipeline (router.search.SearchPipeline) over this warehouse's index."""
        index = self.index  # first: it may move to the current version (the one it was opened on was removed)
        con = self._bind()
        if self._searcher is None:
            from router.plan import Planner
            from router.search import SearchPipeline

            planner = self._router.planner if self._router is not None else Planner(con)
            self._searcher = SearchPipeline(con, index, planner)
        return self._searcher

    def search(self, query: str, company: str | None = None, year: int | None = None, section: str | None = None,
               k: int = 20, raw: bool = False, document: str | None = None) -> dict:
        """Hybrid search (router.search: filters from the query unless ``raw``, explicit filters, widening,
        statement pages, fusion, diversification); ``document`` (doc_name or id) searches inside one document.
        Returns {query, filters_applied, hits} (DESIGN.md section 4); filters_applied is what found the hits."""
        return self.searcher.search(query, company=company, year=year, section=section, k=k, raw=raw,
                                    document=document).as_json()

    def document_id(self, document: str) -> str:
        return self.searcher.document_id(document)

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
        return lookup.require_company(self.con, company)

    def coverage(self, company: str | None = None, document: str | None = None) -> dict:
        """Core metrics per document and period (present / derived / missing / not_printed, with value, page and
        printed label or the reason), per-market counts, and every identity violation or restatement with the
        pages of both sides: {documents, summary, identities, rows, findings} (`filings coverage --json`)."""
        from warehouse.coverage import report

        return report(self.con, self.company_id(company) if company else None,
                      self.document_id(document) if document else None)


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


@contextmanager
def _closing(executor, owned: bool):
    try:
        yield executor
    finally:
        if owned:
            executor.close()


def _embed_on(executor) -> Callable:
    """(setting, texts) -> passage vectors, embedded by the cluster's workers with the bundled provider."""
    from vectorstore.embedding_base import BATCH_SIZE
    from vectorstore.embeddings import provider_for

    return lambda setting, texts: executor.embed(setting, texts, BATCH_SIZE, provider_for)


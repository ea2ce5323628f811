"""Ingest: walk paths, parse each filing, store it atomically, report per document.

Idempotent by content: a document is keyed by the sha256 of its bytes, so a second run adds nothing.
Atomic per document: pages, facts and metrics of one document go in one transaction, or nothing does.
A failure names the file and the reason, and the batch goes on.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import duckdb
import pyarrow as pa

from mappings.companies import alias_key, company_for_cik, company_for_code, normalise_code, slug
from schema.errors import FilingsError
from schema.models import DocumentInfo, ParsedDocument
from warehouse import metrics, statement_reads, walk
from warehouse.cluster import Cluster, open_cluster, resolve_spec
from warehouse.parse_pool import default_workers

_Q = Decimal("0.000001")


@dataclass
class DocumentResult:
    path: str
    status: str  # added | unchanged | failed | skipped
    document_id: str | None = None
    reason: str | None = None
    seconds: float = 0.0
    info: DocumentInfo | None = None
    pages: int = 0
    facts: int = 0
    metrics: int = 0


@dataclass
class IngestReport:
    run_id: str
    results: list[DocumentResult] = field(default_factory=list)
    indexed: int = 0  # documents stored earlier whose search index was missing, failed or stale: indexed now
    embedded: int = 0  # documents of this run whose prose units got their dense vectors after the keyword index
    index_failures: list[tuple[str, str]] = field(default_factory=list)  # (doc_name, reason): stored, not all indexed

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def failed(self) -> list[DocumentResult]:
        return [r for r in self.results if r.status == "failed"]


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def ingest(con: duckdb.DuckDBPyConnection, paths: Iterable[str | Path],
           on_progress: Callable[[DocumentResult], None] | None = None,
           on_total: Callable[[int], None] | None = None,
           on_stored: Callable[[ParsedDocument], None] | None = None,
           workers: int | None = None, isolate: bool = True, cluster: str | Cluster | None = None) -> IngestReport:
    """Ingest files and folders. Parsing runs in ``workers`` spawned processes (default: the machine's cores),
    each under the memory and time limits of ``warehouse.parse_pool`` (``isolate=False``: in this process), or
    on the Ray cluster ``cluster`` names (``warehouse.cluster``: ``ray://host:port``, ``local-ray``; default
    ``FILINGS_RAY_ADDRESS``); storing is sequential on this process, one transaction per document.
    ``on_stored`` sees each added document.

    Every path gets a result: files added / unchanged / failed, files with a filing extension that no parser
    reads ``skipped`` with the reason, folders with nothing to read ``failed`` (``warehouse.walk``). A file with
    the same content as another one of the batch gets the outcome of that one (unchanged, or failed: "same
    content as X, which failed: ...")."""
    if not isinstance(cluster, Cluster):
        cluster = resolve_spec(cluster)  # a misspelt address fails before any work
    report = IngestReport(run_id=uuid.uuid4().hex[:12])
    started = dt.datetime.now()
    planned = walk.plan(paths)
    if on_total:
        on_total(len(planned.files) + len(planned.skipped) + len(planned.refused))

    def finish(result: DocumentResult) -> None:
        report.results.append(result)
        con.execute("INSERT INTO ingest_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [report.run_id, started, dt.datetime.now(), result.path, result.document_id, result.status,
                     result.reason, result.seconds])
        if on_progress:
            on_progress(result)

    for path, reason in planned.refused:
        finish(DocumentResult(path=str(path), status="failed", reason=reason))
    for path, reason in planned.skipped:
        finish(DocumentResult(path=str(path), status="skipped", reason=reason))
    todo: list[tuple[Path, str]] = []
    first: dict[str, Path] = {}  # document id -> the batch's first file with that content
    copies: list[tuple[Path, str]] = []  # later files with the same content: they share the first one's outcome
    for path in planned.files:
        try:
            document_id = sha256_file(path)
        except OSError as exc:
            finish(DocumentResult(path=str(path), status="failed", reason=f"{path}: cannot be read ({exc.strerror})"))
            continue
        if document_id in first:
            copies.append((path, document_id))
            continue
        first[document_id] = path
        known = con.execute("SELECT 1 FROM documents WHERE document_id = ?", [document_id]).fetchone()
        replaced = None if known else con.execute(
            "SELECT superseded_by FROM superseded WHERE document_id = ?", [document_id]).fetchone()
        if replaced:
            finish(DocumentResult(path=str(path), status="skipped", document_id=document_id,
                                  reason=f"{path}: superseded by the corrected document {replaced[0]}; not ingested"))
        elif known:
            finish(DocumentResult(path=str(path), status="unchanged", document_id=document_id))
        else:
            todo.append((path, document_id))
    ids = dict(todo)
    t0 = time.perf_counter()
    if ids:
        executor = open_cluster(cluster, workers or default_workers())
        try:
            for path, parsed, error in executor.parse(ids, isolate=isolate):
                finish(_store_result(con, path, ids[path], parsed, error, t0, on_stored))
        finally:
            if executor is not cluster:
                executor.close()
    outcome = {r.document_id: r for r in report.results if r.document_id and Path(r.path) == first.get(r.document_id)}
    for path, document_id in copies:
        finish(_copy_result(path, document_id, outcome.get(document_id)))
    return report


def _copy_result(path: Path, document_id: str, original: DocumentResult | None) -> DocumentResult:
    """The result of a file whose content another file of the batch already had."""
    if original is None or original.status in ("added", "unchanged"):
        where = f" as {Path(original.path).name}" if original else ""
        return DocumentResult(path=str(path), status="unchanged", document_id=document_id,
                              reason=f"{path}: same content{where}", info=original.info if original else None)
    return DocumentResult(path=str(path), status=original.status, document_id=document_id,
                          reason=f"{path}: same content as {Path(original.path).name}, which "
                                 f"{'failed' if original.status == 'failed' else 'was skipped'}: {original.reason}")


def _store_result(con: duckdb.DuckDBPyConnection, path: Path, document_id: str, parsed: ParsedDocument | None,
                  error: str | None, t0: float, on_stored: Callable[[ParsedDocument], None] | None) -> DocumentResult:
    result = DocumentResult(path=str(path), status="failed", document_id=document_id, reason=error)
    if parsed is not None:
        parsed.info.document_id = document_id
        parsed.info.file_name = path.name
        try:
            _store(con, path, parsed)
            if on_stored:
                on_stored(parsed)
        except FilingsError as exc:
            result.reason = str(exc)
        except duckdb.Error as exc:
            result.reason = f"{path}: could not store ({str(exc).splitlines()[0]})"
        else:
            result.status, result.reason, result.info = "added", None, parsed.info
            result.pages, result.facts = len(parsed.pages), len(parsed.facts)
            result.metrics = con.execute(
                "SELECT count(*) FROM document_metrics WHERE document_id = ?", [document_id]).fetchone()[0]
    result.seconds = time.perf_counter() - t0
    return result


def ingest_one(con: duckdb.DuckDBPyConnection, path: Path) -> DocumentResult:
    """One file, parsed in this process (benchmarks, tests)."""
    report = ingest(con, [path], workers=1, isolate=False)
    return report.results[0]


def _collisions(con: duckdb.DuckDBPyConnection, company_id: str, names: list[str | None]) -> list[str]:
    """The alias-collision check for a company met in a filing: names another company already answers to."""
    problems = []
    for name in filter(None, names):
        rows = con.execute("SELECT DISTINCT company_id FROM aliases WHERE alias_key = ? AND company_id <> ?",
                           [alias_key(name), company_id]).fetchall()
        problems += [f"name {name!r} of new company {company_id} is already an alias of {r[0]}: it will not "
                     "identify either company in questions" for r in rows]
    return problems


def _resolve_company(con: duckdb.DuckDBPyConnection, info: DocumentInfo) -> list[str]:
    """Attach the document to a company of the master, or register the company the filing names (after the
    alias-collision check). Returns warnings."""
    if info.stock_code:
        info.stock_code = normalise_code(info.stock_code) or info.stock_code
    company = company_for_cik(info.cik) or (company_for_code(info.stock_code) if info.stock_code else None)
    if company is None:
        row = None
        if info.stock_code:
            row = con.execute("SELECT company_id FROM securities WHERE stock_code = ?", [info.stock_code]).fetchone()
        if row is None and info.cik:
            row = con.execute("SELECT company_id FROM companies WHERE cik = ?", [info.cik]).fetchone()
        if row:
            info.company_id = row[0]
            if not info.stock_code:  # a document that names its issuer by CIK only (SEC companyfacts)
                listing = con.execute("SELECT min(stock_code) FROM securities WHERE company_id = ? AND market = ?",
                                      [info.company_id, info.market]).fetchone()
                info.stock_code = listing[0] if listing else None
            return []
        if not info.stock_code:
            info.company_id = None
            return []
        info.company_id = slug(info.company_name or info.stock_code)
        if con.execute("SELECT 1 FROM companies WHERE company_id = ?", [info.company_id]).fetchone():
            info.company_id = slug(f"{info.company_id}_{info.stock_code}")
        con.execute(
            "INSERT INTO companies VALUES (?, ?, ?, ?, 'filing')",
            [info.company_id, info.company_name if info.language == "en" or info.market == "US" else None,
             None if info.market == "US" else info.company_name, info.cik],
        )
        listing = {"US": "US", "A": "A", "HK": "H"}[info.market or "US"]
        con.execute("INSERT OR IGNORE INTO securities VALUES (?, ?, ?, ?, NULL)",
                    [info.stock_code, info.company_id, info.market, listing])
        for code in info.other_codes:
            norm = normalise_code(code)
            if norm:
                market = "HK" if norm.endswith(".HK") else ("A" if norm.isdigit() else "US")
                con.execute("INSERT OR IGNORE INTO securities VALUES (?, ?, ?, ?, NULL)",
                            [norm, info.company_id, market, {"HK": "H", "A": "A", "US": "US"}[market]])
        return _collisions(con, info.company_id, [info.company_name])
    info.company_id = company.company_id
    return []


def _name_key(kind: str, text: str) -> tuple[str, str] | None:
    """(alias as stored, alias_key) for a printed name; codes in their one spelling (02359 -> 2359.HK)."""
    if kind in ("code", "ticker"):
        code = normalise_code(text)
        return (code, alias_key(code)) if code else None
    if kind == "cik":
        return (text.zfill(10), text.zfill(10)) if text.isdigit() else None
    return text, alias_key(text)


def _record_names(con: duckdb.DuckDBPyConnection, info: DocumentInfo) -> list[str]:
    """Record every name form the document prints about its issuer in the company master (aliases, with the
    document and page), once per company and name; warn when another company already answers to it (such a
    name identifies neither company in questions)."""
    if not info.company_id:
        return []
    warnings = []
    for name in info.names:
        stored = _name_key(name.kind, name.text)
        if stored is None:
            continue
        alias, key = stored
        if con.execute("SELECT 1 FROM aliases WHERE alias_key = ? AND company_id = ? AND document_id IS NOT NULL",
                       [key, info.company_id]).fetchone():
            continue
        con.execute("INSERT INTO aliases (alias, alias_key, company_id, kind, document_id, page) VALUES (?, ?, ?, ?, ?, ?)",
                    [alias, key, info.company_id, name.kind, info.document_id, name.page])
        others = [r[0] for r in con.execute(
            "SELECT DISTINCT company_id FROM aliases WHERE alias_key = ? AND company_id <> ? UNION "
            "SELECT company_id FROM securities WHERE stock_code = ? AND company_id <> ?",
            [key, info.company_id, alias, info.company_id]).fetchall()]
        warnings += [f"{name.kind} {name.text!r} printed on p{name.page} is also a name of {other}: it identifies "
                     "neither company in questions" for other in others]
    return warnings


def _decimal(value: Decimal | None) -> Decimal | None:
    return None if value is None else value.quantize(_Q)


def _store(con: duckdb.DuckDBPyConnection, path: Path, parsed: ParsedDocument) -> None:
    info = parsed.info
    con.execute("BEGIN TRANSACTION")
    try:
        parsed.warnings += _resolve_company(con, info)
        parsed.warnings += _record_names(con, info)
        con.execute(
            "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [info.document_id, info.file_name, path.stem, str(path.resolve()), path.stat().st_size, info.market,
             info.company_id, info.company_name, info.stock_code, info.other_codes, info.cik, info.form,
             info.fiscal_year, info.fiscal_period, info.period_end, info.fiscal_year_end_month, info.language,
             info.currency, info.accounting_standard, info.pages if info.pages is not None else len(parsed.pages),
             info.company_metrics, len(parsed.facts), parsed.warnings, parsed.parser, dt.datetime.now()],
        )
        if parsed.pages:
            pages = pa.table({
                "document_id": [info.document_id] * len(parsed.pages),
                "page": pa.array([p.page for p in parsed.pages], pa.int32()),
                "text": [p.text for p in parsed.pages],
                "ocr": [p.ocr for p in parsed.pages],
            })
            con.register("_pages", pages)
            con.execute("INSERT INTO pages SELECT * FROM _pages")
            con.unregister("_pages")
        if parsed.sections:
            con.executemany(
                "INSERT INTO sections VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [[info.document_id, x.section, x.title, x.page_start, x.char_start, x.page_end, x.char_end,
                  x.confidence, x.pointer, json.dumps(x.attrs, ensure_ascii=False) if x.attrs else None]
                 for x in parsed.sections])
        if parsed.facts:
            f = parsed.facts
            facts = pa.table({
                "document_id": [info.document_id] * len(f),
                "fact_no": pa.array(range(1, len(f) + 1), pa.int32()),
                "concept": [x.concept for x in f],
                "label": [x.label for x in f],
                "value": pa.array([_decimal(x.value) for x in f], pa.decimal128(38, 6)),
                "value_text": [x.value_text for x in f],
                "unit": [x.unit for x in f],
                "decimals": pa.array([x.decimals for x in f], pa.int32()),
                "scale": pa.array([x.scale for x in f], pa.int32()),
                "original_unit": [x.original_unit for x in f],
                "period_start": pa.array([x.period_start for x in f], pa.date32()),
                "period_end": pa.array([x.period_end for x in f], pa.date32()),
                "period_type": [x.period_type for x in f],
                "dimensions": [json.dumps(x.dimensions, ensure_ascii=False) if x.dimensions else None for x in f],
                "statement": [x.statement for x in f],
                "consolidated": [x.consolidated for x in f],
                "page": pa.array([x.page for x in f], pa.int32()),
                "locator": [x.locator for x in f],
                "column_label": [x.column for x in f],
            })
            con.register("_facts", facts)
            con.execute("INSERT INTO facts SELECT * FROM _facts")
            con.unregister("_facts")
        statement_reads.store(con, info.document_id, getattr(parsed, "statement_reads", None))
        if metrics.store_document_metrics(con, info, parsed.facts):
            metrics.rebuild(con, [info.stock_code])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def rebuild_metrics(con: duckdb.DuckDBPyConnection, stock_codes: list[str]) -> None:
    """Rebuild both bases of financial_metrics for some listings (warehouse/metrics.py)."""
    metrics.rebuild(con, stock_codes)

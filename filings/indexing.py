"""The writer's search-index work: each stored document's index state (table ``index_state``), keywords first and
dense vectors later, and completing what is missing, failed, stale or keywords-only.

States: ``keywords`` (units in with their BM25 vectors, prose still without dense vectors), ``indexed`` (every
vector in), ``failed`` (with the reason; its previous units, if any, stay searchable). Everything here runs
inside the writer (``filings.api.Filings``): ``changed`` marks the private copy dirty, ``checkpoint`` may
publish a version between documents."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from schema.errors import FilingsError
from vectorstore.index import MARKETS, NarrativeIndex, collection_for
from warehouse.lookup import stored_document


def record(con, document_id: str, collection: str, model: str | None, units: int, status: str,
           reason: str | None) -> None:
    con.execute("INSERT OR REPLACE INTO index_state VALUES (?, ?, ?, ?, ?, ?, ?)",
                [document_id, collection, model, units, status, reason, dt.datetime.now()])


def _reason(exc: Exception) -> str:
    return str(exc) if isinstance(exc, FilingsError) else f"{type(exc).__name__}: {exc}"


def _model(index: NarrativeIndex, name: str) -> str | None:
    card = index.model_card(name)
    return card["embedding_model"] if card else None


def index_one(con, index: NarrativeIndex, parsed, doc_name: str, dense: bool = True) -> int:
    """Upsert one stored document's units (their dense vectors too with ``dense``) and record its state."""
    name = collection_for(parsed.info.market)
    try:
        units, pending = index.index_document(parsed, doc_name, dense=dense)
    except Exception as exc:  # recorded: `filings index` and `filings update` retry it
        record(con, parsed.info.document_id, name, None, 0, "failed", _reason(exc))
        raise FilingsError(f"{doc_name}: stored, but indexing failed ({_reason(exc)}); `filings index` retries "
                           "it") from None
    record(con, parsed.info.document_id, name, _model(index, name) if units else None, units,
           "keywords" if pending else "indexed", None)
    return units


def fill_one(con, index: NarrativeIndex, parsed, doc_name: str, units: int) -> None:
    """Give a keywords-only document its dense vectors and record it ``indexed``; on a failure it stays
    ``keywords`` with the reason (its BM25 units stay searchable) and `filings index` retries it."""
    name = collection_for(parsed.info.market)
    try:
        index.fill_dense(parsed, doc_name)
    except Exception as exc:
        record(con, parsed.info.document_id, name, None, units, "keywords", _reason(exc))
        raise FilingsError(f"{doc_name}: searchable by keywords, but embedding failed ({_reason(exc)}); "
                           "`filings index` retries it") from None
    record(con, parsed.info.document_id, name, _model(index, name), units, "indexed", None)


def complete(con, index: NarrativeIndex, changed: Callable[[], None], checkpoint: Callable[[], object],
             only: list[str] | None = None, only_ids: set[str] | None = None, rebuild: bool = False,
             dense: bool = True, on_progress: Callable[[str], None] | None = None) -> tuple[int, list[tuple[str, str]]]:
    """Index the stored documents whose state is missing, failed, stale (embedded with another model than its
    collection's now) or keywords-only (left so when ``dense`` is False); ``only`` / ``only_ids`` narrow the
    documents considered. ``rebuild`` drops the collections first. Returns (documents done, failures as
    (doc_name, reason))."""
    if rebuild:
        for market in MARKETS:
            if index.engine.has_collection(collection_for(market)):
                index.engine.drop_collection(collection_for(market))
        con.execute("DELETE FROM index_state")
        changed()
    done, failures = 0, []
    rows = con.execute("SELECT d.document_id, d.doc_name, d.market, s.status, s.model, s.units FROM documents d "
                       "LEFT JOIN index_state s USING (document_id) ORDER BY d.document_id").fetchall()
    for document_id, name, market, status, model, units in rows:
        if (only is not None and name not in only) or (only_ids is not None and document_id not in only_ids):
            continue
        collection = collection_for(market)
        card_model = _model(index, collection)
        if status == "indexed" and (units == 0 or (card_model and model == card_model)):
            continue
        if status == "keywords" and not dense:
            continue
        if status is None and card_model and index.engine.count(collection, {"document_id": document_id}):
            # indexed before index states were recorded
            record(con, document_id, collection, card_model,
                   index.engine.count(collection, {"document_id": document_id}), "indexed", None)
            changed()
            continue
        parsed, doc_name = stored_document(con, document_id)
        changed()
        try:
            if status == "keywords":
                fill_one(con, index, parsed, doc_name, units)
            else:
                index_one(con, index, parsed, doc_name, dense=dense)
        except FilingsError as exc:
            failures.append((doc_name, str(exc)))
            continue
        done += 1
        if on_progress:
            on_progress(doc_name)
        checkpoint()
    return done, failures

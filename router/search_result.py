"""What `filings search` returns: the hits, the filters asked and the filters that found them (after widening)."""

from __future__ import annotations

from dataclasses import dataclass

from vectorstore.engines import Hit


@dataclass
class SearchResult:
    query: str
    filters_applied: dict
    hits: list[Hit]
    filters_asked: dict  # before widening
    keywords_only: int = 0  # units under the filters applied searchable by keywords only (dense vectors pending)

    @property
    def widened(self) -> bool:
        return self.filters_applied != self.filters_asked

    def as_json(self) -> dict:
        """The JSON of `filings search --json` (DESIGN.md section 4)."""
        out = {"query": self.query, "filters_applied": self.filters_applied, "hits": [
            {"document_id": h.payload["document_id"], "doc_name": h.payload["doc_name"], "page": h.payload["page"],
             "section": h.payload.get("section"), "company_id": h.payload.get("company_id"),
             "stock_code": h.payload.get("stock_code"), "fiscal_year": h.payload.get("fiscal_year"),
             "text": h.payload["text"], "score": round(h.score, 6)} for h in self.hits]}
        if self.keywords_only:  # only while dense vectors are pending: the contract's keys otherwise
            out["keywords_only"] = self.keywords_only
        return out

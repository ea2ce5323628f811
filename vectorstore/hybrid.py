"""Result diversification after fusion (MMR-lite): caps per company / per document and round-robin by company.

A broad question ("which companies mention tariffs") should list many companies, not one company's 10-K six
times. The search layer asks the engine for more hits than it shows (e.g. 5x k), then:

    diversify(hits, per_company=2, per_document=1, k=20)

- ``per_document`` / ``per_company`` drop hits beyond the cap (in fused rank order);
- ``round_robin=True`` then orders the kept hits in rounds: every company's best hit (companies in the order
  of their best hit), then every company's second hit, and so on. ``round_robin=False`` keeps fused order.

Hits are anything with a ``payload`` dict (``vectorstore.engines.Hit``) or dicts themselves. A hit without a
company_id is grouped by its document_id (so unknown-company documents do not collapse into one group).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, TypeVar

H = TypeVar("H")


def _payload(hit: Any) -> dict[str, Any]:
    if isinstance(hit, dict):
        return hit.get("payload", hit)
    return getattr(hit, "payload", None) or {}


def _company_key(p: dict[str, Any]) -> str:
    cid = p.get("company_id")
    if cid:
        return f"c:{cid}"
    return f"d:{p.get('document_id') or p.get('doc_name') or id(p)}"


def cap(hits: Sequence[H], per_company: int | None = None, per_document: int | None = None) -> list[H]:
    """Hits in their order, dropping those beyond ``per_company`` / ``per_document``."""
    by_company: dict[str, int] = {}
    by_doc: dict[str, int] = {}
    out: list[H] = []
    for h in hits:
        p = _payload(h)
        ck, dk = _company_key(p), str(p.get("document_id"))
        if per_company is not None and by_company.get(ck, 0) >= per_company:
            continue
        if per_document is not None and p.get("document_id") is not None and by_doc.get(dk, 0) >= per_document:
            continue
        by_company[ck] = by_company.get(ck, 0) + 1
        by_doc[dk] = by_doc.get(dk, 0) + 1
        out.append(h)
    return out


def round_robin(hits: Sequence[H]) -> list[H]:
    """Each company's best hit first (companies ranked by their best hit), then each one's second, ..."""
    groups: OrderedDict[str, list[H]] = OrderedDict()
    for h in hits:
        groups.setdefault(_company_key(_payload(h)), []).append(h)
    out: list[H] = []
    depth = 0
    while len(out) < len(hits):
        for group in groups.values():
            if depth < len(group):
                out.append(group[depth])
        depth += 1
    return out


def diversify(
    hits: Sequence[H],
    per_company: int | None = 2,
    per_document: int | None = None,
    k: int | None = None,
    round_robin_order: bool = True,
) -> list[H]:
    kept = cap(hits, per_company=per_company, per_document=per_document)
    if round_robin_order:
        kept = round_robin(kept)
    return kept[:k] if k is not None else kept


def companies(hits: Sequence[Any]) -> list[str]:
    """Distinct company ids in hit order (for "which companies ..." answers)."""
    seen: dict[str, None] = {}
    for h in hits:
        cid = _payload(h).get("company_id")
        if cid and cid not in seen:
            seen[cid] = None
    return list(seen)


def weighted_rrf(lists: Sequence[Sequence[H]], weights: Sequence[float], k: int = 60) -> list[H]:
    """Reciprocal-rank fusion with a weight per list: score(d) = sum_i w_i / (k + rank_i(d)); ties keep the
    order of first appearance. Hits are matched by ``id``."""
    score: dict[str, float] = {}
    first: dict[str, H] = {}
    for hits, weight in zip(lists, weights):
        for rank, hit in enumerate(hits):
            score[hit.id] = score.get(hit.id, 0.0) + weight / (k + rank + 1)
            first.setdefault(hit.id, hit)
    order = sorted(score, key=lambda i: -score[i])
    out = []
    for i in order:
        h = first[i]
        out.append(type(h)(h.id, score[i], h.payload) if hasattr(h, "payload") else h)
    return out

"""The primary statements (income, balance, cashflow, equity): page titles, question words and the statement
each canonical metric and ratio is read from. Vocabulary in ``statements.yaml``; the statement of a metric
comes from the printed-label files (``labels_cn.yaml`` / ``labels_hk.yaml``), so it is never stated twice."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mappings.metrics import load_yaml, ratios

TITLE_LINES = 12  # a statement's title sits among the first lines of its page
TITLE_EXTRA_WORDS = 8  # words a title line may carry besides the title ("Consolidated", company, "(continued)")


@dataclass(frozen=True)
class Statement:
    id: str
    titles: tuple[re.Pattern, ...]
    mentions: tuple[re.Pattern, ...]
    concepts: tuple[str, ...]
    expansion: tuple[str, ...]


@lru_cache(maxsize=1)
def statements() -> dict[str, Statement]:
    out = {}
    for sid, spec in load_yaml("statements.yaml").items():
        out[sid] = Statement(
            id=sid,
            titles=tuple(re.compile(p, re.I) for p in spec.get("titles") or []),
            mentions=tuple(re.compile(p, re.I) for p in spec.get("mentions") or []),
            concepts=tuple(str(c).lower() for c in spec.get("concepts") or []),
            expansion=tuple(str(c) for c in spec.get("expansion") or []),
        )
    return out


@lru_cache(maxsize=1)
def metric_statements() -> dict[str, frozenset[str]]:
    """Canonical metric id or ratio id -> the statements its figures are printed in."""
    out: dict[str, set[str]] = {}
    for file in ("labels_cn.yaml", "labels_hk.yaml"):
        for statement, entries in load_yaml(file).items():
            if statement in statements():
                for mid in entries or {}:
                    out.setdefault(mid, set()).add(statement)
    for rid, spec in ratios().items():
        if spec.get("generated"):  # a share made for a question: not known before it is asked, so not here either
            continue
        used = set(re.findall(r"[a-z_]+", str(spec.get("formula", ""))))
        out[rid] = {s for mid in used for s in out.get(mid, ())}
    return {k: frozenset(v) for k, v in out.items() if v}


def _words(text: str) -> int:
    return len(re.findall(r"[A-Za-z]+", text)) + len(re.findall(r"[\u4e00-\u9fff]", text)) // 3


def title_statement(page_text: str) -> str | None:
    """The statement whose title heads a page: a short line among the first ``TITLE_LINES`` lines that is
    (mostly) a statement title. ``None`` for no title, and for pages naming three or more statements near the
    top (a contents page)."""
    found: list[str] = []
    lines = [x.strip() for x in page_text.split("\n") if x.strip()][:TITLE_LINES]
    for line in lines:
        if len(line) > 160:
            continue
        for st in statements().values():
            m = next((m for p in st.titles if (m := p.search(line))), None)
            if m and _words(line[: m.start()] + line[m.end():]) <= TITLE_EXTRA_WORDS and st.id not in found:
                found.append(st.id)
    if not found or len(found) >= 3:
        return None
    return found[0]


def _phrase(term: str) -> re.Pattern:
    if re.search(r"[\u4e00-\u9fff]", term):
        return re.compile(re.escape(term))
    return re.compile(r"(?<![\w&])" + re.escape(term).replace(r"\ ", r"[\s\-]+") + r"(?![\w&])", re.I)


@lru_cache(maxsize=1)
def _concept_patterns() -> list[tuple[re.Pattern, str]]:
    return [(_phrase(c), st.id) for st in statements().values() for c in st.concepts]


def statements_named(question: str, metric_ids: list[str] | tuple[str, ...] = ()) -> list[str]:
    """Statements a question points at: by naming them ("balance sheet", 利润表), by a metric or ratio the
    planner found in it, or by an analyst concept (working capital, capex). In statements.yaml order."""
    named: set[str] = set()
    for st in statements().values():
        if any(p.search(question) for p in st.mentions):
            named.add(st.id)
    by_metric = metric_statements()
    for mid in metric_ids:
        named |= by_metric.get(mid, frozenset())
    for pattern, sid in _concept_patterns():
        if pattern.search(question):
            named.add(sid)
    return [sid for sid in statements() if sid in named]

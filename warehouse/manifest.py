"""Manifests beside the files: a ``documents.jsonl`` in a file's folder or a parent folder (two levels up)
describing documents by name. Its entries become recognition hints: the content of a filing wins, the
manifest fills what the content leaves open (an earnings release's company and period, a 10-Q's quarter).

Fields read: doc_name (the file stem) or path, company, doc_type (10k, 10q, 8k, earnings, annual...),
doc_period (fiscal year), ticker / stock_code, market."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from mappings.companies import alias_key, master, normalise_code
from schema.models import DocumentInfo

MANIFEST = "documents.jsonl"
FORMS = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "20f": "20-F", "earnings": "earnings_release"}


@lru_cache(maxsize=32)
def _load(manifest: Path, mtime: float) -> dict[str, dict]:
    entries = {}
    for line in manifest.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict) and entry.get("doc_name"):
            entries[str(entry["doc_name"])] = entry
    return entries


def _entry_for(path: Path) -> dict | None:
    for folder in list(path.resolve().parents)[:3]:
        manifest = folder / MANIFEST
        if manifest.is_file():
            entry = _load(manifest, manifest.stat().st_mtime).get(path.stem)
            if entry:
                return entry
    return None


def _company_code(name: str | None) -> tuple[str | None, str | None]:
    if not name:
        return None, None
    companies, securities = master()
    key = alias_key(name)
    for c in companies:
        names = [c.name_en, c.name_zh, *c.aliases]
        if c.name_en:  # "Block, Inc." also answers to "Block" in a manifest (not in questions: see router)
            names.append(re.sub(r"[,.]?\s*\b(inc|corp|corporation|co|ltd|limited|plc|company)\b\.?", "", c.name_en, flags=re.I))
        if key in {alias_key(n) for n in names if n}:
            code = next((s.stock_code for s in securities if s.company_id == c.company_id), None)
            return c.company_id, code
    return None, None


def hints_for(path: Path) -> DocumentInfo | None:
    entry = _entry_for(path)
    if entry is None:
        return None
    company_id, code = _company_code(entry.get("company"))
    code = normalise_code(str(entry.get("ticker") or entry.get("stock_code") or "")) or code
    form = str(entry.get("doc_type") or "").lower().replace("-", "")
    year = entry.get("doc_period")
    market = entry.get("market") or ("US" if form in FORMS else None)
    return DocumentInfo(
        market=market,
        company_name=entry.get("company"),
        company_id=company_id,
        stock_code=code,
        form=FORMS.get(form, form or None),
        fiscal_year=int(year) if str(year or "").isdigit() else None,
        currency="USD" if market == "US" else None,
        accounting_standard="US_GAAP" if market == "US" else None,
        language="en" if market == "US" else None,
    )

"""Manifests beside the files: a ``documents.jsonl`` in a file's folder or a parent folder (two levels up)
describing documents by name. Its entries become recognition hints: the content of a filing wins, the
manifest fills what the content leaves open (an earnings release's company and period, a 10-Q's quarter).

Fields read: doc_name (the file stem), company, doc_type (10k, 10q, 8k, earnings, annual...), doc_period
(fiscal year), ticker / stock_code, market.

A manifest is a hint, never a failure: a line that is not UTF-8 or not a JSON object is skipped, a field of
the wrong type, an unknown market or a value longer than ``limits.MANIFEST_FIELD_CHARS`` is ignored, and each
of these becomes a warning on the document concerned (a document without an entry hears about the lines that
could not be read, since one of them may have been its own). A manifest over ``limits.MANIFEST_BYTES`` is
not read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from mappings.companies import alias_key, master, normalise_code
from schema import limits
from schema.models import DocumentInfo

MANIFEST = "documents.jsonl"
FORMS = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "20f": "20-F", "earnings": "earnings_release"}
MARKETS = ("US", "A", "HK")
TEXT_FIELDS = ("company", "doc_type", "ticker", "stock_code", "market")
YEARS = range(1900, 2101)  # a doc_period outside these is not a fiscal year


@dataclass
class Manifest:
    entries: dict[str, dict] = field(default_factory=dict)  # doc_name -> validated fields
    notes: dict[str, list[str]] = field(default_factory=dict)  # doc_name -> warnings about its entry
    unreadable: list[str] = field(default_factory=list)  # lines that could not be read at all
    problem: str | None = None  # the whole file could not be read


def _field_value(entry: dict, key: str, where: str, notes: list[str]):
    value = entry.get(key)
    if value is None:
        return None
    cap = limits.MANIFEST_FIELD_CHARS.value()
    if key == "doc_period":
        text = str(value).strip() if isinstance(value, (int, str)) and not isinstance(value, bool) else ""
        if not text.isdigit() or int(text) not in YEARS:
            notes.append(f"{where}: doc_period {_short(value)} is not a fiscal year: ignored")
            return None
        return int(text)
    if not isinstance(value, str):
        notes.append(f"{where}: {key} should be text, not {type(value).__name__}: ignored")
        return None
    if len(value) > cap:
        notes.append(f"{where}: {key} of {len(value):,} characters is over {limits.MANIFEST_FIELD_CHARS.describe()}: "
                     "ignored")
        return None
    value = value.strip()
    if key == "market" and value not in MARKETS:
        notes.append(f"{where}: market {_short(value)} is not one of {', '.join(MARKETS)}: ignored")
        return None
    return value or None


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@lru_cache(maxsize=32)
def _load(manifest: Path, mtime: float, size: int) -> Manifest:
    out = Manifest()
    if size > limits.MANIFEST_BYTES.value():
        out.problem = f"{manifest}: {limits.human_bytes(size)}, over {limits.MANIFEST_BYTES.describe()}: not read"
        return out
    try:
        data = manifest.read_bytes()
    except OSError as exc:
        out.problem = f"{manifest}: cannot be read ({exc.strerror or exc}): not used"
        return out
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        where = f"{manifest.name} line {number}"
        try:
            entry = json.loads(raw.decode("utf-8-sig" if number == 1 else "utf-8"))
        except UnicodeDecodeError:
            out.unreadable.append(f"{where}: not UTF-8 text: skipped")
            continue
        except (ValueError, RecursionError) as exc:
            out.unreadable.append(f"{where}: not a JSON object ({getattr(exc, 'msg', type(exc).__name__)}): skipped")
            continue
        if not isinstance(entry, dict):
            out.unreadable.append(f"{where}: not a JSON object: skipped")
            continue
        name = entry.get("doc_name")
        if not isinstance(name, str) or not name.strip() or len(name) > limits.MANIFEST_FIELD_CHARS.value():
            out.unreadable.append(f"{where}: no usable doc_name: skipped")
            continue
        notes: list[str] = []
        fields = {key: _field_value(entry, key, where, notes) for key in (*TEXT_FIELDS, "doc_period")}
        if name in out.entries:
            notes.append(f"{where}: a second entry for {_short(name)}: it replaces the first")
        out.entries[name] = fields
        out.notes[name] = notes
    return out


def _manifest_for(path: Path) -> tuple[Manifest, str] | None:
    try:
        folders = list(path.resolve().parents)[:3]
    except (OSError, RuntimeError):  # a symlink loop: no manifest applies
        return None
    fallback = None
    for folder in folders:
        manifest = folder / MANIFEST
        try:
            if not manifest.is_file():
                continue
            st = manifest.stat()
        except OSError:
            continue
        loaded = _load(manifest, st.st_mtime, st.st_size)
        if path.stem in loaded.entries:
            return loaded, path.stem
        if fallback is None and (loaded.problem or loaded.unreadable):
            fallback = loaded, path.stem
    return fallback


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


def manifest_hints(path: Path) -> tuple[DocumentInfo | None, list[str]]:
    """(hints for ``path`` from the nearest manifest that names it, warnings about that manifest)."""
    found = _manifest_for(Path(path))
    if found is None:
        return None, []
    manifest, stem = found
    if manifest.problem:
        return None, [manifest.problem]
    entry = manifest.entries.get(stem)
    if entry is None:
        return None, [f"no manifest entry for {stem}; lines that could not be read: "
                      + "; ".join(manifest.unreadable[:5]) + (" ..." if len(manifest.unreadable) > 5 else "")]
    notes = list(manifest.notes.get(stem, []))
    company_id, code = _company_code(entry["company"])
    code = normalise_code(entry["ticker"] or entry["stock_code"] or "") or code
    form = (entry["doc_type"] or "").lower().replace("-", "")
    market = entry["market"] or ("US" if form in FORMS else None)
    return DocumentInfo(
        market=market,
        company_name=entry["company"],
        company_id=company_id,
        stock_code=code,
        form=FORMS.get(form, form or None),
        fiscal_year=entry["doc_period"],
        currency="USD" if market == "US" else None,
        accounting_standard="US_GAAP" if market == "US" else None,
        language="en" if market == "US" else None,
    ), notes


def hints_for(path: Path) -> DocumentInfo | None:
    """The manifest's hints for ``path`` (warnings dropped; see :func:`manifest_hints`)."""
    return manifest_hints(path)[0]

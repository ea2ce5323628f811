"""Earnings-call transcripts: speaker-turn JSON and one-paragraph plain text -> ParsedDocument.

Two source layouts are read (file bytes in, ParsedDocument out; nothing here touches a store or the
corpus path):

* JSON (Motley-Fool style): ``{"prepared_remarks": [{"speaker", "speech"}...], "q_and_a": [...],
  "participants": ["Name--Title", "Name--Firm -- Analyst", ...], "header_texts": [...]}``.
  Every speaker turn is one :class:`Page` (page = turn number, 1-based, in call order: prepared remarks
  first, then Q&A). The page text is ``"Name (Role): speech"`` (``"Operator: speech"``; ``"Name: speech"``
  when no role is known), the speech whitespace-folded and otherwise exactly as in the source. The trailing
  pseudo-turn ``{"speaker": "Duration: 66 minutes", "speech": ""}`` is not a turn: it becomes the
  ``duration_minutes`` attribute of the first section span.
* Plain text (one paragraph, no speaker labels): split into pseudo-turns of ~150-300 words at sentence
  ends; a pseudo-turn never straddles the start of the Q&A or the start of a question (the operator's
  "our next question comes from X with Y" opens a new pseudo-turn). Page text is the folded source text
  only, so every page is an exact substring of the folded file.

Sections: one ``prepared_remarks`` span over the opening turns, then one ``qa`` span per exchange (an
analyst's question kept with the management answers that follow it, until the next analyst or the
operator). ``attrs`` of a ``qa`` span: ``exchange`` ("1", "2", ...), ``analyst``, ``firm``, ``speakers``
(JSON only: the management speakers, "; "-joined, in order of first appearance), ``kind`` ("analyst" or,
for questions read out by the host such as Tesla's shareholder questions, "shareholder"). Operator turns
and hand-over chatter between exchanges belong to no span. The first span's attrs also carry call-level
facts the DocumentInfo model has no field for: ``call_date`` (ISO, only when the call states "today,
<date>"), ``duration_minutes`` (JSON), ``fiscal_label`` (the quarter as the transcript states it, e.g.
"Q4 fiscal 2021"), ``fiscal_source`` ("content" or "file name").

Per-turn speaker metadata is available from :func:`speakers` (one :class:`Turn` per page). The layouts are read in
``parsers.transcript_json`` and ``parsers.transcript_text`` (what they share: ``parsers.transcript_turns``); this
module sniffs and loads the file and decides company and fiscal period.

Fiscal period rule: a phrase that names a *fiscal* quarter ("Q1 Fiscal Year 2025", "third quarter of
fiscal 2025", "fiscal year 2025 second quarter", "fourth quarter and fiscal year 2021") in the opening of the
call (or later, after "results for the") decides; otherwise the file name label ``TICKER_YYYY_Qn``.
Calendar phrases ("third quarter 2021") are not used: these sources sometimes quote prior periods there.
``fiscal_year`` follows the warehouse contract (the year in which the fiscal year ends): for companies that
name a fiscal year after the year it starts in (``fiscal_year_named_by: start`` in the company master: Home
Depot, Lowe's, Target; their
fiscal 2021 ends in January 2022) one is added to the stated year, with a warning.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any, Mapping

from mappings.companies import start_year_labels
from parsers.transcript_json import parse_json
from parsers.transcript_text import parse_text
from parsers.transcript_turns import HEAD, Turn, looks_like_call
from schema import limits
from schema.errors import ParseError
from schema.models import DocumentInfo, ParsedDocument

PARSER = "transcripts/1"

# Companies whose "fiscal YYYY" names the year the fiscal year *starts* in (it ends in late January of
# YYYY+1). DESIGN's fiscal_year is the year in which the fiscal year ends, so their label is shifted by one.
# The convention is company data: ``fiscal_year_named_by: start`` in mappings/companies.yaml.

_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), 1)}


# --------------------------------------------------------------------------------------------- helpers


def _read_bytes(path: Path) -> bytes:
    if not path.exists():
        raise ParseError(str(path), "file does not exist")
    if path.is_dir():
        raise ParseError(str(path), "is a folder, not a file")
    data = path.read_bytes()
    if not data.strip():
        raise ParseError(str(path), "file is empty")
    return data


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ParseError(str(path), "not UTF-8 text, so not a transcript this parser reads") from None


def _file_label(path: Path) -> tuple[str | None, int | None, str | None]:
    """TICKER_YYYY_Qn from the file name (a hint only)."""
    m = re.match(r"^([A-Za-z][A-Za-z.\-]{0,9})_(\d{4})_Q([1-4])\b", path.stem)
    if not m:
        return None, None, None
    return m.group(1).upper(), int(m.group(2)), f"Q{m.group(3)}"


def _is_json_transcript(obj: Any) -> bool:
    if not isinstance(obj, dict):
        return False
    pr, qa = obj.get("prepared_remarks"), obj.get("q_and_a")
    if not isinstance(pr, list) or not isinstance(qa, list) or not (pr or qa):
        return False
    return all(isinstance(t, dict) and isinstance(t.get("speaker"), str) and isinstance(t.get("speech"), str)
               for t in pr + qa)


def is_transcript(path: str | Path) -> bool:
    """Cheap sniff: a speaker-turn JSON transcript, or a .txt whose first 4 KB read like an earnings call."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(HEAD)
        if not head.strip():
            return False
        stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        if stripped.startswith(b"{"):
            if b'"speaker"' not in head and b'"prepared_remarks"' not in head and b'"q_and_a"' not in head:
                return False
            if path.stat().st_size > limits.TRANSCRIPT_BYTES.value():
                return b'"prepared_remarks"' in head or b'"q_and_a"' in head  # claimed, then refused by size
            return _is_json_transcript(json.loads(path.read_bytes().decode("utf-8-sig")))
        if path.suffix.lower() not in {".txt", ".text", ""}:
            return False
        text = head.decode("utf-8", errors="ignore")
        if "\x00" in text or re.match(r"\s*<", text):
            return False
        return looks_like_call(text)
    except (OSError, ValueError):
        return False


# ------------------------------------------------------------------------------ tickers / company name


def load_tickers(source: str | Path | Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """Normalise a ticker map: SEC company_tickers.json (path or loaded dict), ``{ticker: {"cik", "title"}}``
    or ``{ticker: cik}`` -> ``{TICKER: {"cik": "0000320193", "title": "Apple Inc."}}``."""
    if isinstance(source, (str, Path)):
        source = json.loads(Path(source).read_text(encoding="utf-8"))
    out: dict[str, dict[str, str]] = {}
    for key, value in source.items():
        if isinstance(value, dict) and "ticker" in value:
            ticker, cik, title = value["ticker"], value.get("cik_str") or value.get("cik"), value.get("title")
        elif isinstance(value, dict):
            ticker, cik, title = key, value.get("cik") or value.get("cik_str"), value.get("title")
        else:
            ticker, cik, title = key, value, None
        if not ticker:
            continue
        out[str(ticker).upper()] = {"cik": str(cik).zfill(10) if cik not in (None, "") else "",
                                    "title": title or ""}
    return out


_NAME_DROP = re.compile(
    r"^(?:q[1-4]|fy\d{2,4}|\d{4}|'\d\d|fiscal|year|full|first|second|third|fourth|quarter|(?:first|second|third|"
    r"fourth)-quarter|and|earnings|results|conference|financial|release|investor|relations|our|of|for|the|"
    r"call|presentation|webcast|teleconference|q&a)$", re.I)


def _company_from_text(text: str) -> str | None:
    """The company as the call names it in its welcome line ("welcome to the Apple Q4 ... call")."""
    for m in re.finditer(r"(?:welcome (?:you |everyone |all )?to|joining)\s+(.{2,160}?)\b(?:call|presentation|"
                         r"webcast|teleconference)\b", text[:4000], re.I):
        words = m.group(1).split()
        if words and words[0].lower() == "the" and len(words) > 1 and words[1][:1].isupper() \
                and not _NAME_DROP.match(words[1]):
            words = words[1:]
            keep_the = m.group(1).startswith("The ")
        else:
            keep_the = False
        kept: list[str] = []
        for k, w in enumerate(words):
            bare = re.sub(r"(?:'s|’s)$", "", w)
            if _NAME_DROP.match(bare) or _NAME_DROP.match(w):
                if kept:
                    break  # a name ends at the first period word after it ("Lowe's Companies first-quarter")
                continue
            kept.append(w)
            nxt = words[k + 1] if k + 1 < len(words) else ""
            if bare != w and (not nxt or _NAME_DROP.match(nxt) or not nxt[:1].isupper()):
                break  # "NVIDIA's conference call", but not "Lowe's Companies"
        while kept and kept[-1].lower() == "and":
            kept.pop()
        if not kept or not (kept[0][:1].isupper() or kept[0][:1].isdigit()):
            continue
        name = re.sub(r"(?:'s|’s)$", "", " ".join(kept)).strip(" ,.")
        if name:
            return ("The " + name) if keep_the else name
    return None


def _call_date(text: str) -> dt.date | None:
    m = re.search(r"\b(?:as of )?today,? (?:is )?(?:\w+day,? )?([A-Z][a-z]+) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})",
                  text[:8000])
    if not m or m.group(1).lower() not in _MONTHS:
        return None
    try:
        return dt.date(int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2)))
    except ValueError:
        return None


_Q = r"(first|second|third|fourth)"
_FISCAL_PATTERNS = [
    re.compile(r"\bQ([1-4])\s+fiscal(?:\s+year)?\s+(20\d\d)\b", re.I),  # Apple: Q4 Fiscal Year 2024
    re.compile(r"\bfiscal(?:\s+year)?\s+(20\d\d|'\d\d)\s+" + _Q + r"[- ]quarter\b", re.I),  # MSFT, WMT, CRM
    re.compile(r"\b" + _Q + r"[- ]quarter\s+(?:of\s+|and\s+)?(?:the\s+)?fiscal(?:\s+year)?\s+(20\d\d)\b", re.I),
    re.compile(r"\bfiscal(?:\s+year)?\s+(20\d\d)\s+Q([1-4])\b", re.I),
]


def _fiscal_from_text(text: str) -> tuple[int, str, str] | None:
    """(stated fiscal year, 'Qn', phrase) from a fiscal-quarter phrase: anywhere in the opening 3,000
    characters, later only where it reports results ("our results for the first quarter of fiscal 2022")."""
    hits = []
    for i, pat in enumerate(_FISCAL_PATTERNS):
        for m in pat.finditer(text[:20000]):
            before = text[max(0, m.start() - 40):m.start()].lower()
            if m.start() > 3000 and not re.search(r"results (?:for|of) (?:the|our)\s*$", before):
                continue
            g = m.groups()
            if i == 0:
                year, q = g[1], int(g[0])
            elif i == 1:
                year, q = g[0], _ORD[g[1].lower()]
            elif i == 2:
                year, q = g[1], _ORD[g[0].lower()]
            else:
                year, q = g[0], int(g[1])
            y = int(year) if not year.startswith("'") else 2000 + int(year[1:])
            hits.append((m.start(), y, f"Q{q}", m.group(0)))
            break
    if not hits:
        return None
    _, y, q, phrase = min(hits)
    return y, q, phrase


# ------------------------------------------------------------------------------------------------ API


def _load(path: Path) -> tuple[str, Any]:
    data = _read_bytes(path)
    text = _decode(path, data)
    if text.lstrip().startswith(("{", "[")):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ParseError(str(path), f"invalid JSON ({exc.msg} at line {exc.lineno})") from None
        if not _is_json_transcript(obj):
            raise ParseError(str(path), "JSON is not an earnings-call transcript (expected 'prepared_remarks' and "
                                        "'q_and_a' lists of {\"speaker\", \"speech\"} turns)")
        return "json", obj
    return "text", text


def _parse(path: str | Path, tickers: Mapping[str, Any] | None = None):
    path = Path(path)
    kind, obj = _load(path)
    warnings: list[str] = []
    info = DocumentInfo(file_name=path.name, market="US", form="transcript", language="en",
                        company_metrics=False)
    if kind == "json":
        pages, sections, meta, body, extra = parse_json(path, obj, info, warnings)
    else:
        pages, sections, meta, body, extra = parse_text(path, obj, info, warnings)

    f_ticker, f_year, f_q = _file_label(path)
    stated = _fiscal_from_text(body)
    attrs: dict[str, str] = {}
    if stated:
        year, q, phrase = stated
        attrs["fiscal_source"] = "content"
        attrs["fiscal_label"] = phrase
        if f_year is not None and (f_year, f_q) != (year, q):
            warnings.append(f"the call names {phrase!r} but the file name says {f_q} {f_year}: the call is used")
    elif f_year is not None:
        year, q = f_year, f_q
        attrs["fiscal_source"] = "file name"
        attrs["fiscal_label"] = f"{q} {year}"
    else:
        year = q = None
        warnings.append("fiscal period unknown: no fiscal-quarter phrase in the call and no TICKER_YYYY_Qn file name")

    ticker = f_ticker
    company_name = _company_from_text(body)
    table = load_tickers(tickers) if tickers is not None else {}
    entry = table.get(ticker) if ticker else None
    if ticker is None and company_name and table:
        key = company_name.lower().removeprefix("the ").strip()
        cands = [t for t, e in table.items() if e["title"].lower().startswith(key)]
        if len(cands) == 1:
            ticker, entry = cands[0], table[cands[0]]
    if ticker and year is not None and ticker in start_year_labels():
        warnings.append(f"{ticker} names fiscal years by the year they start in: stated fiscal {year} is "
                        f"fiscal_year {year + 1} (the year it ends)")
        year += 1
    info.stock_code = ticker
    info.cik = (entry or {}).get("cik") or None
    info.company_name = company_name
    info.fiscal_year = year
    info.fiscal_period = q
    try:
        from mappings.companies import company_for_cik, company_for_code

        company = (company_for_code(ticker) if ticker else None) or company_for_cik(info.cik)
        if company is not None:
            info.company_id = company.company_id
            info.cik = info.cik or company.cik
            info.company_name = info.company_name or company.name_en
    except Exception as exc:  # the master is optional for parsing; a broken master is reported, not fatal
        warnings.append(f"company master not consulted: {exc}")
    info.company_name = info.company_name or ((entry or {}).get("title") or None)
    info.pages = len(pages)

    call_date = _call_date(body)
    if call_date:
        attrs["call_date"] = call_date.isoformat()
    attrs.update(extra)
    if sections:
        sections[0].attrs = {**attrs, **sections[0].attrs}
    else:
        warnings.append("no sections found")
    doc = ParsedDocument(info=info, pages=pages, sections=sections, parser=PARSER, warnings=warnings)
    return doc, meta


def parse(path: str | Path, tickers: Mapping[str, Any] | None = None) -> ParsedDocument:
    """Parse one transcript. ``tickers``: optional ticker map (see :func:`load_tickers`) for the CIK."""
    return _parse(path, tickers)[0]


def speakers(path: str | Path) -> list[Turn]:
    """One :class:`Turn` per page of ``parse(path)``: speaker, role, firm, kind, section and exchange."""
    return _parse(path)[1]

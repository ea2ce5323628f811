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

Per-turn speaker metadata is available from :func:`speakers` (one :class:`Turn` per page).

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

import bisect
import datetime as dt
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from mappings.companies import start_year_labels
from schema import limits
from schema.errors import ParseError
from schema.models import DocumentInfo, Page, ParsedDocument, SectionSpan

PARSER = "transcripts/1"
_HEAD = 4096
# Only the word before a sentence-ending "." is looked at to tell an abbreviation ("Mr.") from a sentence end:
# that word is never longer than this, so the look-back never grows with the distance to the previous cut.
_WORD_BACK = 64

# Companies whose "fiscal YYYY" names the year the fiscal year *starts* in (it ends in late January of
# YYYY+1). DESIGN's fiscal_year is the year in which the fiscal year ends, so their label is shifted by one.
# The convention is company data: ``fiscal_year_named_by: start`` in mappings/companies.yaml.

_ORD = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), 1)}


@dataclass(frozen=True)
class Turn:
    """One page of a parsed transcript, with who spoke it (None for unlabelled plain-text calls)."""

    page: int
    speaker: str | None
    role: str | None  # title for management, "Analyst" for analysts, None if unknown
    firm: str | None  # analyst's firm
    kind: str  # operator | management | analyst | unknown
    section: str  # prepared_remarks | qa
    exchange: int | None  # Q&A exchange number the turn belongs to
    prefix_len: int  # characters of "Name (Role): " in front of the speech in Page.text


# --------------------------------------------------------------------------------------------- helpers


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


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


_STRONG_CUES = ("earnings call", "earnings conference call", "q&a webcast", "results teleconference",
                "results conference call", "listen-only mode", "question-and-answer session",
                "question and answer session", "thank you for joining", "earnings presentation",
                "welcome to our q", "conference operator")
_WEAK_CUES = ("conference call", "operator", "forward-looking", "investor relations", "good afternoon",
              "good morning", "thank you for standing by", "being recorded", "webcast", "joining us today")


def _call_score(head: str) -> tuple[int, int]:
    low = head.lower()
    strong = sum(1 for c in _STRONG_CUES if c in low)
    weak = sum(1 for c in _WEAK_CUES if c in low)
    return strong, weak


def _looks_like_call(head: str) -> bool:
    strong, weak = _call_score(head)
    return strong >= 1 and 2 * strong + weak >= 3


def is_transcript(path: str | Path) -> bool:
    """Cheap sniff: a speaker-turn JSON transcript, or a .txt whose first 4 KB read like an earnings call."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD)
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
        return _looks_like_call(text)
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


# ----------------------------------------------------------------------------------------------- JSON


_MGMT_WORDS = re.compile(r"\b(?:chief|officer|president|vice|chairman|chair|director|head|treasurer|investor"
                         r"|relations|ceo|cfo|coo|cto|executive|controller|secretary|counsel|founder|manager|"
                         r"general|evp|svp|ir)\b", re.I)
_ANNOUNCE = re.compile(
    r"\b(?:first|next|last|final|follow-up) question(?: today| this morning| this afternoon)?"
    r"(?: is| comes| will come| will be coming| is going to come| will be| we have)?"
    r" (?:from|with)(?: the line of)?\s+", re.I)
_STOP = {"please", "your", "go", "thank", "thanks", "hi", "hey", "yes", "good", "great", "you", "the", "is", "and",
         "proceed", "okay", "ok", "so", "hello", "pleased", "this", "what's", "can", "may", "we", "i", "i'm", "my"}
_CONNECT = {"with", "from", "of", "at"}


def _announced(text: str, pos: int) -> tuple[str, str]:
    """(analyst, firm) named right after an announcement ("... from the line of Keith Weiss with Morgan Stanley")."""
    words = text[pos:pos + 200].split(" ")[:14]
    name: list[str] = []
    firm: list[str] = []
    target = name
    for w in words:
        bare = w.rstrip(".,?!;:")
        low = bare.lower()
        if not bare:
            break
        if target is name and low in _CONNECT and name:
            target = firm
            continue
        if low in _STOP or (target is firm and low in _CONNECT and low != "of") or len(target) >= (4 if target is name else 6):
            break
        target.append(bare if not re.fullmatch(r"(?:[A-Za-z]\.)+", w) else w)
        if w != bare and not re.fullmatch(r"(?:[A-Za-z]\.)+", w):
            if w.endswith(",") and target is name:
                target = firm  # "Brad Thomas, KeyBank Capital Markets"
                continue
            break
    return " ".join(name), " ".join(firm)


def _split_participant(entry: str) -> tuple[str, str | None, str | None, bool]:
    """'Name--Firm -- Analyst' / 'Name--Title' / 'Name' -> (name, title, firm, is_analyst)."""
    name, _, rest = entry.partition("--")
    name, rest = name.strip(), rest.strip()
    if not rest:
        return name, None, None, False
    m = re.match(r"(.*?)\s*--\s*Analyst\.?$", rest, re.I)
    if m:
        return name, "Analyst", m.group(1).strip() or None, True
    return name, rest.rstrip("."), None, False


def _role_prefix(speaker: str, kind: str, role: str | None, firm: str | None) -> str:
    if kind == "operator":
        return "Operator: "
    if kind == "analyst":
        inner = ", ".join(x for x in ("Analyst", firm) if x)
        return f"{speaker} ({inner}): "
    if role:
        return f"{speaker} ({role}): "
    return f"{speaker}: "


def _parse_json(path: Path, obj: dict, info: DocumentInfo, warnings: list[str]):
    participants: dict[str, tuple[str | None, str | None, bool]] = {}
    for entry in obj.get("participants") or []:
        if isinstance(entry, str) and entry.strip():
            name, title, firm, analyst = _split_participant(entry)
            participants.setdefault(name, (title, firm, analyst))

    raw = [(t["speaker"].strip(), t["speech"], "prepared_remarks") for t in obj["prepared_remarks"]]
    raw += [(t["speaker"].strip(), t["speech"], "qa") for t in obj["q_and_a"]]
    duration = None
    turns = []
    for speaker, speech, sec in raw:
        m = re.fullmatch(r"Duration:\s*(\d+)\s*minutes?", speaker, re.I)
        if m and not speech.strip():
            duration = m.group(1)
            continue
        if not _fold(speech):
            warnings.append(f"empty turn by {speaker!r} skipped")
            continue
        turns.append((speaker, _fold(speech), sec))
    if not turns:
        raise ParseError(str(path), "transcript has no speaker turns with text")

    prepared_speakers = {s for s, _, sec in turns if sec == "prepared_remarks"}
    # firms announced by the operator ("Our next question comes from Amit Daryanani with Evercore")
    announced: dict[str, str] = {}
    for s, speech, _ in turns:
        if s.lower() == "operator":
            for m in _ANNOUNCE.finditer(speech):
                name, firm = _announced(speech, m.end())
                if name and firm:
                    announced.setdefault(name, firm)

    pages: list[Page] = []
    meta: list[Turn] = []
    prev_kind = None
    known_analysts: dict[str, str | None] = {}
    announcement: dict[int, tuple[str, str]] = {}  # page of an analyst's first turn -> operator's (name, firm)
    last_announced: tuple[str, str] | None = None
    for i, (speaker, speech, sec) in enumerate(turns, 1):
        title, firm, is_analyst = participants.get(speaker, (None, None, False))
        if speaker.lower() == "operator":
            kind, role = "operator", None
            hits = [_announced(speech, m.end()) for m in _ANNOUNCE.finditer(speech)]
            last_announced = hits[-1] if hits else last_announced
        elif speaker in known_analysts:
            kind, role, firm = "analyst", "Analyst", known_analysts[speaker]
        elif is_analyst:
            kind, role = "analyst", "Analyst"
        elif title and _MGMT_WORDS.search(title):
            kind, role = "management", title
        elif speaker in prepared_speakers:
            kind, role = "management", title
        elif sec == "qa" and (title or prev_kind == "operator"):
            # a participant listed with a firm but no title (UNP: 'Scott Group--Wolfe Research'), or anyone
            # the operator just handed the line to
            kind, role, firm = "analyst", "Analyst", title or announced.get(speaker)
        else:
            kind, role = "unknown", title
        if kind == "analyst" and not firm:
            firm = announced.get(speaker)
        if kind == "analyst" and not re.match(r"(?:unidentified|unknown)\b", speaker, re.I):
            known_analysts.setdefault(speaker, firm)
        announced_by = None
        if kind == "analyst" and prev_kind == "operator" and last_announced:
            announced_by = last_announced
        prefix = _role_prefix(speaker, kind, role, firm)
        pages.append(Page(page=i, text=prefix + speech))
        meta.append(Turn(page=i, speaker=speaker, role=role, firm=firm, kind=kind, section=sec, exchange=None,
                         prefix_len=len(prefix)))
        if announced_by:
            announcement[i] = announced_by
        prev_kind = kind

    n_prepared = sum(1 for t in meta if t.section == "prepared_remarks")
    sections: list[SectionSpan] = []
    if n_prepared:
        sections.append(SectionSpan(section="prepared_remarks", title="Prepared Remarks", page_start=1,
                                    page_end=n_prepared))
    # Q&A exchanges
    exchanges: list[list[Turn]] = []
    current: list[Turn] | None = None
    for t in meta[n_prepared:]:
        if t.kind == "operator":
            current = None
        elif t.kind == "analyst":
            if current is not None and current[0].speaker == t.speaker:
                current.append(t)  # the same analyst's follow-up
            else:
                current = [t]
                exchanges.append(current)
        elif current is not None:
            current.append(t)
    for n, group in enumerate(exchanges, 1):
        analyst = group[0]
        name, firm = analyst.speaker, analyst.firm or ""
        if re.match(r"(?:unidentified|unknown)\b", name, re.I) and analyst.page in announcement:
            name, firm = announcement[analyst.page][0], firm or announcement[analyst.page][1]
        answerers = list(dict.fromkeys(t.speaker for t in group if t.kind != "analyst"))
        sections.append(SectionSpan(
            section="qa", title=f"Q&A exchange {n}", page_start=group[0].page, page_end=group[-1].page,
            attrs={"exchange": str(n), "analyst": name, "firm": firm,
                   "speakers": "; ".join(answerers), "kind": "analyst"}))
        for t in group:
            meta[t.page - 1] = Turn(**{**t.__dict__, "exchange": n})
    if not exchanges and len(meta) > n_prepared:
        warnings.append("no analyst question found in the Q&A")
    extra = {"duration_minutes": duration} if duration else {}
    return pages, sections, meta, " ".join(s for _, s, _ in turns), extra


# ------------------------------------------------------------------------------------------ plain text

_ABBREV = {"mr", "mrs", "ms", "dr", "st", "inc", "co", "corp", "ltd", "vs", "jr", "sr", "no", "u.s", "e.g", "i.e",
           "approx", "etc"}
_QA_START = re.compile(
    r"(?:we(?:'ll| will)? now (?:begin|open|move|be conducting|conduct|take|go)[^.?!]{0,60}?(?:question|q&a)|"
    r"let's (?:go to|move to|begin|start|open)[^.?!]{0,30}?(?:q&a|questions)|compile the q&a roster|"
    r"go to investor questions|open (?:up )?the (?:call|line|lines|floor) (?:up )?(?:to|for) questions|"
    r"(?:may|can|could) we (?:have|get) the first question|(?:at this time, )?we(?:'ll| will)? (?:now )?be "
    r"conducting a question[- ]and[- ]answer session)", re.I)
_QA_END = re.compile(r"(?:reached the end of (?:our|the) question|wraps up the q&a|concludes (?:our|the|today's) "
                     r"(?:question|q&a)|(?:there are )?no further questions|that concludes the q&a)", re.I)
_RETAIL = re.compile(r"(?:\b(?:[Tt]he|[Oo]ur) |(?<=[.?!] )|^)(?:[Ff]irst|[Nn]ext|[Ll]ast|[Ff]inal) (?:question|one) "
                     r"(?:is|was)\b,?:?\s+(?!from\b|covered\b|also covered\b)")


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans of text[start:end] (start/end at non-space characters)."""
    cuts = []
    for m in re.finditer(r"[.?!](?=\s+[\"'“A-Z0-9])", text[start:end]):
        pos = start + m.end()
        prev = re.search(r"([\w.]+)[.?!]$", text[max(cuts[-1] if cuts else start, pos - _WORD_BACK):pos])
        word = prev.group(1).lower() if prev else ""
        if m.group(0) == "." and (word in _ABBREV or re.fullmatch(r"[a-z]", word) or re.fullmatch(r"(?:[a-z]\.)+[a-z]", word)):
            continue
        cuts.append(pos)
    out = _between(text, start, end, cuts)
    # hard-split run-on "sentences" (speech-to-text without punctuation) at 300 words
    final = []
    for a, b in out:
        words = [m.start() + a for m in re.finditer(r"\S+", text[a:b])]
        if len(words) <= 300:
            final.append((a, b))
            continue
        for k in range(0, len(words), 250):
            ks = words[k]
            ke = words[k + 250] if k + 250 < len(words) else b
            final.append((ks, ke if ke == b else ke - 1))
    return final


def _chunks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Group the sentences of text[start:end] into pseudo-turns of about 150-300 words."""
    sents = _sentences(text, start, end)
    if not sents:
        return []
    counts = [len(text[a:b].split()) for a, b in sents]
    total = sum(counts)
    n = max(1, round(total / 225))
    target = total / n
    ends, acc, k = [], 0, 1
    for (_, b), c in zip(sents, counts):
        acc += c
        if k < n and acc >= k * target:
            ends.append(b)
            k += 1
    return [(a, b) for a, b in _between(text, sents[0][0], end, ends) if text[a:b].strip()]


def _between(text: str, start: int, end: int, cuts: list[int]) -> list[tuple[int, int]]:
    """Contiguous spans of text[start:end] cut at ``cuts``; each span after a cut starts past its spaces."""
    out, s = [], start
    for pos in cuts:
        out.append((s, pos))
        s = pos
        while s < end and text[s] == " ":
            s += 1
    if s < end:
        out.append((s, end))
    return out


def _parse_text(path: Path, raw: str, info: DocumentInfo, warnings: list[str]):
    text = _fold(raw)
    if not _looks_like_call(text[:_HEAD]):
        raise ParseError(str(path), "text does not read like an earnings call (no call phrases such as "
                                    "'earnings call', 'listen-only mode' or 'thank you for joining' in the first 4 KB)")
    # exchange starts: the operator's announcement of an analyst, or a question read out by the host
    starts: list[tuple[int, str, str, str]] = []  # (pos, analyst, firm, kind)
    for m in _ANNOUNCE.finditer(text):
        if m.start() < 500:
            continue
        lead = re.search(r"(?:(?:and|thank you)[,.]?\s+)?(?:(?:our|your|the)\s+)?$", text[max(0, m.start() - 20):m.start()],
                         re.I)
        pos = m.start() - (len(lead.group(0)) if lead else 0)
        name, firm = _announced(text, m.end())
        if name and not all(re.fullmatch(r"[A-Za-z][A-Za-z'\-]*|(?:[A-Za-z]\.)+", w) for w in name.split()):
            # "the last question from say.com is ...": a question read out by the host
            starts.append((pos, "", "", "shareholder"))
            continue
        starts.append((pos, name, firm, "analyst"))
    first_analyst = starts[0][0] if starts else len(text)
    announced_at = sorted(p for p, *_ in starts)
    retail: list[tuple[int, str, str, str]] = []
    for m in _RETAIL.finditer(text):
        # questions read out by the host (Tesla's shareholder questions) come before the analysts' turn
        if m.start() < 500 or m.start() > first_analyst or re.match(r"(?:from|with)\b", text[m.end():m.end() + 5], re.I):
            continue
        k = bisect.bisect_left(announced_at, m.start() - 39)
        if k < len(announced_at) and announced_at[k] < m.start() + 40:
            continue  # the operator's announcement of the same question
        if retail and m.start() - retail[-1][0] < 40:
            continue  # the same question read out (matches come in order: only the last one can be this close)
        retail.append((m.start(), "", "", "shareholder"))
    starts = sorted(starts + retail)
    # drop announcements that sit inside the opening remarks (before any Q&A marker or the first 15% of the call)
    qa_marks = [m.start() for m in _QA_START.finditer(text) if m.start() > 500]
    first = starts[0][0] if starts else None
    qa_start = None
    if first is not None:
        before = [p for p in qa_marks if p < first and first - p < 3000]
        qa_start = before[-1] if before else first
    elif qa_marks:
        qa_start = qa_marks[-1]
        warnings.append("Q&A start found but no question announcements: Q&A kept as one span")
    else:
        warnings.append("no Q&A start found: the whole call is kept as prepared remarks")
    if qa_start is not None:
        # snap to the start of the sentence it sits in
        sent_start = max(text.rfind(". ", 0, qa_start), text.rfind("? ", 0, qa_start), text.rfind("! ", 0, qa_start))
        if sent_start != -1 and qa_start - sent_start < 200:
            qa_start = sent_start + 2
    qa_end = None
    if starts:
        ends = [m.start() for m in _QA_END.finditer(text) if m.start() > starts[-1][0]]
        if ends:
            e = ends[0]
            s = max(text.rfind(". ", 0, e), text.rfind("? ", 0, e))
            qa_end = s + 2 if s != -1 and e - s < 200 else e

    cuts = sorted({0, len(text), *(x for x in [qa_start, qa_end] if x is not None), *(p for p, *_ in starts)})
    pieces: list[tuple[int, int]] = []
    for a, b in zip(cuts, cuts[1:]):
        while a < b and text[a] == " ":
            a += 1
        while b > a and text[b - 1] == " ":
            b -= 1
        if a < b:
            pieces.extend(_chunks(text, a, b))
    pages = [Page(page=i, text=text[a:b]) for i, (a, b) in enumerate(pieces, 1)]

    ends = [b for _, b in pieces]

    def page_at(pos: int) -> int:
        """The page holding ``pos`` (or the first page after it): one binary search, not a scan."""
        return min(bisect.bisect_right(ends, pos) + 1, len(pieces))

    sections: list[SectionSpan] = []
    meta = []
    qa_page = page_at(qa_start) if qa_start is not None else len(pages) + 1
    if qa_page > 1:
        sections.append(SectionSpan(section="prepared_remarks", page_start=1, page_end=qa_page - 1,
                                    confidence=0.8))
    ex_pages: dict[int, int] = {}
    if starts:
        bounds = [p for p, *_ in starts] + [qa_end if qa_end is not None else len(text)]
        for n, ((pos, analyst, firm, kind), stop) in enumerate(zip(starts, bounds[1:]), 1):
            p0 = page_at(pos)
            p1 = page_at(stop) - 1 if stop < len(text) else len(pages)
            if p1 < p0:
                continue
            sections.append(SectionSpan(section="qa", title=f"Q&A exchange {n}", page_start=p0, page_end=p1,
                                        confidence=0.7,
                                        attrs={"exchange": str(n), "analyst": analyst, "firm": firm, "kind": kind}))
            for p in range(p0, p1 + 1):
                ex_pages[p] = n
    elif qa_start is not None:
        sections.append(SectionSpan(section="qa", page_start=qa_page, page_end=len(pages), confidence=0.5))
    for p in pages:
        meta.append(Turn(page=p.page, speaker=None, role=None, firm=None, kind="unknown",
                         section="qa" if p.page >= qa_page else "prepared_remarks", exchange=ex_pages.get(p.page),
                         prefix_len=0))
    return pages, sections, meta, text, {}


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
        pages, sections, meta, body, extra = _parse_json(path, obj, info, warnings)
    else:
        pages, sections, meta, body, extra = _parse_text(path, obj, info, warnings)

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

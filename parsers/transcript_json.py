"""The speaker-turn JSON layout of earnings-call transcripts (Motley-Fool style; see ``parsers.transcripts``):
participants, one page per turn ("Name (Role): speech"), the prepared-remarks span and one span per Q&A exchange."""

from __future__ import annotations

import re
from pathlib import Path

from parsers.transcript_turns import ANNOUNCE, Turn, announced_analyst, fold
from schema.errors import ParseError
from schema.models import DocumentInfo, Page, SectionSpan
from schema.page_text import turn_prefix

_MGMT_WORDS = re.compile(r"\b(?:chief|officer|president|vice|chairman|chair|director|head|treasurer|investor"
                         r"|relations|ceo|cfo|coo|cto|executive|controller|secretary|counsel|founder|manager|"
                         r"general|evp|svp|ir)\b", re.I)


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


def parse_json(path: Path, obj: dict, info: DocumentInfo, warnings: list[str]):
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
        if not fold(speech):
            warnings.append(f"empty turn by {speaker!r} skipped")
            continue
        turns.append((speaker, fold(speech), sec))
    if not turns:
        raise ParseError(str(path), "transcript has no speaker turns with text")

    prepared_speakers = {s for s, _, sec in turns if sec == "prepared_remarks"}
    # firms announced by the operator ("Our next question comes from Amit Daryanani with Evercore")
    announced: dict[str, str] = {}
    for s, speech, _ in turns:
        if s.lower() == "operator":
            for m in ANNOUNCE.finditer(speech):
                name, firm = announced_analyst(speech, m.end())
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
            hits = [announced_analyst(speech, m.end()) for m in ANNOUNCE.finditer(speech)]
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
        prefix = turn_prefix(speaker, kind, role, firm)
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

"""What both transcript layouts share (``parsers.transcript_json`` and ``parsers.transcript_text``): the
:class:`Turn` record, whitespace folding, the phrases that tell an earnings call, and the operator's
announcement of the next analyst ("our next question comes from the line of Keith Weiss with Morgan Stanley")."""

from __future__ import annotations

import re
from dataclasses import dataclass

HEAD = 4096  # the opening of a file that is read to tell a call


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


def fold(text: str) -> str:
    """Whitespace runs made one space, ends stripped: how page text and speeches are compared."""
    return re.sub(r"\s+", " ", text or "").strip()


_STRONG_CUES = ("earnings call", "earnings conference call", "q&a webcast", "results teleconference",
                "results conference call", "listen-only mode", "question-and-answer session",
                "question and answer session", "thank you for joining", "earnings presentation",
                "welcome to our q", "conference operator")
_WEAK_CUES = ("conference call", "operator", "forward-looking", "investor relations", "good afternoon",
              "good morning", "thank you for standing by", "being recorded", "webcast", "joining us today")


def call_score(head: str) -> tuple[int, int]:
    low = head.lower()
    strong = sum(1 for c in _STRONG_CUES if c in low)
    weak = sum(1 for c in _WEAK_CUES if c in low)
    return strong, weak


def looks_like_call(head: str) -> bool:
    strong, weak = call_score(head)
    return strong >= 1 and 2 * strong + weak >= 3


ANNOUNCE = re.compile(
    r"\b(?:first|next|last|final|follow-up) question(?: today| this morning| this afternoon)?"
    r"(?: is| comes| will come| will be coming| is going to come| will be| we have)?"
    r" (?:from|with)(?: the line of)?\s+", re.I)
_STOP = {"please", "your", "go", "thank", "thanks", "hi", "hey", "yes", "good", "great", "you", "the", "is", "and",
         "proceed", "okay", "ok", "so", "hello", "pleased", "this", "what's", "can", "may", "we", "i", "i'm", "my"}
_CONNECT = {"with", "from", "of", "at"}


def announced_analyst(text: str, pos: int) -> tuple[str, str]:
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

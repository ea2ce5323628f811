"""A part's names: as the question writes it, in brackets after it, in the other language; and whether a text
names it, or is under its heading. (:mod:`router.part_rows` finds its rows, :mod:`router.part_columns` its columns.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from mappings.metrics import CJK
from mappings.vocabulary import (fold, non_gaap_words, other_figure_words, part_nouns, same_part_names,
                                 simplified_in_place, standard_words)
from router.qualifiers import part_name
from schema.models import Passage, QueryPlan

T = TypeVar("T")

_CJK_PART_ENDINGS = "业务|板块|分部|系列产品|类产品|产品|系列|类"  # what a Chinese part's name may end in, or not
_FIGURE = re.compile(r"[(\-–]?\s?(?:[$¥￥]|HK\$|US\$|S\$|RMB)?\s?\d[\d,]*(?:\.\d+)?", re.I)
HEADING_MAX = 60  # a heading line is at most this long


def flexible(name: str) -> re.Pattern:
    """A name as printed: any spacing (a line break inside it too), any case, not inside a longer word."""
    pieces = [re.escape(piece) for piece in re.split(r"\s+", name.strip()) if piece]
    # a word may carry its possessive on the page ("Sam's Club U.S." for a question's "sam club u.s")
    body = r"\s*".join(r"\s*".join(re.escape(ch) for ch in p) if CJK.search(p) else p + r"(?:['’]s)?" for p in pieces)
    body = body.replace(r"\ ", r"\s+")
    return re.compile(rf"(?<![\w&]){body}(?![\w&])" if not CJK.search(name) else body, re.I)


def part_names(qualifier: str) -> tuple[list[str], list[str]]:
    """(the part's names as the question writes them, its names in the other language)."""
    q = part_name(qualifier)
    bare = " ".join(w for w in q.split() if w not in part_nouns()) or q
    bare = re.sub(r"(?<=\w)\s+(?:customers?|clients?)$", "", bare)  # "european customers": the European part
    cjk_bare = re.sub(rf"(?:{_CJK_PART_ENDINGS})$", "", bare) if CJK.search(bare) else bare
    own = [w for w in dict.fromkeys([q, bare, cjk_bare]) if len(w) >= 2]
    other = list(dict.fromkeys(name for group in same_part_names() if any(w in group for w in own)
                              for name in group if name not in own))
    return own, other


def aside_names(question: str, qualifier: str) -> list[str]:
    """The part's name in brackets right after its words in the question, as the filing prints it ("clinical trial
    technology services (临床试验技术服务)"), folded."""
    text = fold(question)
    out = []
    for hit in flexible(part_name(qualifier)).finditer(text):
        if m := re.match(r"\s*[（(]([^()（）]{2,40})[)）]", text[hit.end():]):
            out.append(simplified_in_place(m.group(1).strip()))
    words = part_name(qualifier).split()
    if not out and len(words) > 1:  # or between its words ("immunology (免疫类) products")
        aside = r"\s*[（(]([^()（）]{2,40})[)）]\s*"
        pattern = rf"(?<![\w&]){re.escape(words[0])}{aside}" + r"\s+".join(map(re.escape, words[1:]))
        out += [simplified_in_place(m.group(1).strip()) for m in re.finditer(pattern, text, re.I)]
    return out


def is_part(qualifier: str) -> bool:
    """Is a qualifier of a metric a part of it, not an adjusted measure, another figure ("goodwill impairment") or
    another standard?"""
    return not (non_gaap_words().search(qualifier) or other_figure_words().regex.fullmatch(qualifier)
                or any(p.regex.fullmatch(qualifier) for p in standard_words().values()))


# a segment's heading line ("International Segment", "Domestic Segment Performance Summary")
_PART_HEADING = re.compile(r"(?m)^[^\S\n]*([A-Z][\w&'’.,/ -]{0,50}?)\s+[Ss]egment(?:\s+(?:Performance\s+Summary|Results|"
                           r"Overview|Performance))?[^\S\n]*$")


_OF_ALL = re.compile(r"\b(?:by|per|of|for|and|all|our|reportable|operating)$", re.I)


def _bare_names(qualifier: str) -> list[str]:
    """The part's names in both languages, each without its part noun ("international segment" -> "international")."""
    own, other = part_names(qualifier)
    return [" ".join(w for w in n.split() if w not in part_nouns()) or n for n in own + other]


def segment_heading(page: str, at: int) -> str | None:
    """The name of the segment whose heading is the nearest above the place ``at`` of a page ("International" of
    "International Segment"), or None."""
    heading = None
    line_end = page.find("\n", at)  # (a passage may start with its own heading line)
    for m in _PART_HEADING.finditer(page, 0, line_end if line_end >= 0 else len(page)):
        if not _OF_ALL.search(m.group(1)):  # "Net Revenues by Segment" heads every segment's figures
            heading = m.group(1)
    return heading


def part_heading(page: str, at: int, qualifier: str) -> bool | None:
    """Is the place ``at`` of a page under the heading of the part asked (True), of another segment (False: "Our
    gross profit rate decreased ..." under "International Segment" is not the Domestic segment's), or under none on
    the page (None)? The nearest such heading above it decides."""
    heading = segment_heading(page, at)
    if heading is None:
        return None
    names = _bare_names(qualifier)
    return any(n and flexible(n).search(heading) for n in names)


# a passage that opens with a segment's name: "International segment revenue mix percentages ... were as follows:"
_SEGMENT_LEAD = re.compile(r"\W*(?:(?:the|our)\s+)?[A-Z][\w&'’./-]*(?:\s+[A-Z][\w&'’./-]*){0,3}\s+(?:reportable\s+|"
                           r"operating\s+|business\s+)?segment(?:['’]s|s)?\b(?!\s+(?:information|reporting|results\s+of\s+all))")


def heading_over(p: Passage, page_text: Callable[[str, int], str | None], find: Callable[[str, int], T | None]) -> T | None:
    """What ``find(page, offset)`` reads of the heading over a passage: on its page above it or, with none there,
    the last one of the page before (a section goes on from it). None: no page, or no heading found."""
    start, number, doc = p.source.get("char_start"), p.source.get("page"), p.source.get("document_id")
    page = page_text(doc, number) if start is not None and number else None
    if not page:
        return None
    found = find(page, start)
    if found is None and number > 1:
        before = page_text(doc, number - 1)
        found = find(before, len(before)) if before else None
    return found


def segment_scoped(p: Passage, page_text: Callable[[str, int], str | None]) -> bool:
    """Is a passage a segment's (it opens with the segment's name, or sits under a segment's heading), not the whole
    company's? A question about the company's figure reads the company's first."""
    return bool(_SEGMENT_LEAD.match(p.text)) or heading_over(p, page_text, segment_heading) is not None


_ASKING_WORDS = frozenset("what was were is are the its our their how much did does do of for in and which".split())
_NAMED_SEGMENT = re.compile(r"((?:[A-Za-z][\w&'’.-]*\s+){1,3})segment\b", re.I)


def named_segment(plan: QueryPlan) -> list[str]:
    """The segment a question names by its words when no metric of the vocabulary carries it as a part ("Netflix
    international streaming segment contribution profit": "international streaming"), without the company's name;
    passages under another segment's heading are then no answer."""
    m = _NAMED_SEGMENT.search(plan.question)
    if m is None:
        return []
    own = {w.casefold() for c in plan.companies for w in re.split(r"\W+", c.matched or "") if w}
    words_ = m.group(1).split()
    # the words after the company's name, or after the question's own words
    last = max((i for i, w in enumerate(words_) if w.casefold().strip("'’s") in own or w.casefold() in _ASKING_WORDS),
               default=-1)
    name = words_[last + 1:]
    return [" ".join(name)] if name else []


def names_part(text: str, qualifier: str) -> bool:
    """Does a text name the part (as asked, or without its part noun)?"""
    names = _bare_names(qualifier)
    folded = simplified_in_place(text)
    return any(flexible(n).search(folded) for n in names if n)


def ends_at_part(text: str, qualifier: str) -> bool:
    """Does a quote end at the part's own heading, its figures cut off ("... Operating income $5,501\nSam's Club
    U.S.(1)")? Such a quote shows the other parts' figures and none of the part's."""
    last = text.rstrip().rsplit("\n", 1)[-1]
    bare = re.sub(r"[（(]\d{1,2}[)）]|\s+", " ", last).strip()
    return not _FIGURE.search(re.sub(r"[（(]\d{1,2}[)）]", "", last)) and any(
        flexible(n).fullmatch(bare) or flexible(n).search(bare) and len(bare) <= HEADING_MAX for n in _bare_names(qualifier))


_INITIALS_SKIP = frozenset({"and", "of", "the", "&", "for"})


def spelled_by(abbreviation: str, labels: list[str]) -> str | None:
    """The one label whose words' initials spell an abbreviation as asked ("QFNA": "Quaker Foods North America"; the
    words "and" / "of" / "the" may be left out of it), or None (none, or two that do)."""
    if not re.fullmatch(r"[A-Za-z]{2,6}", abbreviation):
        return None
    wanted = abbreviation.casefold()
    found = set()
    for label in labels:
        words = re.findall(r"[A-Za-z&]+", label)
        full = "".join(w[0] for w in words).casefold()
        plain = "".join(w[0] for w in words if w.casefold() not in _INITIALS_SKIP).casefold()
        if len(words) >= 2 and wanted in (full, plain):
            found.add(label)
    return found.pop() if len(found) == 1 else None


def asked_as(question: str, names: list[str]) -> str:
    """The part's first name as the question writes it (its case: "QFNA"), or the name itself."""
    m = re.search(rf"(?<![\w&]){re.escape(names[0])}(?![\w&])", question, re.I) if names else None
    return m.group(0) if m else (names[0] if names else "")

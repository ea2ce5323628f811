"""A part's section: its own heading over running text ("(ii) Provision of Software-as-a-Service (“SaaS”)"), and the
first sentence under it that gives the metric's figure ("... the revenue has increased ... from HK$0.7 million in Year
2020 to HK$122.5 million in Year 2021."): the sentence says "the revenue", the heading says whose. Also what
:mod:`router.part_rows` reads lines by: a line of running text, a sentence's end."""

from __future__ import annotations

import re

from mappings.metrics import CJK
from router.fallback import figure_span
from router.part_names import _FIGURE, HEADING_MAX

_SENTENCE_STOP = re.compile(r"[。；;]|(?<![A-Z])\.(?=\s)")


def _prose(line: str) -> bool:
    """A line of running text, not of a table: a sentence's end, many words, or a Chinese clause."""
    line = line.strip()
    return (bool(re.search(r"[a-z]{2}\.$|。$", line)) or len(re.findall(r"[A-Za-z]{2,}", line)) > 10
            or (len(line) > 25 and "，" in line))


SECTION_AFTER = 900  # a part's sentence under its heading: at most this many characters after the heading
# a sibling heading ends the part's section: "(iii) Asset management", "2. Services", a short title line ("經紀服務")
_NEXT_HEADING = re.compile(r"\n[^\S\n]*(?:[(（](?:[ivx]{1,4}|[a-z]|\d{1,2})[)）]|\d{1,2}\.\s)[^\n]{0,60}\n|"
                           r"\n[^\S\n]*[A-Z][A-Za-z&'’ -]{2,40}\n|\n[^\S\n]*[\u4e00-\u9fff]{2,10}[^\S\n]*\n")


def part_section_span(text: str, name: re.Pattern, labels: list[str], kind: str | None) -> tuple[int, int] | None:
    """The span from the part's own heading ("(ii) Provision of Software-as-a-Service (“SaaS”)") to the end of the
    first sentence under it that gives the metric with a figure ("... the revenue has increased ... to HK$122.5 million
    in Year 2021."), before the next heading; or None. The sentence says "the revenue": the heading says whose."""
    for m in name.finditer(text):
        head = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        line = text[head: line_end].strip()
        if len(line) > HEADING_MAX or _prose(line) or _FIGURE.search(re.sub(r"^[(（]?[ivx\d]{1,4}[)）.]", "", line)) \
                or re.fullmatch(r"[(（][^()（）]*[)）]", line):  # (a name in brackets alone is a row's other name)
            continue
        before = text[:head].rstrip().rsplit("\n", 1)[-1]
        after = next((x for x in text[line_end:].split("\n") if x.strip()), "")
        if _FIGURE.search(before) or not _running_text(after):
            continue  # a table's label line, not a heading over running text
        end = min(len(text), line_end + SECTION_AFTER)
        if (sibling := _NEXT_HEADING.search(text, line_end, end)) is not None:
            end = sibling.start()
        span = figure_span(text[line_end: end], labels, kind) or _changed_to(text[line_end: end], labels)
        if span is None:
            continue
        stop = _SENTENCE_STOP.search(text, line_end + span[1], end)
        return head, stop.end() if stop else line_end + span[1]
    return None


def _running_text(line: str) -> bool:
    """A line of a paragraph: many words and no more than one figure ("The Group provides clients access to ...")."""
    return len(re.findall(r"[A-Za-z]{2,}", line)) >= 6 and len(_FIGURE.findall(line)) <= 1 or \
        len(CJK.findall(line)) >= 12 and len(_FIGURE.findall(line)) <= 1


_AMOUNT_TO = r"(?:approximately\s+|about\s+)?(?:HK\$|US\$|S\$|RMB|\$)?\s?\d[\d,]*(?:\.\d+)?"
# a change told from the earlier figure to the later one: "... from HK$0.7 million in Year 2020 to HK$122.5 million"
_FROM_TO = re.compile(rf"\bfrom\s+{_AMOUNT_TO}[^.;。；]{{0,60}}?\bto\s+{_AMOUNT_TO}(?:\s*(?:million|billion|thousand))?", re.I)


def _changed_to(text: str, labels: list[str]) -> tuple[int, int] | None:
    """(start, end) of a label and the later figure of the change its sentence tells ("the revenue has increased by
    17,400% or HK$121.8 million from HK$0.7 million in Year 2020 to HK$122.5 million"), or None."""
    lower = text.casefold()
    for label in labels:
        at = lower.find(label)
        if at < 0:
            continue
        stop = _SENTENCE_STOP.search(text, at)
        m = _FROM_TO.search(text, at, stop.start() if stop else len(text))
        if m is not None:
            return at, m.end()
    return None

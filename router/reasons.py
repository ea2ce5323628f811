"""The reason a report prints beside a metric's change. A-share reports give each line that moved a row of its
own, "项目 | 本报告期 | 上年同期 | 变动比例 | 主要原因" ("经营活动产生的现金流量净额 786,578,192.24 301,166,852.20 161.18%主要是本
期销售商品收到的现金增加导致。"), and other reports a sentence ("Revenue increased 12%, primarily due to ..."). A question
that asks why a metric moved quotes that row or sentence: the metric's label, then within a row's reach a cause
("主要是", "主要系", "由于", "due to", "primarily"), up to the end of its sentence. Labels and causes may wrap over
printed lines; every quote is an exact span of its page."""

from __future__ import annotations

import re

from mappings.metrics import CJK
from mappings.vocabulary import fold, words
from router.fallback import covering_labels, inside_longer, labels_of, span_passage
from router.line_items import topic_labels
from schema.models import Passage, QueryPlan

REASON_REACH = 160  # characters from a label to its cause: the row's figures and its change between them
REASON_MAX = 320  # a quoted reason ends at its sentence's end, or here
REASON_LINES = 4  # a reason cell centred on its row's label starts at most this many lines above it
_CAUSE = re.compile(r"主要(?:是|系|因|由于|原因|受)|由于|系因|得益于|\b(?:primarily|mainly|largely)\b|\bdue to\b|"
                    r"\bdriven by\b|\bas a result of\b|\battributable to\b|\breflect(?:s|ed|ing)?\b|\bbenefit(?:s|ed|ted)? from\b|"
                    r"\boffset by\b", re.I)
# the words a printed reason comes with, joined to the search for it (a change table's heading, its cause words)
HINT = "主要原因 变动原因 主要系 主要是 primarily due to"
_END = re.compile(r"[。；;]|\.(?:\s|$)|(?:所致|导致|造成)(?=\s*\n|\s*$)")  # a cell's cause may end without a stop


# how a why-question is put (and how much the item moved), not its topic
_ASKED_HOW = re.compile(r"(?:较|比|相比|相较)(?:上年末|上年度末|上年同期|年初|期初|上期末|上期|上年|去年同期|去年)|主要|是什么|的|大幅度?|明显|显著|较大|较多|有所|如此|这么|\b(?:main|mainly|primarily|so|much|sharply|"
                        r"significantly|materially)\b")
WRAP_TAIL = 3  # a Chinese label wraps in a narrow cell: its last characters may stand on the row's next line


def _label_pattern(label: str) -> re.Pattern:
    """A label as pages print it, wrapped over lines: any line break between its characters (or words); a Chinese
    label cut short at a space or line end, its tail printed after the row's other cells ("经营活动产生的现金流量净 主要是
    本期销售商品收到的现金\n786,578,192.24 ... 161.18%\n额 增加导致。")."""
    if CJK.search(label):
        whole = r"\n?".join(re.escape(ch) for ch in label)
        heads = [re.escape(label[:n]) + r"(?=\s)" for n in range(len(label) - 1, max(5, len(label) - WRAP_TAIL - 1), -1)]
        return re.compile("|".join([whole, *heads]), re.I)
    return re.compile(r"(?<![\w&])" + r"\s+".join(re.escape(w) for w in label.split()) + r"(?![\w&])", re.I)


_ROW = re.compile(r"\n(?![^\n]*(?:主要|由于|系因))[^\n]*\d[\d,]*\.?\d*%?")  # a line with figures: another row


def _sentence_end(text: str, at: int) -> int:
    tail = text[at: at + REASON_MAX]
    end = _END.search(tail)
    return at + (end.end() if end else len(tail))


def _after(text: str, m: re.Match) -> tuple[int, int] | None:
    """(start, end) of the label's line to the end of a cause printed after the label, in its row or sentence."""
    reach = text[m.end(): m.end() + REASON_REACH]
    cause = _CAUSE.search(reach)
    if cause is None or _END.search(reach[: cause.start()]) or _ROW.search(reach[: cause.start()]):
        return None  # no cause before this row's (or sentence's) end
    return text.rfind("\n", 0, m.start()) + 1, _sentence_end(text, m.end() + cause.end())


def _around(text: str, m: re.Match) -> tuple[int, int] | None:
    """A reason cell printed around its row's label, centred on it: the cause starts on a line above the label's
    (no figures between) and its sentence ends below it."""
    line = text.rfind("\n", 0, m.start()) + 1
    top = line
    for _ in range(REASON_LINES):
        if top == 0:
            return None
        above = text.rfind("\n", 0, top - 1) + 1
        piece = text[above: top - 1]
        if re.search(r"\d[\d,]*\.\d|\d{1,3}(?:,\d{3})+", piece):
            return None  # another row's figures: the cell above is that row's
        top = above
        if _CAUSE.match(piece.strip()):
            return top, _sentence_end(text, m.end())
    return None


def reason_passages(passages: list[Passage], metric: str) -> list[Passage]:
    """The passages that print a reason beside the metric's label, each cut from the label to the end of the
    reason's sentence: every reason the longest label with one has in a passage, in page order (a report explains
    this year's change, then last year's: "... increased by $603 million in 2022 ... decreased by $227 million in
    2021 ...")."""
    return printed_reasons(passages, labels_of(metric))


def why_labels(plan: QueryPlan) -> list[str]:
    """The label a why-question asks about when it names no metric of the vocabulary: its topic words without the
    words that ask why and how it moved ("主营业务收入为什么下降" -> 主营业务收入, "财务费用同比变动的主要原因" -> 财务费用,
    "why did selling expenses increase" -> "selling expenses")."""
    question = fold(plan.question)
    for name in ("why", "growth"):
        question = words(name).sub(" ", question)
    question = _ASKED_HOW.sub(" ", question)
    return topic_labels(plan.model_copy(update={"question": question}))


def printed_reasons(passages: list[Passage], labels: list[str]) -> list[Passage]:
    """:func:`reason_passages` for labels (longest first)."""
    covering = covering_labels(tuple(labels))
    out = []
    for p in passages:
        spans: dict[int, tuple[int, int]] = {}  # the shortest reason for each line a label starts
        lower = p.text.casefold()
        for label in labels:
            for m in _label_pattern(label).finditer(p.text):
                if inside_longer(lower, m.start(), covering.get(label, [])):
                    continue  # 收益 inside 基本每股收益: another metric's row
                span = _after(p.text, m) or _around(p.text, m)
                if span and (span[0] not in spans or span[1] - span[0] < spans[span[0]][1] - spans[span[0]][0]):
                    spans[span[0]] = span
            if spans:
                break  # the longest label that has a reason
        out += [span_passage(p, *span) for _, span in sorted(spans.items())]
    return out


# a sentence that goes on with what the cause before it included ("During the third quarter, this included employee
# leave-taking at a higher level than planned, a tighter labor market ...")
_GOES_ON = re.compile(r"(?:(?:during|in)\s[^,.]{0,40},\s*)?(?:this|these|that|those)\s+(?:included|includes|include|were|was|"
                      r"reflected|reflects|consisted)\b|(?:specifically|in\s+particular)\b|具体(?:而言|来说)|其中", re.I)


def with_cause(text: str, start: int, end: int) -> tuple[int, int]:
    """A quote ``text[start:end]`` that gives a change without its cause, taken on to the end of the next sentence
    when that one gives it ("... had 135 employees (2020: 85 employees). The increase in the number of employees was
    mainly attributable to ..."); and a cause given, on to the end of the next sentence when that one lists what it
    included ("... due to COVID-19. During the third quarter, this included employee leave-taking ...")."""
    if not _CAUSE.search(text[start:end]):
        nxt = _next_sentence(text, end)
        if not nxt or not _CAUSE.search(nxt) or _END.search(nxt.strip()[:-1]):
            return start, end
        end += len(nxt)
    nxt = _next_sentence(text, end)
    return (start, end + len(nxt)) if nxt and _GOES_ON.match(nxt.lstrip()) else (start, end)


def _next_sentence(text: str, end: int) -> str:
    """The text from ``end`` to the end of the next sentence (within REASON_MAX characters), or ""."""
    tail = text[end: end + REASON_MAX]
    stop = _END.search(tail)
    return tail[: stop.end()] if stop else ""


"""A figure printed in a list with others and matched by position: "The Group's inventory turnover, accounts receivable
turnover and accounts payable turnover periods for the year were 159 days, 25 days and 58 days, respectively." The
metric is one of the listed names (a name and the words the last one shares with all: "... turnover periods", one of
the metric's words that name's alone), and its figure the one at the same place of the list of figures; the lists
must be as long as each other."""

from __future__ import annotations

import re

from mappings.glossary import stem

_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
_SENTENCE_START = re.compile(r"(?:^|[.;:]\s|\n\n)")
_VERB = re.compile(r"\s(?:were|was|are|is|amounted\s+to|stood\s+at|reached|of|at)\s+(?:approximately\s+|about\s+)?", re.I)
_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")
_FIGURE = re.compile(r"\d")
LOOK_BACK = 400  # a sentence's start: at most this many characters before its "respectively"

# the figures after the first of a Chinese "分别" list ("分別約643,446,000港元及約543,968,000港元")
# (a unit the text layer broke over two lines, "89,161,000港" / "元及約78,186,000港元", is one unit)
_UNIT_ZH = r"(?:\s*(?:千港元|港元|人民币元|元|美元|%|百万|百萬|万|萬|亿|億|千|港|美))+"
RESPECTIVELY_MORE = re.compile(rf"(?:{_UNIT_ZH})?(?:\s*(?:、|及|和|与|與)"
                                r"\s*(?:约|約)?\s*(?:人民币|人民幣|港元|HK\$|RMB|US\$)?\s*\d[\d,]*(?:\.\d+)?"
                                rf"(?:{_UNIT_ZH})?)+")
# and in English: "... was approximately HK$643,446,000 and approximately HK$543,968,000 respectively"
RESPECTIVELY_MORE_EN = re.compile(r"(?:\s*(?:million|billion|thousand|%))?(?:\s*(?:,|and|,\s*and)\s+(?:approximately\s+|about\s+)?"
                                   r"(?:HK\$|US\$|RMB|S\$|\$)?\s*\d[\d,]*(?:\.\d+)?(?:\s*(?:million|billion|thousand|%))?)+"
                                   r"(?=,?\s+respectively)", re.I)


_STOP = frozenset("the a an of for in on at to by its their our group company s".split())


def _word_list(text: str) -> list[str]:
    return [stem(w) for w in re.findall(r"[a-z]+", text.casefold()) if w not in _STOP]


def _words(text: str) -> set[str]:
    return set(_word_list(text))


def respectively_span(text: str, labels: list[str]) -> tuple[int, int] | None:
    """(start, end) of a sentence that lists the metric among other names and gives its figure by position, with the
    end right after that figure; None when no listed name is the metric or the lists differ in length."""
    wanted = [(label, _words(label)) for label in labels if not re.search(r"[\u4e00-\u9fff]", label)]
    for m in _RESPECTIVELY.finditer(text):
        head = text[max(0, m.start() - LOOK_BACK): m.start()]
        starts = [s.end() for s in _SENTENCE_START.finditer(head)]
        sentence_at = max(0, m.start() - LOOK_BACK) + (starts[-1] if starts else 0)
        sentence = text[sentence_at: m.start()]
        verbs = list(_VERB.finditer(sentence))
        if not verbs:
            continue
        verb = verbs[-1]
        names = [n for n in _SPLIT.split(sentence[: verb.start()].strip()) if n]
        values = [v for v in _SPLIT.split(sentence[verb.end():].strip().rstrip(",")) if v]
        if len(names) < 2 or len(names) != len(values) or not all(_FIGURE.search(v) for v in values):
            continue
        own = [_words(name) for name in names]
        # the last name ends in the words all share ("... turnover periods for the year"): those after its last word
        # another name has too
        last = _word_list(names[-1])
        others = set().union(*own[:-1])
        cut = max((k for k, w in enumerate(last) if w in others), default=len(last) - 1) + 1
        shared, own[-1] = set(last[cut:]), set(last[:cut])
        # a listed name is the metric's when the metric's words are its own and the shared ones, one of them its
        # own alone ("inventory"; "turnover period" names none of them)
        hits = [i for i in range(len(names)) if any(
            words and words <= own[i] | shared and words & (own[i] - set().union(*own[:i], *own[i + 1:]))
            for _, words in wanted)]
        if len(hits) != 1:
            continue
        i = hits[0]
        at = sentence_at + verb.end()
        for value in values[: i + 1]:
            at = text.index(value, at) + len(value)
        return sentence_at, at
    return None

"""Does a passage name the measure a question asks for when it is not the metric itself: a company-defined measure
("adjusted EBITDA", 经调整净利润), a part ("financing segment revenue", 境外收入) or another figure ("goodwill
impairment losses")? The qualifier must stand by one of the metric's labels, or name the part before its figure is
given by reference ("The Group's financing segment derives ... the segment's revenue was HK$548.4 million")."""

from __future__ import annotations

import re

from mappings.metrics import CJK as _CJK
from mappings.vocabulary import other_figure_words, part_nouns, simplified_in_place
from router.part_names import part_names
from router.qualifiers import part_name
from router.fallback import labels_of
from schema.models import Passage


def _joined(lower: str) -> str:
    """Chinese run on over printed lines ("小\\n分子业务") read as one word."""
    return re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", "", lower)


# after a metric's label the qualifier is linked to it by these words only ("earnings per share from continuing
# operations", "goodwill impairment losses"); "Microsoft Cloud revenue, which includes Azure" is another measure
_LINKED = r"(?:\s+(?:from|of|in|for|by|at|on|to|the|our|its|generated|derived|attributable|related))*\s*[\s:(\-–,，]\s*"


def _words(qualifier: str) -> tuple[set[str], set[str], str]:
    """(the qualifier's English patterns, as asked and without its part noun; its Chinese ones; the qualifier)."""
    # a part named with its part noun ("International segment") is printed with it or without it
    qualifier = part_name(qualifier) if not other_figure_words().regex.fullmatch(qualifier.casefold()) else qualifier
    qualifier = qualifier.lstrip(",，、 ") or qualifier  # (a list's next item: ", short-term and pledged bank deposits")
    bare_part = " ".join(w for w in qualifier.casefold().split() if w not in part_nouns()) or qualifier.casefold()
    words_en = {re.escape(w).replace(r"\ ", r"\s+") for w in (qualifier.casefold(), bare_part)}
    word = re.escape(qualifier.casefold())
    # a question may add a Latin name the page leaves out ("小分子CDMO业务": the page prints 小分子业务)
    words_zh = {w for w in (word, re.escape(re.sub(r"[a-z0-9&]+", "", qualifier.casefold()))) if _CJK.search(w)}
    # its names in the other language ("from continuing operations": 持续经营业务; ``measures.part_of.same_part``)
    for name in part_names(qualifier)[1]:
        (words_zh if _CJK.search(name) else words_en).add(re.escape(name.casefold()).replace(r"\ ", r"\s+"))
    return words_en, words_zh, word


def _part_named(lower: str, joined: str, qualifier: str) -> list[tuple[int, int, bool]]:
    """Where the part is named: (start, end, in the joined Chinese text): as asked, or its bare name as a heading line
    ("Financing"); a bare word in running text may be another's ("margin financing")."""
    words_en, words_zh, word = _words(qualifier)
    out = [(m.start(), m.end(), bool(_CJK.search(w))) for w in words_zh | {word}
           for m in re.finditer(r"(?<![\w&])" + w + r"(?![\w&])", joined if _CJK.search(w) else lower)]
    return out + [(m.start(), m.end(), False) for w in words_en
                  for m in re.finditer(r"(?m)^[^\S\n]*" + w + r"(?:[^\S\n]+[\u4e00-\u9fff]+)?[^\S\n]*$", lower)]


def names_measure(text: str, qualifier: str, metric: str) -> bool:
    """Does a passage name the company-defined measure asked for: the qualifier ("adjusted", 经调整) within a couple
    of words of one of the metric's labels, before it ("adjusted diluted EPS", "Adjusted EBITDA") or after it
    ("Goodwill impairment losses", "earnings per share from continuing operations"), or the part named and then its
    figure by reference within a few lines ("The Group's financing segment derives ... During the Year, the segment's
    revenue was HK$548.4 million"; 该分部收入)?"""
    lower = simplified_in_place(text).casefold()  # a Traditional page read in the question's folded words
    # Chinese runs on over printed lines ("小\n分子业务")
    joined = _joined(lower)
    words_en, words_zh, word = _words(qualifier)
    for label in labels_of(metric):
        name = re.escape(label)
        if _CJK.search(label):
            gap = r"[^。；;，,\n]{0,12}"
            if any(re.search(w + gap + name, joined) or re.search(name + gap + w, joined) for w in words_zh | {word}):
                return True
        elif any(re.search(r"(?<![\w&])(?:" + w + r"(?:[^\w.;]+\w+){0,2}[^\w.;]+" + name + "|" + name + _LINKED + w +
                           r")(?![\w&])", lower) for w in words_en):  # (within a sentence: "financing projects. Revenue" is not)
            return True
    return by_reference(text, qualifier, metric) is not None


def by_reference(text: str, qualifier: str, metric: str) -> tuple[int, int] | None:
    """(start, end) of the text from the line that names the part to the end of the sentence that gives its figure
    by reference ("the segment's revenue was HK$548.4 million (2020: HK$779.2 million), accounting for ..."), or
    None. Chinese (该分部收入) is matched on the text with its line breaks joined, so it gives no span of ``text``
    but (0, len(text))."""
    lower = simplified_in_place(text).casefold()
    joined = _joined(lower)
    for start, end, cjk in _part_named(lower, joined, qualifier):
        for label in labels_of(metric):
            if bool(_CJK.search(label)) != cjk:
                continue
            if cjk:
                if re.search(_ANAPHORA_ZH + r"[^。；;，,\n]{0,12}" + re.escape(label), joined[end: end + ANAPHORA_REACH]):
                    return 0, len(text)
                continue
            ref = re.search(_ANAPHORA_EN + re.escape(label) + r"(?![\w&])", lower[end: end + ANAPHORA_REACH])
            if ref:
                stop = re.search(r"\.(?=\s+[A-Z(])|\.\s*$|\n\s*\n", text[end + ref.end():])
                return text.rfind("\n", 0, start) + 1, end + ref.end() + (stop.end() if stop else len(text) - end - ref.end())
    return None


ANAPHORA_REACH = 700  # characters after the part's name within which "the segment's revenue" is still its figure
_ANAPHORA_EN = r"(?<![\w&])(?:the|this|that)\s+(?:segment|division|business|unit)['’]s\s+(?:total\s+)?"
_ANAPHORA_ZH = r"(?:该|該|此|本)(?:分部|板块|板塊|业务|業務|分类|分類)"


def measure_passages(passages: list[Passage], non_gaap: list[tuple[str, str]]) -> list[Passage]:
    """The passages that name every company-defined measure the question asks for (a passage about the GAAP
    figure, or about another adjusted amount, does not answer for it)."""
    return [p for p in passages if all(names_measure(p.text, word, metric) for word, metric in non_gaap)]

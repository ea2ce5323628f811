"""The words a question searches with: its keywords without what became filters (:func:`content_query`), and the
words of the language it is not written in (:func:`other_language_words`): its metrics' names and what it asks for
(a reason, an outlook, a section), for a company whose filings print only the other language."""

from __future__ import annotations

import re

from mappings.glossary import chinese_for, english_glosses
from mappings.metrics import CJK, printed_names
from mappings.vocabulary import filter_words, fold, section_words, words
from schema.models import QueryPlan
from vectorstore.sparse import tokenize

def content_query(plan: QueryPlan) -> str:
    """The question without what became filters (company names, periods, "earnings call", "10-K"), question
    words and the words that ask for a quote ("which companies mentioned"), so BM25 ranks by the topic, not by
    boilerplate that repeats the company and period on every page."""
    text = fold(plan.question)
    for c in plan.companies:  # a name written before the code or name it was found by, in brackets, is its name too
        if CJK.search(text):  # ("SPDR富時大中華ETF（3073）", "日盈控股（Ri Ying Holdings，1741）")
            text = re.sub(rf"[^\s，,。？?：:；;、]*[（(]\s*{re.escape(fold(c.matched))}(?:\s*[，,、]\s*[\w.]+)?\s*[)）]", " ",
                          text)
    for c in plan.companies:  # its name, and its ticker or other name in brackets after it ("Logistic Properties of the
        # Americas (LPA)", "Asymchem（凯莱英）")
        text = re.sub(re.escape(fold(c.matched)) + r"(?:\s*[（(]\s*(?:[A-Z][A-Z0-9.]{0,7}|[\u3400-\u9fff]{2,12})\s*[)）])?",
                      " ", text)
    for piece in [p.matched for p in plan.periods if p.matched]:
        text = text.replace(fold(piece), " ")
    text = re.sub(r"[（(]\s*(?:[A-Za-z]{2}:?)?\d{3,6}(?:\.[A-Za-z]{2})?\s*[)）]", " ", text)  # a code after a name: "(6068)"
    text = filter_words().sub(" ", text)
    for asks in ("broad", "quote_verbs"):  # "which companies", "mentioned", 提及: how it is asked, not what about
        text = words(asks).sub(" ", text)
    text = re.sub(r"(?<![A-Za-z])['’]s\b", " ", text)  # the possessive left behind by a removed name
    text = re.sub(r"\s+", " ", text).strip(" ?？，,。")
    return text if tokenize(text) else plan.question




# question-word lists whose words the passage that answers prints too: a reason's "due to" / 由于, an outlook's "expect"
# (not "growth": its list holds both directions, and "decreased" finds the other kind of change)
ASKING = ("why", "outlook")
CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
ASKING_EACH = 12  # words per list in the other language, in the list's order (words no page prints add nothing to BM25)


def _of_language(phrases: tuple[str, ...], zh: bool) -> list[str]:
    """A list's plain words of one language (patterns left out, a stem's ``*`` dropped)."""
    return [p.rstrip("*") for p in phrases if not p.startswith("re:") and bool(CJK.search(p)) == zh]


def asking_words(plan: QueryPlan) -> str:
    """What the question asks for (a reason, an outlook; a section it names or is filtered to) in the words of the
    other language: "为什么下降" searches an English filing with "why reason driver drove driven by ... due to"."""
    text = fold(plan.question)
    other_zh = not CJK.search(plan.question)
    out: list[str] = []
    for name in ASKING:
        if words(name).search(text):
            out += _of_language(words(name).phrases, other_zh)[:ASKING_EACH]
    for sid, phrases in section_words().items():
        if sid in plan.sections or phrases.search(text):
            out += _of_language(phrases.phrases, other_zh)[:ASKING_EACH]
    return " ".join(dict.fromkeys(out))


# what a Chinese question ends its topic with to ask about it ("... 是多少", "... 与2020年度相比如何")
_ASKING_ZH = re.compile(r"(?:[是为有]?多少[户人名家个位只]?|几何|是什么|多大|情况|如何|怎么样|的|变化|走势|趋势|对比|比较|相比|与|和|及|同|跟)$")


def topic_run(run: str) -> str:
    """A run of a Chinese question's words without the asking words it ends in (股息收入与相比如何 -> 股息收入)."""
    while _ASKING_ZH.search(run):
        run = _ASKING_ZH.sub("", run)
    return run


def other_language_words(plan: QueryPlan) -> str:
    """The question's metrics and what it asks for, in the language it is not written in; its topic words too: a
    Chinese question's each by its dictionary gloss (合约销售的平均售价: "... average selling price"), an English one's
    phrases that are a Chinese word's sense (:func:`mappings.glossary.chinese_for`)."""
    topic = "".join(topic_run(run) for run in CJK_RUN.findall(content_query(plan))) if CJK.search(plan.question) else ""
    # (an English question's phrases that are a Chinese word's sense: "backlog" 在手订单, "clinical trial" 临床试验)
    glossed = " ".join(english_glosses(topic)) if topic else " ".join(chinese_for(content_query(plan)))
    return " ".join(filter(None, (other_language_names(plan), asking_words(plan), glossed)))


def other_language_names(plan: QueryPlan) -> str:
    """The names of the plan's metrics in the language the question is not written in: an English question about
    an A-share issuer's 净息差 finds its pages by keywords too."""
    other = "en" if CJK.search(plan.question) else "zh"
    return " ".join(filter(None, (printed_names(mid).get(other) for mid in plan.metrics)))

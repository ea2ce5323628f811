"""Which words of a passage answer the question: the 1-2 consecutive sentences quoted from each search unit.

* **Sentences, not printed lines.** Page text keeps the PDF's line breaks, and a sentence usually runs over
  several printed lines. A line break ends a sentence only where the line ends with sentence punctuation, where
  the line is short (a heading: under :data:`HEADING_SHARE` of the unit's typical line), or where the next line
  starts an item (a bullet, "(a)", "1.", "一、", "（二）", "①"); elsewhere it is a wrap inside the sentence. Within
  those pieces sentences end at ``. ! ? ;`` followed by space and at ``。！？；``.
* **Rare words weigh more.** A question word found in every passage (the company's name, "revenue" in a
  revenue question) tells the passages' sentences apart less than one found in a single passage ("PFAS",
  "Blackwell"): each word weighs its inverse document frequency over the passages being quoted. Words match by
  a light root ("exiting" / "exit", "rental" / "rent", plurals), Chinese words by jieba's words.
* **What kind of answer.** A question asking when ("timeline", "by when", 何时) prefers a sentence with a date or
  year; how much / how many (多少) one with a figure; why (原因, "due to") one that gives a cause
  (``mappings/vocabulary.yaml`` ``question_words.why`` and the cause words below).

Every quote is an exact span of the unit's text (so of its page): the honesty check requires it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from mappings.vocabulary import fold, not_company_words, words
from schema.page_text import strip_span
from vectorstore.sparse import tokenize

MAX_CHARS = 420  # a quote is at most this long (one long sentence keeps its head) ...
LIST_CHARS = 1600  # ... unless it introduces a list ("the more significant risks are as follows:"): then the list too
CLAUSE_CHARS = 900  # ... or it ends at a semicolon inside its sentence ("due to higher volume; about $180 million for
# ..."): then on to the sentence's full stop, the reasons that follow included, up to this long
HEADING_SHARE = 0.5  # a line shorter than this share of the unit's typical line, without end punctuation, is a heading
CUE_BONUS = 1.0  # in units of a common word's weight: the sentence holds the kind of answer the question asks for

_END = re.compile(r"[.!?;:。！？；：]['\"’”)）]*$")
_ITEM = re.compile(r"^\s*(?:[•●■◆▪◦·\-–—*]|\(?[a-zA-Z0-9ivx]{1,3}[.)）]\s|（?[一二三四五六七八九十]+[、）)]|[①-⑳]|\(\d+\))")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=\S)|(?<=[。！？；])")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_ROOT_SUFFIXES = ("ations", "ation", "ings", "ing", "ed", "es", "al", "s")

_WHEN = re.compile(r"\b(?:when|timeline|timing|by when|what date|which year|deadline|schedule)\b|何时|什么时候|哪一年|时间表|期限",
                   re.I)
# a figure asked: "how much", 多少, or "what" then an amount's name ("What 2022 revenue and operating margin did X guide to")
_HOW_MUCH = re.compile(r"\bhow (?:much|many|fast|quickly|large|big)\b|\bwhat (?:amount|percentage|share|rate)\b|"
                       r"\bwhat\s+(?:[\w'’-]+\s+){0,3}(?:revenues?|sales|margins?|eps|earnings|income|profits?|growth|"
                       r"capex|capital expenditures?|spending|costs?|prices?|rates?|ratios?|returns?)\b|"
                       r"\bby how much\b|多少|几成|金额|比例|增速|幅度", re.I)
_DATE = re.compile(r"\b(?:19|20)\d\d\b|\b(?:January|February|March|April|May|June|July|August|September|October|"
                   r"November|December)\b|\d{4}年|\d{1,2}月")
_FIGURE = re.compile(r"\d[\d,.]*\s*(?:%|percent|million|billion|thousand|cents?\b|万|亿|元|仙)|\$\s?\d")
_CAUSE = re.compile(r"\b(?:due to|because|driven by|primarily|mainly|as a result|attributable to|reflect(?:s|ed|ing)?|"
                    r"caused by|owing to|resulted from|led to|benefit(?:s|ed|ted)? from|offset by)\b|主要(?:因|由于|是)|由于|所致|导致|得益于|受.{1,12}影响", re.I)


def root(token: str) -> str:
    """A light root for matching question words in sentences: one common suffix off a word of 6+ letters."""
    if not token.isalpha() or len(token) < 6:
        return token
    for suffix in _ROOT_SUFFIXES:
        if token.endswith(suffix) and len(token) - len(suffix) >= 4:
            return token[: -len(suffix)]
    return token


def roots(text: str) -> set[str]:
    return {root(t) for t in tokenize(text)}


def _lines(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for line in text.split("\n"):
        spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def sentences(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of a unit (see the module docstring), each without surrounding space."""
    lines = [(a, b) for a, b in _lines(text) if text[a:b].strip()]
    if not lines:
        return []
    # the upper quartile of the lines' widths: a full printed line, of each script apart (a page printed in English
    # and Chinese side by side has short Chinese lines that are no headings)
    typical = {}
    for chinese in (False, True):
        widths = sorted(b - a for a, b in lines if bool(_CJK.search(text[a:b])) == chinese)
        typical[chinese] = widths[len(widths) * 3 // 4] if widths else 0
    pieces: list[tuple[int, int]] = []
    start = lines[0][0]
    for (a, b), nxt in zip(lines, lines[1:] + [None]):
        line = text[a:b].rstrip()
        hard = (nxt is None or bool(_END.search(line)) or len(line.strip()) < HEADING_SHARE * typical[bool(_CJK.search(line))]
                or bool(_ITEM.match(text[nxt[0]:nxt[1]])))
        if hard:
            pieces.append((start, b))
            if nxt is not None:
                start = nxt[0]
    out: list[tuple[int, int]] = []
    for a, b in pieces:
        pos = a
        for m in _SENTENCE.finditer(text, a, b):
            out.append((pos, m.start()))
            pos = m.end()
        out.append((pos, b))
    return [strip_span(text, a, b) for a, b in out if text[a:b].strip()]


def term_weights(query: str, passages: Iterable[str]) -> dict[str, float]:
    """Each question word's weight: its inverse document frequency over the passages being quoted."""
    texts = [roots(p) for p in passages]
    n = max(len(texts), 1)
    return {t: math.log(1 + (n + 1) / (1 + sum(t in x for x in texts))) for t in roots(query)}


TOPIC_SHARE = 0.5  # a passage speaks of the topic when it holds this share of the topic words' weight


def topic_terms(query: str) -> set[str]:
    """The words of a question that say what it is about: not its question words ("which companies", "mentioned",
    "discuss"), not the words that never name anything on their own ("company", 公司)."""
    never = not_company_words()
    asks = [words(name) for name in ("broad", "quote_verbs")]
    return {root(t) for t in tokenize(query)
            if t not in never and not any(p.regex.fullmatch(t) for p in asks)}


def topic_share(text: str, topic: dict[str, float]) -> float:
    """The share of the topic words' weight a passage holds (no topic: 1)."""
    total = sum(topic.values())
    if not total:
        return 1.0
    found = roots(text)
    return sum(w for t, w in topic.items() if t in found) / total


def phrase_length(text: str, query: str) -> int:
    """The most topic words of the question a passage prints one after another, in the question's order
    ("industrywide supply chain disruptions" holds all three of "supply chain disruptions"; a turn with
    "disruption" and, later, "supply chain" holds two)."""
    topic = topic_terms(query)
    asked = [r for r in (root(t) for t in tokenize(query)) if r in topic]
    if len(asked) < 2:
        return len(asked)
    found = [root(t) for t in tokenize(text)]
    best = 0
    for i in range(len(asked)):
        for j in range(len(found)):
            n = 0
            while i + n < len(asked) and j + n < len(found) and asked[i + n] == found[j + n]:
                n += 1
            best = max(best, n)
    return best


def mentions(text: str, topic: dict[str, float]) -> bool:
    """Whether a passage holds at least :data:`TOPIC_SHARE` of the topic words' weight (no topic: yes)."""
    return topic_share(text, topic) >= TOPIC_SHARE


def cues(question: str) -> list[re.Pattern]:
    """The kinds of answer a question asks for, as patterns a quoted sentence should match."""
    text = fold(question)
    out = []
    if _WHEN.search(text):
        out.append(_DATE)
    if _HOW_MUCH.search(text):
        out.append(_FIGURE)
    if words("why").search(text):
        out.append(_CAUSE)
    return out


def best_quote(text: str, weights: dict[str, float], wanted: list[re.Pattern] | None = None,
               max_chars: int = MAX_CHARS) -> tuple[int, int]:
    """The span of the 1-2 consecutive sentences of ``text`` that answer best: the weight of the question words
    they hold, the kind of answer asked for, some substance (a heading alone is no quote), not too long."""
    a, b, _score = scored_quote(text, weights, wanted, max_chars)
    return a, b


def scored_quote(text: str, weights: dict[str, float], wanted: list[re.Pattern] | None = None,
                 max_chars: int = MAX_CHARS) -> tuple[int, int, float]:
    """:func:`best_quote` with its score (how well the quoted sentences answer; comparable across passages quoted
    with the same ``weights``)."""
    spans = sentences(text)
    if not spans:
        return 0, len(text), 0.0
    common = min(weights.values()) if weights else 1.0
    best, best_score = spans[0], -1.0
    for i, (a, _b) in enumerate(spans):
        for j in (i, i + 1):
            if j >= len(spans):
                continue
            end = spans[j][1]
            if end - a > max_chars and j > i:
                continue
            window = text[a:end]
            found = roots(window)
            score = sum(w for t, w in weights.items() if t in found)
            score += CUE_BONUS * common * sum(1 for cue in wanted or () if cue.search(window))
            length = end - a
            substance = min(1.0, (length + 2 * len(_CJK.findall(window))) / 120)
            score = (score + 0.5) * substance / (1 + 0.002 * length)
            if score > best_score:
                best, best_score = (a, end), score
    a, b = best
    if b - a > max_chars:  # one long sentence: keep its head
        b = a + max_chars
    else:
        b = _with_its_clauses(text, spans, a, _with_its_list(text, spans, a, b))
    return (*strip_span(text, a, b), best_score)


_INTRODUCES = re.compile(r"[:：]['\"’”)）]*$")
_ENDS = re.compile(r"[.!?。！？]['\"’”)）]*$")


# (an English semicolon only: a Chinese table of reasons ends each row's reason with "；", and the next row is another
# line item's)
_CLAUSE_ENDS = re.compile(r";['\"’”)]*\s*$")


def _with_its_clauses(text: str, spans: list[tuple[int, int]], a: int, b: int) -> int:
    """The end of a quote ``text[a:b]`` that stops at a semicolon inside a sentence: the clauses after it, up to the
    sentence's end (at most :data:`CLAUSE_CHARS` from ``a``; a bulleted item after it is another item, not read)."""
    end = b
    for s, e in spans:
        if e <= end:
            continue
        if not _CLAUSE_ENDS.search(text[a:end]) or _ITEM.match(text[s:e]) or e - a > CLAUSE_CHARS:
            break
        end = e
    return end


def _with_its_list(text: str, spans: list[tuple[int, int]], a: int, b: int) -> int:
    """The end of a quote ``text[a:b]`` that introduces a list (a sentence of it, or the one right after it, ends
    with a colon and items follow): the items follow it, up to :data:`LIST_CHARS` from ``a``; else ``b``."""
    inside = [i for i, (s, e) in enumerate(spans) if s >= a and e <= b]
    if not inside:
        return b
    intro = next((i for i in [*inside, inside[-1] + 1] if i + 1 < len(spans)
                  and _INTRODUCES.search(text[spans[i][0]:spans[i][1]])
                  and _ITEM.match(text[spans[i + 1][0]:spans[i + 1][1]])), None)
    if intro is None:
        return b
    end, previous = max(b, spans[intro][1]), text[spans[intro][0]:spans[intro][1]]
    for s, e in spans[intro + 1:]:
        piece = text[s:e]
        # an item, or the rest of one (an item runs over sentences until one ends it with a full stop)
        if e - a > LIST_CHARS or not (_ITEM.match(piece) or not _ENDS.search(previous)):
            break
        end, previous = max(end, e), piece
    return end

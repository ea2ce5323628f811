"""BM25 sparse vectors for Qdrant, IDF left to the engine (sparse vector config with ``Modifier.IDF``).

Document side: one value per unique term, the BM25 term-frequency saturation
``tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))`` with a fixed ``avglen`` per language (units are
~220 words, so a fixed figure is close to the true mean and keeps vectors independent of ingest order).
Query side: 1.0 per unique term. Qdrant multiplies query values by ``idf = ln(1 + (N - n + 0.5) / (n + 0.5))``
at search time, so dot(query, doc) is the BM25 score.

Tokens:
- Latin text: lowercased, split on anything not a letter or digit; numbers kept whole ("1,815,013.77" ->
  "1815013.77", "10-K" -> "10", "k" dropped as a single letter); a small stopword list dropped; light
  plural stemming ("risks" -> "risk", "companies" -> "company"), chosen by measuring: page-level BM25 on
  the 84 FinanceBench dev questions, evidence-page Recall@20 over all 71 documents 0.238 without stemming,
  0.286 with it; inside the right document 0.631 either way.
- CJK runs: jieba ``cut_for_search`` (words plus their in-dictionary sub-words, so "风险因素" also yields
  "风险" and "因素" and a query for a sub-term still hits a longer compound); punctuation and a few
  function characters dropped. Mixed strings are split into CJK and non-CJK runs, each tokenised by its own
  rule, whatever ``lang`` says; ``lang`` only picks the ``avglen``.

Term ids: the first 4 bytes of blake2b(token) as an unsigned 32-bit integer (stable across runs, machines
and Python versions; collisions at ~1e5 distinct terms are rare and harmless for BM25).
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

# Tried and not kept (FinanceBench dev, shared store with filters, store of 2026-12-03, tuning half R@5 / R@20 /
# MRR against 0.833 / 0.929 / 0.651 now): b 0.5 0.833 / 0.929 / 0.654, b 0.35 0.810 / 0.929 / 0.688, k1 0.9
# 0.833 / 0.905 / 0.661, k1 1.6 0.810 / 0.952 / 0.636 (a one-question difference is noise); Snowball (Porter2)
# stemming instead of plurals 0.833 / 0.881 (checking half 0.667 / 0.881: not used to choose); a heading field
# (``h:`` terms from a unit's heading lines, "Note 7. Debt", queried at weight 0.25 / 0.5 / 1.0) 0.810 / 0.929,
# 0.810 / 0.952, 0.786 / 0.952.
K1 = 1.2
B = 0.75

# Mean unit length in tokens, measured on corpus text: 220-word FinanceBench chunks -> 137 tokens; 400-character
# A-share chunks -> 94 tokens (cut_for_search counts sub-words too). Override per collection via Bm25Encoder(avglen=...).
DEFAULT_AVGLEN = {"en": 137.0, "zh": 95.0}
WORD_PAIRS = True  # index and query adjacent word pairs too (:func:`word_pairs`)

EN_STOPWORDS = frozenset(
    """a an and are as at be been but by for from had has have he her his i if in into is it its itself
    of on or our ours she that the their them then there these they this those to was we were which who
    whom will with would you your than so such not no nor do does did can could may might shall should
    also any all each other some more most only own same very s t""".split()
)
ZH_STOPWORDS = frozenset("的 了 和 与 及 或 等 是 在 对 为 其 之 于 以 并 而 中 也 被 将 由 从 至 则 该 各 个 年 月 日".split())

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002a6df"
_RUNS = re.compile(rf"([{_CJK}]+)")
_LATIN_TOKEN = re.compile(r"\d+(?:[.,]\d+)*(?:[^\W\d_]+\d*)?|[^\W\d_]+\d*[^\W_]*", re.UNICODE)
_CJK_TOKEN = re.compile(rf"[{_CJK}0-9a-zA-Z]")

_jieba = None
_jieba_lock = threading.Lock()


def _get_jieba():
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                jieba.initialize()
                _jieba = jieba
    return _jieba


def stem(token: str) -> str:
    """Light English plural stemming: risks -> risk, companies -> company, losses -> loss (not 'los')."""
    n = len(token)
    if n <= 3 or not token.isalpha():
        return token
    if token.endswith("ies") and n > 4:
        return token[:-3] + "y"
    if token.endswith(("sses", "xes", "ches", "shes")):
        return token[:-2]
    if token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


@lru_cache(maxsize=1 << 17)
def _latin_term(tok: str, stemming: bool) -> str | None:
    """One lowercased Latin match as it is indexed (None: dropped). Cached: a filing repeats a few thousand
    words, and tokenising is most of what storing a document costs."""
    if tok[0].isdigit():
        tok = tok.replace(",", "")
        return tok[:-1] if tok.endswith(".") else tok
    if len(tok) < 2 or tok in EN_STOPWORDS:
        return None
    return stem(tok) if stemming else tok


def _latin_tokens(text: str, stemming: bool) -> list[str]:
    return [t for m in _LATIN_TOKEN.findall(text.lower()) if (t := _latin_term(m, stemming))]


@lru_cache(maxsize=1 << 15)
def _cjk_tokens(run: str) -> tuple[str, ...]:
    jieba = _get_jieba()
    return tuple(t for t in jieba.cut_for_search(run, HMM=True) if t not in ZH_STOPWORDS and _CJK_TOKEN.search(t))


def tokens_and_pairs(text: str, stemming: bool = True, pairs: bool = True) -> tuple[list[str], list[str]]:
    """One pass over a mixed English / Chinese string: its tokens (CJK runs by jieba, the rest by the Latin rule)
    and, with ``pairs``, the adjacent pairs of Latin words ("supply chain", "quick ratio") as one term each,
    stopwords skipped and figures left out: a phrase in a question then scores where the phrase is printed, not
    where its two words are scattered. CJK runs need no pairs: jieba's words already are phrases."""
    tokens: list[str] = []
    joined: list[str] = []
    for i, part in enumerate(_RUNS.split(text)):
        if not part:
            continue
        if i % 2:  # CJK run (odd indices of a split on a capturing group)
            tokens.extend(_cjk_tokens(part))
            continue
        words = _latin_tokens(part, stemming)
        tokens.extend(words)
        if pairs:
            joined += [f"{a}_{b}" for a, b in zip(words, words[1:]) if not (a[0].isdigit() or b[0].isdigit())]
    return tokens, joined


def tokenize(text: str, stemming: bool = True) -> list[str]:
    """Tokens of a mixed English / Chinese string (CJK runs by jieba, the rest by the Latin rule)."""
    return tokens_and_pairs(text, stemming, pairs=False)[0]


def word_pairs(text: str, stemming: bool = True) -> list[str]:
    """Adjacent pairs of Latin words as one term each (see :func:`tokens_and_pairs`)."""
    return tokens_and_pairs(text, stemming)[1]


@lru_cache(maxsize=1 << 18)
def term_id(token: str) -> int:
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=4).digest(), "little")


def _lang_key(lang: str | None) -> str:
    return "zh" if lang and lang.lower().startswith("zh") else "en"


@dataclass
class Bm25Encoder:
    """BM25 document / query encoder. ``avglen`` maps a language key ("en", "zh") to the mean unit length."""

    k1: float = K1
    b: float = B
    avglen: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_AVGLEN))
    stemming: bool = True
    pairs: bool = WORD_PAIRS
    headings: bool = True  # a unit is indexed with the headings above it on its page (``SearchUnit.context``)

    def tokens(self, text: str) -> list[str]:
        return tokenize(text, self.stemming)

    def terms(self, text: str) -> list[str]:
        """The terms a text is indexed and queried by: its tokens, and its word pairs when ``pairs``."""
        toks, pairs = tokens_and_pairs(text, self.stemming, self.pairs)
        return toks + pairs

    def encode_document(self, text: str, lang: str | None = None) -> tuple[list[int], list[float]]:
        toks, pairs = tokens_and_pairs(text, self.stemming, self.pairs)
        if not toks:
            return [], []
        avg = self.avglen.get(_lang_key(lang)) or DEFAULT_AVGLEN["en"]
        norm = self.k1 * (1.0 - self.b + self.b * len(toks) / avg)  # the length is the unit's words
        weights: dict[int, float] = {}
        for tok, tf in Counter(toks + pairs).items():
            tid = term_id(tok)
            # hash collisions within one unit: add up (rare)
            weights[tid] = weights.get(tid, 0.0) + tf * (self.k1 + 1.0) / (tf + norm)
        idx = sorted(weights)
        return idx, [weights[i] for i in idx]

    def encode_unit(self, text: str, context: str | None, lang: str | None = None) -> tuple[list[int], list[float]]:
        """A search unit's document vector: its text, and the headings above it when this encoding holds them."""
        return self.encode_document(f"{context}\n{text}" if self.headings and context else text, lang)

    def encode_query(self, text: str, lang: str | None = None) -> tuple[list[int], list[float]]:
        idx = sorted({term_id(t) for t in self.terms(text)})
        return idx, [1.0] * len(idx)


_default = Bm25Encoder()

# The sparse encodings a collection can be built with; a collection records its own (``vectorstore.index``) and is
# queried with it, so a store built before word pairs (or before units carried their headings) keeps working, and
# new documents join it encoded as its others are, until `filings index --rebuild`.
SPARSE_SETTINGS = {"bm25": Bm25Encoder(pairs=False, headings=False),
                   "bm25+pairs": Bm25Encoder(pairs=True, headings=False),
                   "bm25+pairs+headings": Bm25Encoder(pairs=True, headings=True)}
DEFAULT_SPARSE = "bm25+pairs+headings" if WORD_PAIRS else "bm25"


def encoder(setting: str | None = None) -> Bm25Encoder:
    """The encoder of a sparse setting (None: the default one)."""
    return _default if setting is None else SPARSE_SETTINGS[setting]


def encode_document(text: str, lang: str | None = None) -> tuple[list[int], list[float]]:
    return _default.encode_document(text, lang)


def encode_query(text: str, lang: str | None = None) -> tuple[list[int], list[float]]:
    return _default.encode_query(text, lang)

"""Words of analysis as data: ``analysis.yaml`` (operations a metric question asks for, how many years a span
covers, which metrics are profits, the wording of changes), compiled and checked on load."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from mappings.metrics import HERE, load_yaml, metrics
from mappings.vocabulary import filter_words
from schema.errors import ConfigError

FILE = HERE / "analysis.yaml"
OPERATIONS = ("cagr", "average", "ttm")
CHANGE_WORDS = ("not_meaningful", "turned_profit", "turned_loss", "loss_narrowed", "loss_widened", "turned_positive",
                "turned_negative", "negative_narrowed", "negative_widened", "from_zero", "change_in_amount")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


def _pattern(phrase: str) -> str:
    if phrase.startswith("re:"):
        return phrase[3:]
    if _CJK.search(phrase):
        return re.escape(phrase)
    return r"(?<![\w&])" + r"[\s\-]+".join(re.escape(w) for w in phrase.split()) + r"(?![\w&])"


# A Chinese generic word names the amount only standing alone: after a period word, a possessive, a digit, a Latin
# letter or the start, and not as the head of a measure of its own (成本收入比, 利润率, 利润总额, 盈利能力)
_ALONE_AFTER = "年度期季的之总總和与及、 "
_COMPOUND_HEADS = "率比总總额額占能构構"
_COMPOUND_WORDS = ("分配", "表")  # 利润分配 (a dividend plan), 利润表 (the statement): no amount of profit


def _standing_alone(word: str) -> str:
    if not _CJK.search(word):
        return word
    return ("re:(?:(?<![\u4e00-\u9fff])|(?<=[" + _ALONE_AFTER + "]))" + re.escape(word)
            + "(?![" + _COMPOUND_HEADS + "]|" + "|".join(_COMPOUND_WORDS) + ")")


def _compile(name: str, phrases) -> re.Pattern:
    if not isinstance(phrases, list) or not phrases:
        raise ConfigError(f"{FILE}: {name} must be a non-empty list of phrases")
    try:
        return re.compile("|".join(f"(?:{_pattern(str(p))})" for p in phrases), re.I)
    except re.error as exc:
        raise ConfigError(f"{FILE}: {name}: invalid pattern ({exc})") from None


@dataclass(frozen=True)
class Analysis:
    operations: dict[str, re.Pattern]
    span_years: re.Pattern
    profit_metrics: frozenset[str]
    change_words: dict[str, dict[str, str]]
    generic_words: tuple[tuple[re.Pattern, str, str], ...]  # (pattern, word, metric id), longest word first
    amount_question: re.Pattern
    fiscal_year_words: re.Pattern

    def fiscal_named(self, phrase: str) -> bool:
        """Does a period phrase name the year as the company does ("fiscal 2024", FY2024, 2024财年)?"""
        return bool(self.fiscal_year_words.search(unicodedata.normalize("NFKC", phrase or "")))

    def generic_metric(self, question: str) -> tuple[str, str] | None:
        """(word, metric id) when an amount question names a metric only by a generic word."""
        text = unicodedata.normalize("NFKC", question)
        if not self.amount_question.search(text):
            return None
        text = filter_words().sub(" ", text)  # "earnings" of "earnings call" names the call, not an amount
        for pattern, word, metric in self.generic_words:
            if pattern.search(text):
                return word, metric
        return None

    def operation(self, question: str) -> str | None:
        """cagr, average or ttm when the question asks for one (the first listed wins)."""
        text = unicodedata.normalize("NFKC", question)
        return next((op for op in OPERATIONS if self.operations[op].search(text)), None)

    def years_spanned(self, question: str) -> int | None:
        """The N of "N-year" / N年 in the question, if any."""
        m = self.span_years.search(unicodedata.normalize("NFKC", question))
        if not m:
            return None
        word = next(g for g in m.groups() if g)
        n = int(word) if word.isdigit() else _NUMBER_WORDS.get(word.lower())
        return n if n and 1 <= n <= 30 else None

    def word(self, key: str, zh: bool) -> str:
        return self.change_words[key]["zh" if zh else "en"]


@lru_cache(maxsize=1)
def analysis() -> Analysis:
    data = load_yaml(FILE.name)
    ops = data.get("operations") or {}
    unknown = set(ops) - set(OPERATIONS)
    if unknown or set(OPERATIONS) - set(ops):
        raise ConfigError(f"{FILE}: operations must be exactly {', '.join(OPERATIONS)}")
    profit = data.get("profit_metrics") or []
    known = set(metrics())
    from mappings.metrics import ratios  # ratio ids (ebitda) may be profits too

    bad = [m for m in profit if m not in known and m not in ratios()]
    if bad:
        raise ConfigError(f"{FILE}: profit_metrics: unknown metric id(s) {', '.join(bad)}")
    words = data.get("change_words") or {}
    missing = [k for k in CHANGE_WORDS if not (isinstance(words.get(k), dict) and words[k].get("en") and words[k].get("zh"))]
    if missing:
        raise ConfigError(f"{FILE}: change_words needs en and zh for {', '.join(missing)}")
    generic = data.get("generic_metric_words") or {}
    bad = [f"{w}: {m}" for w, m in generic.items() if m not in known and m not in ratios()]
    if bad:
        raise ConfigError(f"{FILE}: generic_metric_words: unknown metric id(s) {', '.join(bad)}")
    generic_words = tuple((_compile(f"generic_metric_words.{w}", [_standing_alone(w)]), w, m)
                          for w, m in sorted(generic.items(), key=lambda kv: -len(kv[0])))
    return Analysis(operations={op: _compile(f"operations.{op}", ops[op]) for op in OPERATIONS},
                    span_years=_compile("span_years", data.get("span_years")),
                    profit_metrics=frozenset(profit), change_words={k: dict(words[k]) for k in CHANGE_WORDS},
                    generic_words=generic_words, amount_question=_compile("amount_question", data.get("amount_question")),
                    fiscal_year_words=_compile("fiscal_year_words", data.get("fiscal_year_words")))

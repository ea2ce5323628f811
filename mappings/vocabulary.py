"""The words of questions as data: ``vocabulary.yaml`` (question words, section words, report forms, filter
words, generic company words) compiled into matchers, checked on load.

A phrase list becomes one :class:`Phrases` matcher: Latin phrases as whole words (case-insensitive; a space
matches any run of spaces or hyphens, an apostrophe either apostrophe, a trailing ``*`` any word ending),
Chinese phrases as substrings, ``re:`` entries as regular expressions. Callers fold the text first
(:func:`fold`: NFKC, Traditional -> Simplified Chinese), so the lists hold Simplified forms only.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from mappings.metrics import HERE, load_yaml
from schema.errors import ConfigError

_CJK = re.compile(r"[\u4e00-\u9fff]")
_SECTIONS = {"question_words", "sections", "forms", "filter_words", "generic_company_words", "ambiguous_metric_words",
             "bare_metric_words", "not_company_words", "same_words_zh",
             "measures"}


@lru_cache(maxsize=1)
def _t2s():
    from opencc import OpenCC

    return OpenCC("t2s")


def to_simplified(text: str) -> str:
    """Traditional Chinese to Simplified (營業收入 -> 营业收入); text without Chinese is returned unchanged."""
    return _t2s().convert(text) if _CJK.search(text) else text


def simplified_in_place(text: str) -> str:
    """``text`` in Simplified Chinese where that keeps every character at its place (a page's spans stay valid), else
    ``text``: a Simplified name is found on a Traditional page (經紀服務 as 经纪服务)."""
    out = to_simplified(text)
    return out if len(out) == len(text) else text


def longest_first(words) -> list:
    """Words longest first, ties by text: alternations and query words in one order in every process (a set's own
    order follows the process's hash seed)."""
    return sorted(words, key=lambda w: (-len(w), w))


def fold(text: str) -> str:
    """The form questions and vocabulary are compared in: NFKC (full-width to half-width), Simplified Chinese.
    Lengths can change under NFKC, so spans found in folded text index the folded text."""
    return to_simplified(unicodedata.normalize("NFKC", text or ""))


def phrase_pattern(phrase: str) -> str:
    """The regular expression of one vocabulary phrase (see the module docstring)."""
    if phrase.startswith("re:"):
        return phrase[3:]
    if _CJK.search(phrase):
        return re.escape(phrase)
    stem = phrase.endswith("*")
    body = phrase[:-1] if stem else phrase
    parts = [re.escape(w).replace("'", "['’]").replace("’", "['’]") for w in body.split()]
    pattern = r"[\s\-]+".join(parts) + (r"[\w'’\-]*" if stem else "")
    return r"(?<![\w&])" + pattern + r"(?![\w&])"


@dataclass(frozen=True)
class Phrases:
    """One phrase list as a matcher over folded text."""

    name: str
    phrases: tuple[str, ...]
    regex: re.Pattern

    def search(self, text: str) -> re.Match | None:
        return self.regex.search(text)

    def spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in self.regex.finditer(text)]

    def sub(self, repl: str, text: str) -> str:
        return self.regex.sub(repl, text)


def compile_phrases(name: str, phrases: list) -> Phrases:
    if not isinstance(phrases, list) or not phrases:
        raise ConfigError(f"{HERE / 'vocabulary.yaml'}: {name} must be a non-empty list of phrases")
    seen: set[str] = set()
    patterns = []
    for p in phrases:
        text = str(p)
        key = fold(text).casefold()
        if key in seen:
            raise ConfigError(f"{HERE / 'vocabulary.yaml'}: {name} lists {text!r} twice")
        seen.add(key)
        pattern = phrase_pattern(text)
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"{HERE / 'vocabulary.yaml'}: {name}: bad pattern {text!r} ({exc})") from None
        patterns.append((len(text), pattern))
    # longest first, so "risk factors" wins over "risk" in one alternation
    joined = "|".join(f"(?:{p})" for _, p in sorted(patterns, key=lambda x: -x[0]))
    return Phrases(name, tuple(str(p) for p in phrases), re.compile(joined, re.I))


@lru_cache(maxsize=1)
def _data() -> dict:
    data = load_yaml("vocabulary.yaml")
    unknown = set(data) - _SECTIONS
    missing = _SECTIONS - set(data)
    if unknown or missing:
        raise ConfigError(f"{HERE / 'vocabulary.yaml'}: unknown sections {sorted(unknown)}, missing {sorted(missing)}")
    return data


@lru_cache(maxsize=1)
def question_words() -> dict[str, Phrases]:
    """narrative, why, quote_verbs, trend, compare, growth, broad, quarterly."""
    return {k: compile_phrases(f"question_words.{k}", v) for k, v in _data()["question_words"].items()}


def words(name: str) -> Phrases:
    try:
        return question_words()[name]
    except KeyError:
        raise ConfigError(f"{HERE / 'vocabulary.yaml'}: no question_words.{name}") from None


@lru_cache(maxsize=1)
def section_words() -> dict[str, Phrases]:
    """Section id -> the words that point a question at it, in file order."""
    return {k: compile_phrases(f"sections.{k}", v) for k, v in _data()["sections"].items()}


@lru_cache(maxsize=1)
def form_words() -> list[tuple[Phrases, tuple[str, ...]]]:
    """(words naming a report, the document forms that are that report)."""
    out = []
    owner: dict[str, str] = {}
    for key, spec in _data()["forms"].items():
        if not isinstance(spec, dict) or not spec.get("words") or not spec.get("forms"):
            raise ConfigError(f"{HERE / 'vocabulary.yaml'}: forms.{key} needs words and forms")
        for w in spec["words"]:
            other = owner.setdefault(fold(str(w)).casefold(), key)
            if other != key:
                raise ConfigError(f"{HERE / 'vocabulary.yaml'}: {w!r} names both forms.{other} and forms.{key}")
        out.append((compile_phrases(f"forms.{key}", spec["words"]), tuple(str(f) for f in spec["forms"])))
    return out


@lru_cache(maxsize=1)
def filter_words() -> Phrases:
    return compile_phrases("filter_words", _data()["filter_words"])


@lru_cache(maxsize=1)
def not_company_words() -> frozenset[str]:
    """Words that never name a company on their own: generic legal-name words and ``not_company_words``."""
    return generic_company_words() | frozenset(fold(str(w)).casefold() for w in _data()["not_company_words"])


@lru_cache(maxsize=1)
def generic_company_words() -> frozenset[str]:
    ws = _data()["generic_company_words"]
    compile_phrases("generic_company_words", ws)  # the duplicate check
    return frozenset(fold(str(w)).casefold() for w in ws)


@lru_cache(maxsize=1)
def ambiguous_metric_words() -> frozenset[str]:
    ws = _data()["ambiguous_metric_words"]
    compile_phrases("ambiguous_metric_words", ws)
    return frozenset(fold(str(w)).casefold() for w in ws)


@lru_cache(maxsize=1)
def bare_metric_words() -> list[tuple[re.Pattern, str]]:
    """(pattern, metric id) for the Chinese words that name a metric only standing alone (``bare_metric_words``):
    the word after a period word, a possessive, a digit, a Latin letter or the start, and before no character
    that would make it a compound."""
    from mappings.metrics import metrics

    spec = _data()["bare_metric_words"]
    before = re.escape(fold(str(spec["after"])))
    after = re.escape(fold(str(spec["not_before"])))
    # after a part's marker the word names the part's figure (境外收入, 测试业务收入): ``measures.part_of.markers``
    markers = "".join(f"|(?<={re.escape(m)})" for m in part_markers())
    out = []
    for word, mid in (spec.get("words") or {}).items():
        if mid not in metrics():
            raise ConfigError(f"{HERE / 'vocabulary.yaml'}: bare_metric_words.words.{word} names no known metric")
        out.append((re.compile(rf"(?:(?<=[{before}])|(?<![\u3400-\u9fff]){markers})({re.escape(fold(str(word)))})(?![{after}])"),
                    mid))
    return out


@lru_cache(maxsize=1)
def part_metric_words() -> list[tuple[re.Pattern, str]]:
    """(pattern, metric id) for a bare word right after Chinese words that may be a part's name (数据中心收入): group 1
    is the run of Chinese words before it, group 2 the word (:func:`income_kind` tells the runs that are no part)."""
    spec = _data()["bare_metric_words"]
    after = re.escape(fold(str(spec["not_before"])))
    out = []
    for word in spec.get("after_a_part") or []:
        mid = (spec.get("words") or {}).get(word)
        if mid is None:
            raise ConfigError(f"{HERE / 'vocabulary.yaml'}: bare_metric_words.after_a_part.{word} is not a bare word")
        out.append((re.compile(rf"([\u4e00-\u9fff]+)({re.escape(fold(str(word)))})(?![{after}])"), mid))
    return out


def income_kind(run: str) -> bool:
    """Do the Chinese words before a bare word make a kind of income of their own (利息收入, 其他业务收入 is no part's
    revenue ... ``bare_metric_words.income_kinds``), or end with a period or possessive word (年度收入)?"""
    spec = _data()["bare_metric_words"]
    return run[-1:] in fold(str(spec["after"])) or any(run.endswith(fold(str(k))) for k in spec.get("income_kinds") or [])


@lru_cache(maxsize=1)
def market_measure_words() -> Phrases:
    """Market measures (P/E, market cap, 市盈率): they need share prices, which filings do not carry."""
    return compile_phrases("measures.market", _data()["measures"]["market"])


@lru_cache(maxsize=1)
def non_gaap_words() -> Phrases:
    """Words that make a metric a company-defined measure ("adjusted", "core", 经调整)."""
    return compile_phrases("measures.non_gaap", _data()["measures"]["non_gaap"])


@lru_cache(maxsize=1)
def part_words() -> tuple[frozenset[str], re.Pattern]:
    """(English words that never narrow the metric named after them, the Chinese endings that do): see
    ``measures.part_of`` in vocabulary.yaml."""
    spec = _data()["measures"].get("part_of") or {}
    plain = [fold(str(w)).casefold() for w in spec.get("not_a_part") or []]
    if len(set(plain)) != len(plain) or not spec.get("markers"):
        raise ConfigError(f"{HERE / 'vocabulary.yaml'}: measures.part_of needs not_a_part (each word once) and markers")
    ends = "|".join(re.escape(fold(str(m))) for m in spec["markers"])
    return frozenset(plain), re.compile(f"(?:{ends})$")


@lru_cache(maxsize=1)
def place_words() -> frozenset[str]:
    """Words of places that name a part right before a metric ("Europe turnover"): ``measures.part_of.places``."""
    return frozenset(fold(str(w)).casefold() for w in (_data()["measures"].get("part_of") or {}).get("places") or [])


@lru_cache(maxsize=1)
def legal_form_words() -> frozenset[str]:
    """Words of a company's legal form (inc, ltd, group ...): ``measures.part_of.legal_forms``; never a part."""
    return frozenset(fold(str(w)).casefold() for w in (_data()["measures"].get("part_of") or {}).get("legal_forms") or [])


@lru_cache(maxsize=1)
def part_fillers_zh() -> tuple[re.Pattern, re.Pattern]:
    """(at the start, at the end) of the Chinese words before a metric, those that narrow nothing
    (``measures.part_of.not_a_part_zh``), longest first."""
    spec = (_data()["measures"].get("part_of") or {}).get("not_a_part_zh") or []
    alts = "|".join(re.escape(fold(str(w))) for w in sorted(spec, key=len, reverse=True))
    return re.compile(f"^(?:{alts})"), re.compile(f"(?:{alts})$")


@lru_cache(maxsize=1)
def whole_words_zh() -> re.Pattern:
    """Chinese words that say the whole, ending the words before a metric (``measures.part_of.whole_zh``)."""
    spec = (_data()["measures"].get("part_of") or {}).get("whole_zh") or []
    return re.compile("(?:" + "|".join(re.escape(fold(str(w))) for w in longest_first(spec)) + ")$")


@lru_cache(maxsize=1)
def never_in_a_part_zh() -> re.Pattern:
    """Chinese words of a question's asking (如何, 解释 ...): a run of words holding one names no part
    (``measures.part_of.never_in_a_part_zh``)."""
    spec = (_data()["measures"].get("part_of") or {}).get("never_in_a_part_zh") or []
    return re.compile("|".join(re.escape(fold(str(w))) for w in longest_first(spec)))


@lru_cache(maxsize=1)
def part_markers() -> tuple[str, ...]:
    """The Chinese words that end a part's name (业务, 板块, 境外 ...): ``measures.part_of.markers``, folded."""
    return tuple(fold(str(m)) for m in (_data()["measures"].get("part_of") or {}).get("markers") or [])


@lru_cache(maxsize=1)
def same_words_zh() -> list[list[str]]:
    """Chinese words printed for one thing (分红 / 红利 / 股利 / 股息): ``same_words_zh``, folded, longest first."""
    return [longest_first({fold(str(w)) for w in group}) for group in _data().get("same_words_zh") or []]


def with_same_words_zh(label: str) -> list[str]:
    """A Chinese label as it is and with each of its words of :func:`same_words_zh` printed as the others."""
    out = [label]
    for group in same_words_zh():
        for word in group:
            if word in label:
                out += [label.replace(word, other) for other in group if other != word]
                break
    return list(dict.fromkeys(out))


@lru_cache(maxsize=1)
def same_part_names() -> list[list[str]]:
    """Names of one part in both languages (境外 / overseas): ``measures.part_of.same_part``, folded."""
    return [[fold(str(w)).casefold() for w in group] for group in (_data()["measures"].get("part_of") or {}).get("same_part") or []]


@lru_cache(maxsize=1)
def part_nouns() -> frozenset[str]:
    """Words that name a part by the words before them ("... plant business revenue"): ``measures.part_of.part_nouns``."""
    return frozenset(fold(str(w)).casefold() for w in (_data()["measures"].get("part_of") or {}).get("part_nouns") or [])


@lru_cache(maxsize=1)
def part_after_words() -> Phrases:
    """Words right after a metric's name that make it another figure or name a part of it: ``measures.part_of.after``
    and ``measures.part_of.after_parts``."""
    spec = _data()["measures"].get("part_of") or {}
    return compile_phrases("measures.part_of.after", [*(spec.get("after") or []), *(spec.get("after_parts") or [])])


@lru_cache(maxsize=1)
def summed_with_words() -> Phrases:
    """Words right after a balance's name that list what it is summed with (", short-term and pledged bank
    deposits"): ``measures.part_of.summed_with``."""
    return compile_phrases("measures.part_of.summed_with", (_data()["measures"].get("part_of") or {}).get("summed_with") or [])


@lru_cache(maxsize=1)
def other_figure_words() -> Phrases:
    """Words right after a metric's name that make it another figure, not a part of it ("goodwill impairment", "EPS
    from continuing operations"): ``measures.part_of.after``."""
    return compile_phrases("measures.part_of.after", (_data()["measures"].get("part_of") or {}).get("after") or [])


@lru_cache(maxsize=1)
def standard_words() -> dict[str, Phrases]:
    """Accounting standard (financial_metrics.accounting_standard) -> the words that name it in a question."""
    return {std: compile_phrases(f"measures.standards.{std}", v)
            for std, v in (_data()["measures"].get("standards") or {}).items()}


@lru_cache(maxsize=1)
def readings() -> dict[str, tuple[str, str]]:
    """A word naming a metric in one of several readings -> (metric or ratio id, the note the answer states)."""
    from mappings.metrics import metrics, ratios

    out = {}
    for alias, spec in (_data()["measures"].get("readings") or {}).items():
        if not isinstance(spec, dict) or spec.get("metric") not in {**metrics(), **ratios()} or not spec.get("note"):
            raise ConfigError(f"{HERE / 'vocabulary.yaml'}: measures.readings.{alias} needs a known metric and a note")
        out[fold(str(alias)).casefold()] = (spec["metric"], " ".join(str(spec["note"]).split()))
    return out


def reading_labels(question: str, metric: str) -> list[str]:
    """The names a filing prints the figure of a reading word the question uses for ``metric`` with ("EBIT": "earnings
    before interest and taxes"), folded; empty when it uses none (``measures.readings.<word>.printed``)."""
    text = fold(question).casefold()
    out: list[str] = []
    for alias, spec in (_data()["measures"].get("readings") or {}).items():
        word = fold(str(alias)).casefold()
        if spec.get("metric") == metric and re.search(phrase_pattern(word), text, re.I):
            out += [fold(str(p)).casefold() for p in spec.get("printed") or []]
    return list(dict.fromkeys(out))


@lru_cache(maxsize=1)
def per_share_sentence_words() -> dict[str, list[str]]:
    """Metric id -> the words a sentence prints before a per-share figure of it: ``measures.per_share_sentences``."""
    from mappings.metrics import metrics

    spec = _data()["measures"].get("per_share_sentences") or {}
    unknown = [mid for mid in spec if mid not in metrics() or metrics()[mid].kind != "per_share"]
    if unknown:
        raise ConfigError(f"{HERE / 'vocabulary.yaml'}: measures.per_share_sentences names no per-share metric: {unknown}")
    return {mid: longest_first({str(w).casefold() for w in words}) for mid, words in spec.items()}

"""The unified metric alias map, loaded from data files beside this module.

- ``metrics.yaml``: canonical metric ids with names, user aliases, kind, period type and XBRL
  concepts (us-gaap, ifrs-full) in priority order.
- ``labels_cn.yaml`` / ``labels_hk.yaml`` / ``labels_us.yaml``: printed statement labels per statement, per market.
- ``ratios.yaml``: ratio formulas over canonical metrics, evaluated at query time.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from schema.errors import ConfigError

HERE = Path(__file__).resolve().parent

# Fact statements whose labels map to consolidated metrics, in preference order within one report.
STATEMENT_PRIORITY = {"income": 0, "balance": 0, "cashflow": 0, "key_figures": 1}


@dataclass(frozen=True)
class Metric:
    id: str
    name_en: str
    name_zh: str
    aliases: tuple[str, ...]
    kind: str  # money | per_share | shares
    period: str  # duration | instant
    sign: str  # "expense": a cost or outflow, stored positive; "positive": a balance never negative; "as_reported"
    concepts: tuple[str, ...] = field(default_factory=tuple)  # prefixed qnames in priority order


def load_yaml(name: str) -> dict:
    path = HERE / name
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML ({exc})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return data


@lru_cache(maxsize=1)
def metrics() -> dict[str, Metric]:
    out = {}
    for mid, spec in load_yaml("metrics.yaml").items():
        concepts = [f"us-gaap:{c}" for c in spec.get("us_gaap") or []]
        concepts += [f"ifrs-full:{c}" for c in spec.get("ifrs_full") or []]
        concepts += [f"dei:{c}" for c in spec.get("dei") or []]
        out[mid] = Metric(
            id=mid,
            name_en=spec["name_en"],
            name_zh=spec["name_zh"],
            aliases=tuple(spec.get("aliases") or []),
            kind=spec.get("kind", "money"),
            period=spec.get("period", "duration"),
            sign=spec.get("sign", "as_reported"),
            concepts=tuple(concepts),
        )
    return out


@lru_cache(maxsize=1)
def concept_index() -> dict[str, list[tuple[str, int]]]:
    """qname -> [(metric id, priority)]; one concept may serve several metrics (NetIncomeLoss is the
    parent's net income and, for a filer without minority interests, the consolidated one too)."""
    index: dict[str, list[tuple[str, int]]] = {}
    for m in metrics().values():
        for rank, qname in enumerate(m.concepts):
            index.setdefault(qname, []).append((m.id, rank))
    return index


_NUMBERING = re.compile(
    r"^(?:[一二三四五六七八九十]+[、.．]|[(（][一二三四五六七八九十\d]+[)）]|\d+[、.．)](?!\d)|[a-z][.)]\s|[ivx]+[.)]\s)+",
    re.IGNORECASE,
)
_PREFIX = re.compile(r"^(?:减|加|其中|less|add|including)\s*[:：]\s*", re.IGNORECASE)


def normalise_label(label: str) -> str:
    """The comparison form of a printed label: NFKC (full-width to half-width), case-folded, leading
    numbering and 减：/加：/其中：/Less:/Add: prefixes removed, whitespace and trailing colons dropped."""
    text = unicodedata.normalize("NFKC", label or "").strip().casefold()
    for _ in range(3):
        before = text
        text = _NUMBERING.sub("", text).strip()
        text = _PREFIX.sub("", text).strip()
        if text == before:
            break
    text = re.sub(r"\([^()]*(?:填列|列示)[^()]*\)", "", text)  # "(净亏损以“-”号填列)"
    text = re.sub(r"\s+", " ", text)
    if re.search(r"[\u4e00-\u9fff]", text):
        text = text.replace(" ", "")
    return text.rstrip(":：").strip()


# Markets whose Chinese statement labels carry brackets that are layout, not words: "所有者权益(或股东权益)合计"
# and "所有者权益或股东权益合计", "基本每股收益(元/股)" and "基本每股收益元/股" are one row in A-share reports.
BRACKETS_ARE_LAYOUT = frozenset({"A"})


def market_label(market: str, label: str | None) -> str:
    """``normalise_label`` plus the market's own rule (brackets dropped from A-share Chinese labels)."""
    text = normalise_label(label or "")
    if market in BRACKETS_ARE_LAYOUT and re.search(r"[\u4e00-\u9fff]", text):
        text = re.sub(r"[()\[\]]", "", text)
    return text


LABEL_FILES = {"A": "labels_cn.yaml", "HK": "labels_hk.yaml", "US": "labels_us.yaml"}


def _label_entries(market: str):
    """(file, statement, metric id, labels, patterns) per entry of a market's label file. An entry is a list of
    labels, or a mapping with ``labels``, ``patterns`` and ``us_gaap`` (the concepts the row stands for, which
    must be among the metric's concepts in metrics.yaml)."""
    file = LABEL_FILES.get(market)
    if not file:
        return
    known = metrics()
    for statement, entries in load_yaml(file).items():
        for mid, spec in (entries or {}).items():
            if mid not in known:
                raise ConfigError(f"{HERE / file}: unknown metric id {mid!r} under {statement}")
            if isinstance(spec, dict):
                concepts = {f"us-gaap:{c}" for c in spec.get("us_gaap") or []}
                stray = concepts - set(known[mid].concepts)
                if stray:
                    raise ConfigError(f"{HERE / file}: {statement}.{mid}: {sorted(stray)} not among its metrics.yaml concepts")
                yield file, statement, mid, list(spec.get("labels") or []), list(spec.get("patterns") or [])
            else:
                yield file, statement, mid, list(spec or []), []


@lru_cache(maxsize=4)
def label_index(market: str) -> dict[tuple[str, str], tuple[str, int]]:
    """(statement, normalised label) -> (metric id, priority) for printed statements of a market."""
    index: dict[tuple[str, str], tuple[str, int]] = {}
    for _, statement, mid, labels, _ in _label_entries(market):
        for rank, label in enumerate(labels):
            index.setdefault((statement, market_label(market, str(label))), (mid, rank))
    return index


@lru_cache(maxsize=4)
def label_patterns(market: str) -> dict[str, list[tuple[re.Pattern, str, int]]]:
    """statement -> [(pattern over the normalised label, metric id, priority)], tried after the exact labels."""
    out: dict[str, list[tuple[re.Pattern, str, int]]] = {}
    for file, statement, mid, labels, patterns in _label_entries(market):
        for rank, pattern in enumerate(patterns, start=len(labels)):
            try:
                out.setdefault(statement, []).append((re.compile(pattern), mid, rank))
            except re.error as exc:
                raise ConfigError(f"{HERE / file}: {statement}.{mid}: bad pattern {pattern!r} ({exc})") from None
    return out


def metric_for_label(market: str, statement: str | None, label: str | None) -> tuple[str, int] | None:
    if not statement or not label:
        return None
    key = market_label(market, label)
    hit = label_index(market).get((statement, key))
    if hit is None:
        hit = next(((mid, rank) for rx, mid, rank in label_patterns(market).get(statement, ()) if rx.fullmatch(key)), None)
    if hit is None and statement == "balance" and (stem := _NET_OF.sub("", key)) != key:
        hit = metric_for_label(market, statement, stem)  # "Merchandise inventories, net": an asset net of allowances
    return hit


@lru_cache(maxsize=1)
def printed_labels() -> dict[str, str]:
    """Printed statement labels of every market (the label files) that name one metric wherever they appear:
    normalised label -> metric id. The planner reads them as names of the metric too ("bank balances and cash",
    "每股虧損"), after the aliases of metrics.yaml."""
    seen: dict[str, set[str]] = {}
    for market in LABEL_FILES:
        for _, _statement, mid, labels, _ in _label_entries(market):
            for label in labels:
                seen.setdefault(normalise_label(str(label)), set()).add(mid)
    return {label: next(iter(mids)) for label, mids in seen.items() if len(mids) == 1}


# period words inside a metric's name or label ("profit for the year", 本年度溢利, 年末现金及现金等价物余额): they say
# when, not which metric
PERIOD_WORDS = re.compile(r"\bfor the (?:year|period)\b|\b(?:end|beginning) of\b|本年度|年度|年内|本年|本期|年末|期末|年初|"
                          r"期初|年終|年终")


def printed_names(mid: str) -> dict[str, str]:
    """A metric's or ratio's names as pages print them, by language, without their notes ({"en": "Net income",
    "zh": "净利润"} for "Net income (incl. minority interests)")."""
    spec = ratios().get(mid) or (vars(metrics()[mid]) if mid in metrics() else {})
    names = {"en": spec.get("name_en"), "zh": spec.get("name_zh")}
    return {lang: re.sub(r"\s*\([^()]*\)", "", name) for lang, name in names.items() if name}


def display_name(mid: str) -> str:
    """The English name of a metric or ratio ("Free cash flow", "Net income (incl. minority interests)")."""
    spec = ratios().get(mid)
    return spec["name_en"] if spec else metrics()[mid].name_en if mid in metrics() else mid.replace("_", " ")



def question_labels() -> dict[str, str]:
    """The printed labels (:func:`printed_labels`) a question may use as they stand: three Latin words or more, or
    four Chinese characters or more (shorter labels sit inside other terms: 收入 in 利息收入, "cash dividends" in
    "cash dividends per share"), not the tail of a heading ("attributable to owners of the company"), and no
    layout marks (figures, quotes, slashes of "(loss)/profit", units) that a question would not carry, and no
    period words ("年末现金及现金等价物余额", "cash and cash equivalents at end of year": the period is the question's)."""
    out = {}
    for label, mid in printed_labels().items():
        if re.search(r"[0-9\"“”'/╱()（）\[\]－]", label) or label.startswith("attributable") or PERIOD_WORDS.search(label):
            continue
        cjk = len(re.findall(r"[\u4e00-\u9fff]", label))
        if cjk >= 4 or (not cjk and len(label.split()) >= 3):
            out[label] = mid
    return out


# a balance-sheet row printed net of its allowance or accumulated depreciation is the asset the bare label names
_NET_OF = re.compile(r",?\s+net(?:\s+of\s+[^,]*)?$|\s+[-—–]\s+net$")


def share_ratio(numerator: str, denominator: str) -> str:
    """The ratio ``numerator / denominator`` a question asks for ("研发投入占营业收入的比例", "R&D as a percentage of
    revenue"): the ratios.yaml entry with that formula if there is one (``capex_to_revenue``), else one made from the
    two metrics (a percent, computed like any ratio, named by both metrics' names and printed under
    "A占B" / "A as a percentage of B")."""
    for rid, spec in ratios().items():
        if spec["formula"].replace(" ", "") == f"{numerator}/{denominator}":
            return rid
    rid = f"{numerator}_share_of_{denominator}"
    a, b = metrics()[numerator], metrics()[denominator]
    zh_a, zh_b = [a.name_zh, *(w for w in a.aliases if CJK.search(w))], [b.name_zh, *(w for w in b.aliases if CJK.search(w))]
    ratios().setdefault(rid, {
        "name_en": f"{a.name_en} as a share of {b.name_en}", "name_zh": f"{a.name_zh}占{b.name_zh}比例",
        "aliases": [f"{x}占{y}" for x in dict.fromkeys(zh_a) for y in dict.fromkeys(zh_b)]
        + [f"{a.name_en.casefold()} as a percentage of {b.name_en.casefold()}"],
        "formula": f"{numerator} / {denominator}", "unit": "percent", "generated": True})
    return rid


CJK = re.compile(r"[\u4e00-\u9fff]")  # a Chinese character


@lru_cache(maxsize=1)
def ratios() -> dict[str, dict]:
    """Ratio formulas over canonical metrics, checked on load (``mappings.formulas``)."""
    from mappings.formulas import check

    data = load_yaml("ratios.yaml")
    problems = check(data, set(metrics()))
    if problems:
        raise ConfigError(f"{HERE / 'ratios.yaml'}: " + "; ".join(problems))
    return data

"""How answer values read: names, amounts with currency, percentages, periods and sources, in English or
Chinese. Every number written here is one of the answer's rows (the honesty check in ``router.answer``
verifies that)."""

from __future__ import annotations

from decimal import Decimal

from mappings.analysis import analysis
from mappings.metrics import metrics, ratios
from router.sql_route import Value, unit_of

# suffix of a derived metric id -> (English, Chinese) words after the base metric's name
SUFFIXES = {"_yoy": (" YoY change", " 同比变动"), "_change_pp": (" change (percentage points)", " 变动(百分点)"),
            "_change": (" change", " 变动"), "_cagr": (" CAGR", " 复合增长率"), "_average": (" average", " 平均值"),
            "_ttm": (" TTM", " 近十二个月")}
PERIOD_ZH = {"FY": "年度", "H1": "上半年", "9M": "前三季度", "Q1": "第一季度", "Q2": "第二季度", "Q3": "第三季度",
             "Q4": "第四季度", "TTM": "近十二个月"}


def base_metric(mid: str) -> tuple[str, str | None]:
    for suffix in SUFFIXES:
        if mid.endswith(suffix) and (mid.removesuffix(suffix) in metrics() or mid.removesuffix(suffix) in ratios()):
            return mid.removesuffix(suffix), suffix
    return mid, None


def metric_name(mid: str, zh: bool) -> str:
    base, suffix = base_metric(mid)
    if base in ratios():
        name = ratios()[base]["name_zh" if zh else "name_en"]
    else:
        m = metrics()[base]
        name = m.name_zh if zh else m.name_en
    return name + (SUFFIXES[suffix][1 if zh else 0] if suffix else "")


def plain(value: Decimal, places: int | None = None) -> str:
    """An exact decimal without exponent or trailing zeros (or rounded to ``places``)."""
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places))
        return f"{value:f}"
    text = f"{value.normalize():f}" if value == value.to_integral() else f"{value:f}".rstrip("0").rstrip(".")
    return text if "." in text or "E" not in text else f"{value:f}"


def money(value: Decimal, currency: str | None, signed: bool = False) -> str:
    places = 2 if value != value.to_integral() else 0
    text = f"{value:+,.{places}f}" if signed else f"{value:,.{places}f}"
    return f"{currency or ''} {text}".strip()


def _in_unit(value: Decimal, unit: str, currency: str | None, signed: bool = False) -> str:
    sign = "+" if signed else ""
    if unit == "percent":
        return f"{value * 100:{sign}.2f}%"
    if unit == "ratio":
        return f"{value:{sign}.2f}x"
    if unit == "days":
        return f"{value:{sign}.2f} days"
    if unit == "per_share":
        return f"{currency or ''} {plain(value) if not signed else f'{value:+f}'} per share".strip()
    if unit == "shares":
        return f"{value:{sign},.0f} shares"
    return money(value, currency, signed)


def format_value(v: Value, zh: bool = False) -> str:
    base, _ = base_metric(v.metric)
    unit = unit_of(base)
    if v.derived in {"yoy", "cagr"}:
        return f"{v.value * 100:.2f}%"
    if v.derived == "pp":
        return f"{v.value:+.2f} pp"
    if v.derived == "change":
        amount = _in_unit(v.value, unit, v.currency, signed=True)
        if v.note:
            words = analysis().word
            nm = words("not_meaningful", zh)
            reading = words(v.note, zh) if v.note != "not_meaningful" else None
            return f"{nm}" + (f" ({reading})" if reading else "") + f"; {words('change_in_amount', zh)} {amount}"
        return amount
    return _in_unit(v.value, unit, v.currency)


def period_text(v: Value, zh: bool) -> str:
    if v.fiscal_period == "TTM":
        return f"截至{v.period_end}的近十二个月" if zh else f"twelve months to {v.period_end}"
    if v.first_year and v.first_year != v.fiscal_year:
        span = f"{v.fiscal_period}{v.first_year}–{v.fiscal_period}{v.fiscal_year}"
        offset = v.fiscal_label - v.fiscal_year if v.fiscal_label is not None else 0
        if offset and v.fiscal_period == "FY":  # the span as the company names its years too
            span += f" (the company's fiscal {v.first_year + offset}–{v.fiscal_label})"
        return span if not zh else f"{v.first_year}–{v.fiscal_year}{PERIOD_ZH.get(v.fiscal_period, v.fiscal_period)}"
    own = v.fiscal_label is not None and v.fiscal_label != v.fiscal_year
    if zh:
        return f"{v.fiscal_year}{PERIOD_ZH.get(v.fiscal_period, v.fiscal_period)}" + (
            f"（公司称{v.fiscal_label}财年）" if own else "") + (f"（截至{v.period_end}）" if v.period_end else "")
    end = f", to {v.period_end}" if v.period_end else ""
    return f"{v.fiscal_period} {v.fiscal_year}" + (f" (the company's fiscal {v.fiscal_label})" if own else "") + end


def source_text(v: Value, limit: int = 4) -> str:
    """The documents and pages of a value; a value derived at ingest (no page of its own) by those of its inputs."""
    def one(s: dict) -> str:
        page = s.get("page")
        return f"{s['doc_name']} {'p' + str(page) if str(page).isdigit() else page}"
    sources = v.sources
    if v.source_kind == "derived" and len(sources) > 1 and sources[0].get("page") is None:
        sources = sources[1:]
        return "from " + "; ".join(one(s) for s in sources[:limit]) + ("; …" if len(sources) > limit else "")
    return "; ".join(one(s) for s in sources[:limit]) + ("; …" if len(sources) > limit else "")


def reading(v: Value, zh: bool) -> str:
    """How a ratio was obtained: as the report prints it, or computed with its formula."""
    if v.note == "printed":
        return " (as printed)" if not zh else "（报告披露值）"
    if v.derived == "ratio":
        return f" (computed: {v.note.removeprefix('computed: ')})" if not zh else f"（计算值：{v.note.removeprefix('computed: ')}）"
    if v.source_kind == "derived" and not v.derived:
        return " (derived)" if not zh else "（推算值）"
    return ""


def line(v: Value, name: str, zh: bool, converted: dict | None) -> str:
    extra = ""
    if converted:
        kind = {"closing": "closing rate", "average": "average rate"}[converted["fx_kind"]]
        when = (f"{converted['fx_start']} to {converted['fx_date']}" if converted.get("fx_start")
                else converted["fx_date"])
        extra = (f" (≈ {converted['currency']} {converted['value']} at {converted['fx_pair']} {converted['fx_rate']}, "
                 f"{kind} {when})")
    std = f"{v.standard}; " if v.standard else ""
    return (f"{name} ({v.stock_code}) {metric_name(v.metric, zh)}{reading(v, zh)}, {period_text(v, zh)}: "
            f"{format_value(v, zh)}{extra} [{std}{source_text(v)}]")

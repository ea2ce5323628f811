"""parsers.cn_statements over the A-share corpus (../shared/corpus/cn) and mappings/labels_cn.yaml.

Expected values are typed from the PDF pages named next to them, or parsed from the MinerU Markdown in
cn/markdown, or are identities (assets = liabilities + equity, a comparative equals the earlier report).
"""

from __future__ import annotations

import calendar
import datetime as dt
import os
import re
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from parsers.cn_statements import extract
from schema.models import DocumentInfo, Page

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("FILINGS_CORPUS") or REPO.parent / "shared" / "corpus")
CN = CORPUS / "cn"
LABELS = REPO / "mappings" / "labels_cn.yaml"


def _need_corpus() -> None:
    if not CN.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"corpus missing at {CN}")
        pytest.skip(f"corpus not found at {CN}")


PERIODS = {"annual": ("FY", 12), "summary": ("FY", 12), "interim": ("H1", 6), "interim-summary": ("H1", 6),
           "q1": ("Q1", 3), "q3": ("Q3", 9)}


def info_for(stem: str) -> DocumentInfo:
    code, _, year, kind = stem.split("_")
    fp, month = PERIODS[kind]
    y = int(year)
    return DocumentInfo(market="A", stock_code=code, form=kind.replace("-", "_"), fiscal_year=y, fiscal_period=fp,
                        period_end=dt.date(y, month, calendar.monthrange(y, month)[1]), fiscal_year_end_month=12,
                        currency="CNY", accounting_standard="CAS", file_name=stem + ".pdf")


@lru_cache(maxsize=None)
def pages_of(stem: str) -> tuple[Page, ...]:
    from parsers.pdf_pages import read_pages

    return tuple(read_pages(CN / f"{stem}.pdf"))


@lru_cache(maxsize=None)
def facts_of(stem: str):
    return extract(list(pages_of(stem)), info_for(stem))


# ------------------------------------------------------------------------------------ label mapping


def normalise(label: str) -> str:
    """Mirror of the mappings loader's rule (see the head of labels_cn.yaml)."""
    s = re.sub(r"\s+", "", label)
    s = re.sub(r"^(?:[一二三四五六七八九十]+、|[（(][一二三四五六七八九十\d]+[)）]|\d+[.．、])", "", s)
    s = re.sub(r"^(?:减|加|其中)[：:]", "", s)
    s = re.sub(r"[（）()]", "", s)
    return s.rstrip("：:")


@lru_cache(maxsize=None)
def lookup() -> dict[str, dict[str, str]]:
    data = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    out: dict[str, dict[str, str]] = {}
    for statement, metrics in data.items():
        table: dict[str, str] = {}
        for metric, labels in metrics.items():
            for lab in labels:
                table.setdefault(normalise(lab), metric)
        out[statement] = table
    return out


def metrics(stem: str) -> dict[tuple, object]:
    """(statement, metric, period_start, period_end) -> first consolidated fact (restated-before excluded)."""
    out: dict[tuple, object] = {}
    for f in facts_of(stem):
        if not f.consolidated or f.dimensions:
            continue
        m = lookup().get(f.statement, {}).get(normalise(f.label))
        if m:
            out.setdefault((f.statement, m, f.period_start, f.period_end), f)
    return out


def get(stem, statement, metric, start, end):
    return metrics(stem).get((statement, metric, start, end))


def test_labels_file_shape():
    data = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    assert set(data) == {"income", "balance", "cashflow", "key_figures"}
    canonical = {"revenue", "cost_of_revenue", "gross_profit", "operating_income", "net_income", "net_income_parent",
                 "net_income_excl_nonrecurring", "eps_basic", "eps_diluted", "total_assets", "total_liabilities",
                 "total_equity", "equity_parent", "current_assets", "current_liabilities", "cash_and_equivalents",
                 "inventory", "accounts_receivable", "operating_cash_flow", "investing_cash_flow",
                 "financing_cash_flow", "capex", "rd_expense", "selling_expense", "admin_expense",
                 "interest_expense", "income_tax", "shares_outstanding"}
    for statement, ms in data.items():
        assert set(ms) <= canonical, statement
        for labels in ms.values():
            assert isinstance(labels, list) and all(isinstance(x, str) for x in labels)
    # no normalised label points at two metrics in one statement
    for statement, ms in data.items():
        seen: dict[str, str] = {}
        for metric, labels in ms.items():
            for lab in labels:
                assert seen.setdefault(normalise(lab), metric) == metric, (statement, lab)
    # 货币资金 is not cash and cash equivalents
    assert "货币资金" not in lookup()["balance"]


@pytest.mark.parametrize("printed,metric,statement", [
    ("一、营业总收入", "revenue", "income"),
    ("其中：营业收入", "revenue", "income"),
    ("减：营业成本", "cost_of_revenue", "income"),
    ("三、营业利润（亏损以“－”号填列）", "operating_income", "income"),
    ("五、净利润（净亏损以“－”号填列）", "net_income", "income"),
    ("1.归属于母公司股东的净利润（净亏损以“-”号填列）", "net_income_parent", "income"),
    ("（一）基本每股收益(元/股)", "eps_basic", "income"),
    ("其中：利息费用", "interest_expense", "income"),
    ("所有者权益（或股东权益）合计", "total_equity", "balance"),
    ("归属于母公司所有者权益（或股东权益）合计", "equity_parent", "balance"),
    ("六、期末现金及现金等价物余额", "cash_and_equivalents", "cashflow"),
    ("归属于上市公司股东的扣除非经常性损益的净利润", "net_income_excl_nonrecurring", "key_figures"),
    ("基本每股收益（元／股）", "eps_basic", "key_figures"),
])
def test_label_normalisation(printed, metric, statement):
    assert lookup()[statement].get(normalise(printed)) == metric


# ------------------------------------------------------------------------------------ unit tests (no corpus)


def _mini_pages() -> list[Page]:
    return [
        Page(page=1, text="某某股份有限公司2024 年年度报告\n合并利润表\n2024 年 1—12 月\n单位：万元 币种：人民币\n"
             "项目 附注 2024 年度 2023 年度\n一、营业总收入 1,000.50 900.00\n其中：营业收入 七、61 1,000.50 900.00\n"
             "减：营业成本 (1,196.19) -\n1.归属于母公司股东的净利润（净亏损以\n12.34 -5.00\n“－”号填列）\n1 / 2"),
        Page(page=2, text="某某股份有限公司2024 年年度报告\n（一）基本每股收益(元/股) 0.2088 -0.1149\n"
             "公司负责人：张三 主管会计工作负责人：李四\n2 / 2"),
    ]


def test_units_signs_blanks_and_wrapped_labels():
    info = DocumentInfo(market="A", stock_code="600000", form="annual", fiscal_year=2024, fiscal_period="FY",
                        period_end=dt.date(2024, 12, 31), fiscal_year_end_month=12, currency="CNY",
                        accounting_standard="CAS")
    facts = extract(_mini_pages(), info)
    by = {(f.label, f.column): f for f in facts}
    rev = by[("其中：营业收入", "2024年度")]
    assert rev.value == Decimal("10005000.00") and rev.scale == 4 and rev.original_unit == "万元"
    assert rev.unit == "CNY" and rev.value_text == "1,000.50" and rev.page == 1
    assert rev.period_start == dt.date(2024, 1, 1) and rev.period_end == dt.date(2024, 12, 31)
    assert by[("其中：营业收入", "2023年度")].period_start == dt.date(2023, 1, 1)
    cost = by[("减：营业成本", "2024年度")]
    assert cost.value == Decimal("-11961900.00")
    assert ("减：营业成本", "2023年度") not in by  # "-" means absent
    ni = by[("1.归属于母公司股东的净利润（净亏损以“－”号填列）", "2024年度")]
    assert ni.value == Decimal("123400.00")
    eps = by[("（一）基本每股收益(元/股)", "2024年度")]
    assert eps.value == Decimal("0.2088") and eps.unit == "CNY/share" and eps.page == 2
    assert all(f.statement == "income" and f.consolidated for f in facts)


# ------------------------------------------------------------------------------------ corpus


def _stems() -> list[str]:
    if not CN.is_dir():
        return []
    return sorted(p.stem for p in CN.glob("*.pdf"))


FULL = [s for s in _stems() if s.split("_")[-1] in ("annual", "interim", "q1", "q3")]
SUMMARIES = [s for s in _stems() if "summary" in s.split("_")[-1]]
# SZSE summaries print their key figures in narrow columns that wrap the numbers themselves
# ("18,079,461,4" / "82.75"): not parsed from text yet.
SUMMARY_GAPS = {"000999_huarunsanjiu_2022_summary", "000999_huarunsanjiu_2024_summary",
                "002821_kailaiying_2024_summary"}


def _cur(info: DocumentInfo):
    end = info.period_end
    start = dt.date(end.year, 1, 1)
    return start, end


@pytest.mark.parametrize("stem", FULL)
def test_full_reports_core_metrics(stem):
    _need_corpus()
    info = info_for(stem)
    start, end = _cur(info)
    m = metrics(stem)
    found = {k[1] for k in m if k[3] == end and k[2] in (None, start)}
    core = {"revenue", "net_income_parent", "total_assets", "total_liabilities", "total_equity",
            "operating_cash_flow", "eps_basic"}
    missing = core - found
    assert not missing, missing
    for (st, metric, ps, pe), f in m.items():
        assert f.page and f.locator.startswith(f"p{f.page} ")
        assert f.value == Decimal(f.value_text.replace(",", "").replace("(", "-").replace(")", "")) * (
            Decimal(10) ** (f.scale or 0))


@pytest.mark.parametrize("stem", FULL)
def test_balance_identity(stem):
    _need_corpus()
    by: dict[dt.date, dict[str, Decimal]] = {}
    for (st, metric, ps, pe), f in metrics(stem).items():
        if st == "balance" and metric in ("total_assets", "total_liabilities", "total_equity"):
            by.setdefault(pe, {})[metric] = f.value
    checked = 0
    for pe, d in by.items():
        if len(d) == 3:
            assert d["total_assets"] == d["total_liabilities"] + d["total_equity"], (pe, d)
            checked += 1
    assert checked >= 2


@pytest.mark.parametrize("stem", [s for s in SUMMARIES])
def test_summaries_key_figures(stem):
    _need_corpus()
    if stem in SUMMARY_GAPS:
        pytest.xfail("SZSE summary with wrapped numbers: not parsed from text")
    info = info_for(stem)
    start, end = _cur(info)
    found = {k[1] for k in metrics(stem) if k[0] == "key_figures" and k[3] == end}
    assert {"revenue", "total_assets"} <= found


def test_jinhua_2024_annual_pages_and_values():
    _need_corpus()
    s = "600080_jinhuagufen_2024_annual"
    fy, py = (dt.date(2024, 1, 1), dt.date(2024, 12, 31)), (dt.date(2023, 1, 1), dt.date(2023, 12, 31))
    expect = [  # typed from the PDF (physical pages)
        ("income", "revenue", fy, "585461786.23", 82),
        ("income", "revenue", py, "565403410.11", 82),
        ("income", "cost_of_revenue", fy, "126811323.12", 82),
        ("income", "net_income", fy, "73600530.37", 83),
        ("income", "net_income_parent", fy, "74611329.88", 83),
        ("income", "eps_basic", fy, "0.2088", 84),
        ("income", "income_tax", fy, "-31561250.23", 83),
        ("balance", "total_assets", (None, dt.date(2024, 12, 31)), "1972071163.91", 79),
        ("balance", "total_liabilities", (None, dt.date(2024, 12, 31)), "412587405.60", 80),
        ("balance", "total_equity", (None, dt.date(2024, 12, 31)), "1559483758.31", 80),
        ("balance", "equity_parent", (None, dt.date(2023, 12, 31)), "1638426525.45", 80),
        ("cashflow", "operating_cash_flow", fy, "10858725.20", 86),
        ("cashflow", "capex", fy, "220860479.46", 86),
        ("cashflow", "cash_and_equivalents", (None, dt.date(2024, 12, 31)), "337920592.39", 87),
        ("key_figures", "net_income_excl_nonrecurring", fy, "13774886.74", 6),
        ("key_figures", "revenue", (dt.date(2022, 1, 1), dt.date(2022, 12, 31)), "579374501.21", 6),
        ("key_figures", "total_assets", (None, dt.date(2024, 12, 31)), "1972071163.91", 6),
    ]
    for st, metric, (ps, pe), value, page in expect:
        f = get(s, st, metric, ps, pe)
        assert f is not None, (st, metric, pe)
        assert f.value == Decimal(value) and f.page == page, (metric, f.value, f.page)
    parent = [f for f in facts_of(s) if not f.consolidated]
    assert {f.statement for f in parent} == {"balance", "income", "cashflow"}
    assert any(f.label == "资产总计" and f.value == Decimal("1982194311.08") for f in parent)
    wrapped = [f for f in facts_of(s) if f.label == "所有者权益（或股东权益）合计"]
    assert {f.value for f in wrapped} >= {Decimal("1570415809.13"), Decimal("1559483758.31")}


def _md_row(md: str, label: str) -> list[Decimal]:
    for line in md.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == label:
            nums = [c for c in cells[1:] if re.fullmatch(r"-?[\d,]+\.\d+", c)]
            if nums:
                return [Decimal(n.replace(",", "")) for n in nums]
    raise AssertionError(label)


def test_jinhua_matches_markdown():
    _need_corpus()
    md = (CN / "markdown" / "600080_jinhuagufen_2024_annual.md").read_text(encoding="utf-8")
    s = "600080_jinhuagufen_2024_annual"
    fy, end = (dt.date(2024, 1, 1), dt.date(2024, 12, 31)), dt.date(2024, 12, 31)
    assert get(s, "balance", "total_assets", None, end).value == _md_row(md, "资产总计")[0]
    assert get(s, "balance", "total_liabilities", None, end).value == _md_row(md, "负债合计")[0]
    assert get(s, "income", "revenue", *fy).value == _md_row(md, "其中：营业收入")[0]
    assert get(s, "cashflow", "operating_cash_flow", *fy).value == _md_row(md, "经营活动产生的现金流量净额")[0]
    md3 = (CN / "markdown" / "600080_jinhuagufen_2025_q3.md").read_text(encoding="utf-8")
    q = "600080_jinhuagufen_2025_q3"
    key = _md_row(md3, "营业收入")  # 本报告期, 增减, 年初至报告期末, 增减
    assert get(q, "key_figures", "revenue", dt.date(2025, 7, 1), dt.date(2025, 9, 30)).value == key[0]
    assert get(q, "key_figures", "revenue", dt.date(2025, 1, 1), dt.date(2025, 9, 30)).value == key[2]
    assert get(q, "income", "revenue", dt.date(2025, 1, 1), dt.date(2025, 9, 30)).value == \
        _md_row(md3, "其中：营业收入")[0]
    assert get(q, "balance", "total_assets", None, dt.date(2025, 9, 30)).value == _md_row(md3, "资产总计")[0]


@pytest.mark.parametrize("stem", [s for s in FULL if s.endswith("_q3")])
def test_q3_has_quarter_and_nine_months(stem):
    _need_corpus()
    y = info_for(stem).fiscal_year
    q = get(stem, "key_figures", "revenue", dt.date(y, 7, 1), dt.date(y, 9, 30))
    ytd = get(stem, "key_figures", "revenue", dt.date(y, 1, 1), dt.date(y, 9, 30))
    inc = get(stem, "income", "revenue", dt.date(y, 1, 1), dt.date(y, 9, 30))
    assert q and ytd and inc
    assert ytd.value == inc.value and q.value < ytd.value


def test_jinhua_series_consistency():
    """A comparative in a later report equals the figure of the earlier report."""
    _need_corpus()
    d = dt.date
    pairs = [  # (earlier report, later report, statement, metric, start, end)
        ("600080_jinhuagufen_2022_annual", "600080_jinhuagufen_2024_annual", "key_figures", "revenue", d(2022, 1, 1), d(2022, 12, 31)),
        ("600080_jinhuagufen_2022_annual", "600080_jinhuagufen_2024_annual", "key_figures", "total_assets", None, d(2022, 12, 31)),
        ("600080_jinhuagufen_2023_q1", "600080_jinhuagufen_2024_q1", "income", "revenue", d(2023, 1, 1), d(2023, 3, 31)),
        ("600080_jinhuagufen_2024_q1", "600080_jinhuagufen_2025_q1", "income", "revenue", d(2024, 1, 1), d(2024, 3, 31)),
        ("600080_jinhuagufen_2023_interim", "600080_jinhuagufen_2024_interim", "income", "revenue", d(2023, 1, 1), d(2023, 6, 30)),
        ("600080_jinhuagufen_2024_interim", "600080_jinhuagufen_2025_interim", "income", "revenue", d(2024, 1, 1), d(2024, 6, 30)),
        ("600080_jinhuagufen_2023_q3", "600080_jinhuagufen_2024_q3", "income", "revenue", d(2023, 1, 1), d(2023, 9, 30)),
        ("600080_jinhuagufen_2024_q3", "600080_jinhuagufen_2025_q3", "income", "revenue", d(2024, 1, 1), d(2024, 9, 30)),
        ("600080_jinhuagufen_2024_annual", "600080_jinhuagufen_2025_q3", "balance", "total_assets", None, d(2024, 12, 31)),
        ("600080_jinhuagufen_2024_annual", "600080_jinhuagufen_2025_q1", "balance", "total_assets", None, d(2024, 12, 31)),
        ("600080_jinhuagufen_2024_annual", "600080_jinhuagufen_2025_interim", "balance", "total_liabilities", None, d(2024, 12, 31)),
    ]
    checked = 0
    for early, late, st, metric, ps, pe in pairs:
        a = get(early, st, metric, ps, pe)
        b = get(late, st, metric, ps, pe)
        assert a is not None and b is not None, (early, late, metric, pe)
        assert a.value == b.value, (early, late, metric, a.value, b.value)
        checked += 1
    assert checked >= 10
    # annual net income attributable to parent: 2023 figure from the 2023 summary and 2024 annual
    s23 = get("600080_jinhuagufen_2023_summary", "key_figures", "net_income_parent", d(2023, 1, 1), d(2023, 12, 31))
    a24 = get("600080_jinhuagufen_2024_annual", "income", "net_income_parent", d(2023, 1, 1), d(2023, 12, 31))
    assert s23.value == a24.value == Decimal("-42890580.25")


def test_summaries_equal_full_reports():
    _need_corpus()
    d = dt.date
    cases = [
        ("600080_jinhuagufen_2024_summary", "600080_jinhuagufen_2024_annual", [d(2024, 12, 31), d(2023, 12, 31), d(2022, 12, 31)]),
        ("600080_jinhuagufen_2023_summary", "600080_jinhuagufen_2024_annual", [d(2023, 12, 31), d(2022, 12, 31)]),
        ("600080_jinhuagufen_2022_summary", "600080_jinhuagufen_2022_annual", [d(2022, 12, 31), d(2021, 12, 31)]),
        ("600080_jinhuagufen_2024_interim-summary", "600080_jinhuagufen_2024_interim", [d(2024, 6, 30), d(2023, 6, 30)]),
        ("600080_jinhuagufen_2025_interim-summary", "600080_jinhuagufen_2025_interim", [d(2025, 6, 30)]),
    ]
    checked = 0
    for summ, full, ends in cases:
        ms, mf = metrics(summ), metrics(full)
        for (st, metric, ps, pe), f in ms.items():
            if st != "key_figures" or pe not in ends:
                continue
            g = mf.get((st, metric, ps, pe))
            assert g is not None, (summ, metric, pe)
            assert f.value == g.value, (summ, metric, pe, f.value, g.value)
            checked += 1
    assert checked >= 30


def test_bank_statements():
    _need_corpus()
    s = "000001_pinganyinhang_2024_annual"
    fy, end = (dt.date(2024, 1, 1), dt.date(2024, 12, 31)), dt.date(2024, 12, 31)
    m = metrics(s)
    # typed from pp. 122-135 (金额单位：人民币百万元)
    assert get(s, "balance", "total_assets", None, end).value == Decimal("5769270") * 10**6
    assert get(s, "balance", "total_liabilities", None, end).value == Decimal("5274428") * 10**6
    assert get(s, "balance", "total_equity", None, end).value == Decimal("494842") * 10**6
    assert get(s, "income", "revenue", *fy).value == Decimal("146695") * 10**6
    assert get(s, "income", "net_income", *fy).value == Decimal("44508") * 10**6
    assert get(s, "income", "eps_basic", *fy).value == Decimal("2.15")
    assert get(s, "cashflow", "operating_cash_flow", *fy).value == Decimal("63336") * 10**6
    loans = [f for f in facts_of(s) if f.label == "发放贷款和垫款" and f.consolidated and f.period_end == end]
    assert loans and loans[0].value == Decimal("3294053") * 10**6 and loans[0].page == 122
    # not applicable to a bank: left absent, never guessed
    for metric in ("cost_of_revenue", "inventory", "current_assets", "current_liabilities", "gross_profit"):
        assert not any(k[1] == metric for k in m), metric
    # bank-only (银行) statements are parent-only
    assert any(not f.consolidated and f.label == "资产总计" and f.value == Decimal("5726993") * 10**6
               for f in facts_of(s))


def test_extract_is_light():
    _need_corpus()
    import time

    pages = list(pages_of("600080_jinhuagufen_2024_annual"))
    t = time.perf_counter()
    extract(pages, info_for("600080_jinhuagufen_2024_annual"))
    assert time.perf_counter() - t < 2.0

"""HK statement rows -> facts (parsers/hk_statements.py) and the HK label map (mappings/labels_hk.yaml).

Expected values are typed from the statement pages of the reports in ../shared/corpus/hk (page numbers
are 1-based physical pages); identities are checked where every part is printed.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import re
import unicodedata
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from parsers.hk_statements import extract, statement_pages
from schema.models import DocumentInfo, Fact, Page

REPO = Path(__file__).resolve().parents[1]
LABELS = REPO / "mappings" / "labels_hk.yaml"


def _corpus() -> Path:
    env = os.environ.get("FILINGS_CORPUS")
    return Path(env) if env else REPO.parent / "shared" / "corpus"


def _hk_dir() -> Path:
    hk = _corpus() / "hk"
    if not hk.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"corpus not found at {hk} (CI=true)")
        pytest.skip(f"corpus not found at {hk}")
    return hk


@functools.lru_cache(maxsize=None)
def _pages(name: str) -> tuple[Page, ...]:
    from parsers.pdf_pages import read_pages

    return tuple(read_pages(_hk_dir() / name))


# file -> DocumentInfo fields, from hk/README.md
D = dt.date
REPORTS = {
    "0717_emperorcapital_2021_annual.pdf": ("0717.HK", "annual", D(2021, 9, 30), "en+zh-Hant", "HKD"),
    "1161_wateroasis_2021_annual.pdf": ("1161.HK", "annual", D(2021, 9, 30), "en", "HKD"),
    "1678_chinacreative_2019_annual.pdf": ("1678.HK", "annual", D(2019, 12, 31), "en", "CNY"),
    "1721_fsm_2020_annual.pdf": ("1721.HK", "annual", D(2020, 12, 31), "en", "SGD"),
    "1741_riying_2021_annual.pdf": ("1741.HK", "annual", D(2021, 9, 30), "en", "HKD"),
    "2324_capitalvc_2021_annual.pdf": ("2324.HK", "annual", D(2021, 9, 30), "en+zh-Hant", "HKD"),
    "6068_wisdomeducation_2021_annual.pdf": ("6068.HK", "annual", D(2021, 8, 31), "en", "CNY"),
    "0328_alco_2025_annual-results.pdf": ("0328.HK", "results_announcement", D(2025, 3, 31), "zh-Hant", "HKD"),
}
PAGES_ONLY = {
    "3012_amundietfs_2021_annual-fund-fs.pdf": ("3012.HK", "fund_fs", D(2021, 9, 30), "en", "HKD"),
    "3073_spdrgreaterchina_2021_annual-fund.pdf": ("3073.HK", "fund_fs", D(2021, 9, 30), "en", "HKD"),
    "0007_hkfinanceinv_2020_annual-mda-extract.pdf": ("0007.HK", "mda_extract", D(2020, 12, 31), "en+zh-Hant", "HKD"),
    "0618_pkuresources_2020_annual-mda-extract.pdf": ("0618.HK", "mda_extract", D(2020, 12, 31), "en", "CNY"),
    "0640_infinitydev_2021_annual-mda-extract.pdf": ("0640.HK", "mda_extract", D(2021, 9, 30), "en+zh-Hant", "HKD"),
    "0860_apollofuture_2021_annual-mda-extract.pdf": ("0860.HK", "mda_extract", D(2021, 9, 30), "en", "HKD"),
    "1611_huobitech_2021_annual-mda-extract.pdf": ("1611.HK", "mda_extract", D(2021, 9, 30), "en", "HKD"),
    "3928_sthold_2020_annual-mda-extract.pdf": ("3928.HK", "mda_extract", D(2020, 9, 30), "en", "SGD"),
    "8169_ecotek_2021_annual-mda-extract.pdf": ("8169.HK", "mda_extract", D(2021, 10, 31), "en", "HKD"),
}


def _info(name: str) -> DocumentInfo:
    code, form, end, lang, ccy = {**REPORTS, **PAGES_ONLY}[name]
    return DocumentInfo(
        file_name=name,
        market="HK",
        stock_code=code,
        form=form,
        fiscal_year=end.year,
        fiscal_period="FY",
        period_end=end,
        fiscal_year_end_month=end.month,
        language=lang,
        currency=ccy,
        accounting_standard="IFRS" if code == "1721.HK" else "HKFRS",
        company_metrics=name in REPORTS,
    )


@functools.lru_cache(maxsize=None)
def _facts(name: str) -> tuple[Fact, ...]:
    return tuple(extract(list(_pages(name)), _info(name)))


# ------------------------------------------------------------------------------ label normalisation


_NUMBERING = re.compile(
    r"^(?:[一二三四五六七八九十]+[、.．]|[(（][一二三四五六七八九十\d]+[)）]|\d+[、.．)](?!\d)|[a-z][.)]\s|[ivx]+[.)]\s)+",
    re.IGNORECASE,
)
_PREFIX = re.compile(r"^(?:less|add|including|减|加|其中)\s*[:：]\s*", re.IGNORECASE)


def normalise(label: str) -> str:
    """Mirror of the loader's rule: NFKC (full-width brackets to ASCII), case-folded, leading numbering
    and Less:/Add: prefixes removed, whitespace collapsed (dropped inside Chinese), trailing colons off."""
    text = unicodedata.normalize("NFKC", label or "").strip().casefold()
    for _ in range(3):
        before = text
        text = _PREFIX.sub("", _NUMBERING.sub("", text).strip()).strip()
        if text == before:
            break
    text = re.sub(r"\s+", " ", text)
    if re.search(r"[\u4e00-\u9fff]", text):
        text = text.replace(" ", "")
    return text.rstrip(":：").strip()


@functools.lru_cache(maxsize=1)
def _label_map() -> dict[tuple[str, str], tuple[str, int]]:
    data = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    out: dict[tuple[str, str], tuple[str, int]] = {}
    for statement, metrics in data.items():
        for metric, labels in metrics.items():
            for rank, label in enumerate(labels):
                out.setdefault((statement, normalise(str(label))), (metric, rank))
    return out


def _rank(f: Fact) -> tuple[str, int] | None:
    if not f.consolidated or not f.label or f.statement is None:
        return None
    return _label_map().get((f.statement, normalise(f.label)))


def metric_of(f: Fact) -> str | None:
    hit = _rank(f)
    return hit[0] if hit else None


def pick(name: str, metric: str, year: int, statement: str | None = None) -> Fact:
    """The consolidated, undimensioned fact of a metric for one fiscal year: a primary statement before a
    summary table, then the best-ranked label of the map, then the first in page order (what the warehouse
    does)."""
    fye = REPORTS[name][2]
    hits = [
        f
        for f in _facts(name)
        if metric_of(f) == metric
        and not f.dimensions
        and (statement is None or f.statement == statement)
        and f.period_end is not None
        and (f.period_end.year, f.period_end.month) == (year, fye.month)
    ]
    assert hits, f"{name}: no {metric} for {year}"
    return min(hits, key=lambda f: (f.statement == "key_figures", _rank(f)[1], f.page))


def by_label(name: str, statement: str, label: str, year: int, consolidated: bool = True) -> Fact | None:
    for f in _facts(name):
        if (
            f.statement == statement
            and f.consolidated == consolidated
            and f.label
            and normalise(f.label) == normalise(label)
            and not f.dimensions
            and f.period_end is not None
            and f.period_end.year == year
            and f.period_type == ("instant" if statement == "balance" else f.period_type)
        ):
            return f
    return None


# -------------------------------------------------------------------------------------- corpus: runs

ALL = sorted({**REPORTS, **PAGES_ONLY})


@pytest.mark.parametrize("name", ALL)
def test_extract_runs_on_every_hk_pdf(name):
    facts = _facts(name)
    if name in PAGES_ONLY:
        assert facts == ()
        # robust even when recognition gets it wrong: never raises on fund / MD&A pages
        info = _info(name).model_copy(update={"company_metrics": True, "form": "annual"})
        extract(list(_pages(name)), info)
        return
    assert len(facts) > 80
    for f in facts:
        assert isinstance(f.value, Decimal)
        assert f.page is not None and f.locator and f.locator.startswith(f"p{f.page} r")
        assert f.statement in {"income", "balance", "cashflow", "key_figures"}
        assert f.unit in {"HKD", "CNY", "SGD", "HKD/share", "CNY/share", "SGD/share"}
        assert f.unit.split("/")[0] == _info(name).currency
        assert f.period_type in {"duration", "instant"}
        if f.period_type == "duration":
            assert f.period_start is not None and f.period_start < f.period_end
        assert f.value_text and f.column


# ------------------------------------------------------------------------ corpus: typed key metrics

# name -> metric -> (value in base units, page); current fiscal year
KEY = {
    "0717_emperorcapital_2021_annual.pdf": {
        "revenue": ("676812000", 72),  # unlabelled total under the "Revenue 收入" heading
        "net_income_parent": ("-576094000", 72),
        "eps_basic": ("-0.0855", 72),  # HK(8.55) cents
        "total_equity": ("3849642000", 74),
        "operating_cash_flow": ("3160214000", 76),
        "interest_expense": ("-71516000", 72),
        "capex": ("-274000", 77),
    },
    "1161_wateroasis_2021_annual.pdf": {
        "revenue": ("829935000", 61),
        "net_income": ("170038000", 61),
        "net_income_parent": ("170340000", 61),
        "eps_basic": ("0.25", 62),  # 25.0 HK cents
        "eps_diluted": ("0.25", 62),
        "total_equity": ("358765000", 64),
        "equity_parent": ("352421000", 64),
        "current_assets": ("599375000", 63),
        "current_liabilities": ("851093000", 63),
        "inventory": ("65245000", 63),
        "operating_cash_flow": ("121754000", 66),
        "investing_cash_flow": ("-31739000", 67),
        "financing_cash_flow": ("-142074000", 67),
    },
    "1678_chinacreative_2019_annual.pdf": {
        "revenue": ("115223000", 70),
        "gross_profit": ("31830000", 70),
        "net_income": ("-1675984000", 70),  # no NCI: no attributable row printed
        "eps_basic": ("-0.77", 70),
        "total_equity": ("-152790000", 72),
        "operating_cash_flow": ("-282022000", 74),
        "financing_cash_flow": ("331388000", 75),
    },
    "1721_fsm_2020_annual.pdf": {
        "revenue": ("10342000", 59),
        "cost_of_revenue": ("-8904000", 59),
        "net_income_parent": ("-2599000", 59),
        "eps_basic": ("-0.0026", 59),  # (0.26) Singapore cents
        "selling_expense": ("-197000", 59),
        "admin_expense": ("-3475000", 59),
        "rd_expense": ("-586000", 59),
        "total_assets": ("41706000", 61),
        "total_liabilities": ("6015000", 62),
        "total_equity": ("35691000", 61),
        "operating_cash_flow": ("554000", 64),
        "capex": ("-305000", 64),
    },
    "1741_riying_2021_annual.pdf": {
        "revenue": ("223076000", 67),
        "net_income": ("-23853000", 67),
        "eps_basic": ("-0.0266", 67),  # (2.66) HK cents
        "total_assets": ("350575000", 68),
        "total_liabilities": ("171107000", 69),
        "total_equity": ("179468000", 68),
        "operating_cash_flow": ("-25231000", 71),
    },
    "2324_capitalvc_2021_annual.pdf": {
        "revenue": ("76705162", 51),  # HK$, not thousands
        "net_income": ("62724232", 51),
        "net_income_parent": ("62724232", 51),
        "eps_basic": ("0.18", 51),
        "eps_diluted": ("0.17", 51),
        "total_equity": ("526214629", 53),
        "operating_cash_flow": ("-19994217", 55),
        "investing_cash_flow": ("11625687", 56),
        "financing_cash_flow": ("3437500", 56),
    },
    "6068_wisdomeducation_2021_annual.pdf": {
        "revenue": ("2263747000", 73),  # the total column, not Remaining Business / Affected Entities
        "net_income_parent": ("-2119748000", 73),
        "eps_basic": ("-0.98", 73),
        "selling_expense": ("-27405000", 73),
        "total_equity": ("578648000", 75),
        "equity_parent": ("578648000", 75),
        "operating_cash_flow": ("1003518000", 78),
        "capex": ("-1427286000", 79),
    },
    "0328_alco_2025_annual-results.pdf": {
        "revenue": ("99313000", 2),
        "net_income": ("-64270000", 2),
        "net_income_parent": ("-64270000", 3),
        "eps_basic": ("-0.63", 3),
        "total_equity": ("-64693000", 6),  # 總虧絀
        "equity_parent": ("-64043000", 6),
        "current_liabilities": ("231076000", 5),
        "inventory": ("24875000", 5),
    },
}


@pytest.mark.parametrize("name", sorted(KEY))
def test_key_metrics_current_year(name):
    _hk_dir()
    end = REPORTS[name][2]
    for metric, (value, page) in KEY[name].items():
        f = pick(name, metric, end.year)
        assert f.value == Decimal(value), (metric, f)
        assert f.page == page, (metric, f)
        assert f.unit.split("/")[0] == REPORTS[name][4]
        assert f.period_end == end
        if metric.startswith("eps"):
            assert f.unit.endswith("/share")
        else:
            assert f.unit == REPORTS[name][4]


def test_units_and_scales_as_printed():
    _hk_dir()
    f = pick("0717_emperorcapital_2021_annual.pdf", "revenue", 2021)
    assert (f.original_unit, f.scale, f.value_text) == ("HK$’000", 3, "676,812")
    f = pick("0717_emperorcapital_2021_annual.pdf", "eps_basic", 2021)
    assert (f.original_unit, f.value_text, f.unit) == ("HK cents", "HK(8.55) cents", "HKD/share")
    f = pick("1721_fsm_2020_annual.pdf", "eps_basic", 2020)
    assert f.original_unit == "Singapore cents" and f.unit == "SGD/share"
    f = pick("2324_capitalvc_2021_annual.pdf", "revenue", 2021)
    assert (f.original_unit, f.scale) == ("HK$", 0)
    f = pick("0328_alco_2025_annual-results.pdf", "revenue", 2025)
    assert (f.original_unit, f.scale, f.label, f.column) == ("千港元", 3, "營業額", "二零二五年")
    f = pick("1678_chinacreative_2019_annual.pdf", "revenue", 2019)
    assert f.original_unit == "RMB’000" and f.unit == "CNY"


def test_statement_pages_located():
    _hk_dir()
    found = {n: statement_pages(list(_pages(n))) for n in REPORTS}
    assert found["0717_emperorcapital_2021_annual.pdf"] == {
        "income": [72], "balance": [73, 74], "cashflow": [76, 77], "key_figures": [181]}
    assert found["1161_wateroasis_2021_annual.pdf"] == {
        "income": [61, 62], "balance": [63, 64], "cashflow": [66, 67], "company_balance": [120], "key_figures": [122]}
    assert found["1678_chinacreative_2019_annual.pdf"]["balance"] == [71, 72]
    assert found["1721_fsm_2020_annual.pdf"] == {
        "income": [59, 60], "balance": [61, 62], "cashflow": [64], "company_balance": [110],
        "key_figures": [114, 115]}  # "Summary of Financial Information"
    assert found["1741_riying_2021_annual.pdf"]["income"] == [67]
    assert found["2324_capitalvc_2021_annual.pdf"]["cashflow"] == [55, 56]
    assert found["6068_wisdomeducation_2021_annual.pdf"]["company_balance"] == [188, 189]
    # the results announcement continues its statements on untitled pages and prints no cash flow
    assert found["0328_alco_2025_annual-results.pdf"] == {"income": [2, 3, 4], "balance": [5, 6]}


# ------------------------------------------------------------------------------------- comparatives

COMPARATIVE = [  # name, metric, prior fiscal year, value, period start, period end
    ("0717_emperorcapital_2021_annual.pdf", "revenue", 2020, "917407000", D(2019, 10, 1), D(2020, 9, 30)),
    ("1161_wateroasis_2021_annual.pdf", "net_income_parent", 2020, "27736000", D(2019, 10, 1), D(2020, 9, 30)),
    ("1678_chinacreative_2019_annual.pdf", "total_equity", 2018, "1956855000", None, D(2018, 12, 31)),
    ("1721_fsm_2020_annual.pdf", "total_assets", 2019, "44582000", None, D(2019, 12, 31)),
    ("1741_riying_2021_annual.pdf", "operating_cash_flow", 2020, "-30985000", D(2019, 10, 1), D(2020, 9, 30)),
    ("2324_capitalvc_2021_annual.pdf", "revenue", 2020, "-52399474", D(2019, 10, 1), D(2020, 9, 30)),
    ("6068_wisdomeducation_2021_annual.pdf", "revenue", 2020, "1792728000", D(2019, 9, 1), D(2020, 8, 31)),
    ("0328_alco_2025_annual-results.pdf", "net_income_parent", 2024, "600692000", D(2023, 4, 1), D(2024, 3, 31)),
]


@pytest.mark.parametrize("name,metric,year,value,start,end", COMPARATIVE)
def test_comparative_columns_are_prior_fiscal_year(name, metric, year, value, start, end):
    _hk_dir()
    f = pick(name, metric, year)
    assert f.value == Decimal(value)
    assert (f.period_start, f.period_end) == (start, end)
    assert f.period_type == ("instant" if start is None else "duration")


def test_restated_three_column_balance_sheet():
    _hk_dir()
    name = "1721_fsm_2020_annual.pdf"
    cols = {f.column: f for f in _facts(name) if f.statement == "balance" and f.label == "Total assets" and f.consolidated}
    assert set(cols) == {"31/12/2020", "31/12/2019", "1/1/2019"}
    assert cols["1/1/2019"].period_end == D(2019, 1, 1) and cols["1/1/2019"].value == Decimal("45623000")


def test_segment_columns_carry_dimensions():
    _hk_dir()
    name = "6068_wisdomeducation_2021_annual.pdf"
    rev = [f for f in _facts(name) if f.statement == "income" and f.label == "Revenue" and f.period_end == D(2021, 8, 31)]
    by_seg = {f.dimensions.get("segment"): f.value for f in rev}
    assert by_seg == {
        "Remaining Business": Decimal("219666000"),
        "Affected Entities": Decimal("2044081000"),
        None: Decimal("2263747000"),
    }


def test_company_level_statement_is_not_consolidated():
    _hk_dir()
    name = "1161_wateroasis_2021_annual.pdf"
    company = [f for f in _facts(name) if not f.consolidated]
    assert company and {f.page for f in company} == {120} and {f.statement for f in company} == {"balance"}
    te = by_label(name, "balance", "Total equity", 2021, consolidated=False)
    assert te is not None and te.value == Decimal("206232000")
    assert pick(name, "total_equity", 2021).value == Decimal("358765000")  # the group's, not the company's


# ------------------------------------------------------------------------------------------ identities


def _bal(name: str, year: int, *labels: str) -> Decimal | None:
    for label in labels:
        f = by_label(name, "balance", label, year)
        if f is not None:
            return f.value
    return None


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_identities_where_printed(name):
    _hk_dir()
    end = REPORTS[name][2]
    checked = 0
    for year in (end.year, end.year - 1):
        ca = _bal(name, year, "Current assets", "流動資產")
        cl = _bal(name, year, "Current liabilities", "Current liability", "流動負債")
        nca_net = _bal(
            name, year, "Net current assets", "Net current liabilities", "Net current (liabilities) assets",
            "NET CURRENT ASSETS (LIABILITIES)", "流動負債淨額", "流動資產淨值",
        )
        if ca is not None and cl is not None and nca_net is not None:
            assert ca - cl == nca_net, (year, ca, cl, nca_net)
            checked += 1
        ta = _bal(name, year, "Total assets")
        tl = _bal(name, year, "Total liabilities")
        te = _bal(name, year, "Total equity")
        if ta is not None and tl is not None and te is not None:
            assert tl + te == ta
            assert _bal(name, year, "Total equity and liabilities") == ta
            checked += 1
        talcl = _bal(name, year, "Total assets less current liabilities", "總資產減流動負債")
        nonca = _bal(name, year, "Non-current assets", "非流動資產")
        if talcl is not None and nonca is not None and nca_net is not None:
            assert nonca + nca_net == talcl
            checked += 1
        # cash flow: opening + net change (+ FX) = closing, in the statement itself
        cf = [f for f in _facts(name) if f.statement == "cashflow" and f.column and f.column.endswith(str(year))]
        opening = [f for f in cf if re.search(r"beginning", f.label or "", re.I)]
        closing = [f for f in cf if re.search(r"at end|END OF", f.label or "", re.I)]
        change = [f for f in cf if re.search(r"^net .*(increase|decrease).*cash and cash equivalents", f.label or "", re.I)]
        if opening and closing and change:
            # rows printed between the net change and the closing balance: opening balance, FX effect
            def row(f):
                return f.page, int(f.locator.split()[1][1:])

            between = [f for f in cf if row(change[0]) < row(f) < row(closing[0]) and f is not opening[0]]
            fx_value = sum((f.value for f in between), Decimal(0))
            assert opening[0].value + change[0].value + fx_value == closing[0].value, (year, name)
            checked += 1
    assert checked >= 1 or name == "0328_alco_2025_annual-results.pdf"
    if name == "0328_alco_2025_annual-results.pdf":
        assert checked >= 2  # net current liabilities and total assets less current liabilities, two years


def test_summary_totals_agree_with_statements():
    """Five-year summaries print total assets / liabilities the statements leave out (0717, 1161)."""
    _hk_dir()
    name = "0717_emperorcapital_2021_annual.pdf"
    key = {f.label: f.value for f in _facts(name) if f.statement == "key_figures" and f.column == "2021"}
    assert key["Total assets"] == _bal(name, 2021, "Non-current assets") + _bal(name, 2021, "Current assets")
    assert -key["Total liabilities"] == _bal(name, 2021, "Current liabilities") + _bal(name, 2021, "Non-current liabilities")
    assert key["Revenue"] == pick(name, "revenue", 2021).value
    name = "1161_wateroasis_2021_annual.pdf"
    key = {f.label: f.value for f in _facts(name) if f.statement == "key_figures" and f.column == "2021"}
    assert key["Total assets"] == Decimal("1358216000")
    assert key["Total assets"] == _bal(name, 2021, "Non-current assets") + _bal(name, 2021, "Current assets")


def test_cash_at_end_of_year_is_an_instant_matching_the_balance_sheet():
    _hk_dir()
    name = "1721_fsm_2020_annual.pdf"
    f = pick(name, "cash_and_equivalents", 2020, statement="cashflow")
    assert f.period_type == "instant" and f.value == _bal(name, 2020, "Cash and cash equivalents")


# ------------------------------------------------------------------------------ synthetic pages


def _info_synthetic(lang: str = "en", ccy: str = "HKD", end: dt.date = D(2021, 9, 30)) -> DocumentInfo:
    return DocumentInfo(market="HK", stock_code="9999.HK", form="annual", fiscal_year=end.year, fiscal_period="FY",
                        period_end=end, fiscal_year_end_month=end.month, language=lang, currency=ccy,
                        accounting_standard="HKFRS")


def test_bilingual_wrapped_labels_notes_and_cents():
    text = "\n".join([
        "CONSOLIDATED STATEMENT OF PROFIT OR LOSS AND OTHER COMPREHENSIVE INCOME",
        "綜合損益及其他全面收益表",
        "For the year ended 30 September 2021 截至2021年9月30日止年度",
        "2021 2020",
        "Notes HK$’000 HK$’000",
        "附註 千港元 千港元",
        "Turnover 營業額 5,6 1,000 (2,000)",
        "Expected credit loss on financial 按攤銷成本列賬之財務資產",
        "assets at amortised cost, 預期信貸虧損，扣除撥回",
        "net of reversal 17 (4,785) –",
        "Profit for the year 本年度溢利 6(a) 500 (90)",
        "Profit for the year attributable to:",
        "Owners of the Company 本公司擁有人 480 (80)",
        "Non-controlling interests 非控股權益 20 (10)",
        "Earnings per share 每股盈利 12",
        "Basic 基本 HK(8.55) cents 4.1 HK cents",
        "港仙 港仙",
        "ANNUAL REPORT 2021 71",
    ])
    facts = extract([Page(page=1, text="cover"), Page(page=2, text=text)], _info_synthetic("en+zh-Hant"))
    rows = {(f.label, f.column): f for f in facts}
    assert rows[("Turnover", "2021")].value == Decimal("1000000")
    assert rows[("Turnover", "2020")].value == Decimal("-2000000")
    ecl = rows[("Expected credit loss on financial assets at amortised cost, net of reversal", "2021")]
    assert ecl.value == Decimal("-4785000") and ecl.page == 2 and ecl.locator == "p2 r10 c1"
    assert ("Expected credit loss on financial assets at amortised cost, net of reversal", "2020") not in rows  # "–"
    assert rows[("Profit for the year attributable to Owners of the Company", "2021")].value == Decimal("480000")
    eps = rows[("Earnings per share Basic", "2021")]
    assert (eps.value, eps.unit, eps.original_unit) == (Decimal("-0.0855"), "HKD/share", "HK cents")
    assert rows[("Earnings per share Basic", "2020")].value == Decimal("0.041")
    assert rows[("Turnover", "2020")].period_start == D(2019, 10, 1)
    assert not any("ANNUAL" in (f.label or "") for f in facts)


def test_subtotal_takes_heading_and_continued_page():
    p1 = "\n".join([
        "Consolidated Statement of Financial Position",
        "As at 31 March 2025",
        "2025 2024",
        "Notes HK$ million HK$ million",
        "Current assets",
        "Inventories 1.5 2",
        "Bank balances and cash 10 3.25 4",
        "4.75 6",
    ])
    p2 = "\n".join([
        "Consolidated Statement of Financial Position (Continued)",
        "As at 31 March 2025",
        "2025 2024",
        "HK$ million HK$ million",
        "Current liabilities",
        "Trade payables 1 (1)",
        "Total equity 9 8",
        "The consolidated financial statements were approved and authorised for issue by the Board",
        "Revenue 1 2",
    ])
    facts = extract([Page(page=7, text=p1), Page(page=8, text=p2)], _info_synthetic(end=D(2025, 3, 31)))
    rows = {(f.label, f.column): f for f in facts}
    assert rows[("Current assets", "2025")].value == Decimal("4750000")
    assert rows[("Current assets", "2025")].period_end == D(2025, 3, 31)
    assert rows[("Bank balances and cash", "2024")].value == Decimal("4000000")
    assert rows[("Total equity", "2024")].page == 8 and rows[("Total equity", "2024")].period_end == D(2024, 3, 31)
    assert ("Revenue", "2025") not in rows  # after the approval sentence the statement has ended
    assert all(f.statement == "balance" and f.period_type == "instant" for f in facts)


def test_traditional_chinese_only():
    text = "\n".join([
        "綜合損益表",
        "截至二零二五年三月三十一日止年度",
        "二零二五年 二零二四年",
        "附註 千港元 千港元",
        "營業額 3 99,313 148,422",
        "本公司擁有人應佔本年度（虧損）╱溢利 (64,270) 600,692",
        "每股（虧損）╱盈利 12",
        "－基本（港元） (0.63) 9.79",
    ])
    facts = extract([Page(page=2, text=text)], _info_synthetic("zh-Hant", end=D(2025, 3, 31)))
    rows = {(f.label, f.column): f for f in facts}
    assert rows[("營業額", "二零二五年")].value == Decimal("99313000")
    assert rows[("營業額", "二零二四年")].period_end == D(2024, 3, 31)
    eps = rows[("每股（虧損）╱盈利 －基本（港元）", "二零二五年")]
    assert eps.value == Decimal("-0.63") and eps.unit == "HKD/share"
    assert {metric_of(f) for f in facts} >= {"revenue", "net_income_parent"}


def test_pages_only_documents_return_nothing():
    page = Page(page=1, text="Consolidated Statement of Profit or Loss\n2021 2020\nHK$’000 HK$’000\nRevenue 1 2")
    assert extract([page], _info_synthetic().model_copy(update={"form": "fund_fs", "company_metrics": False})) == []
    assert extract([page], _info_synthetic().model_copy(update={"form": "mda_extract", "company_metrics": False})) == []
    assert extract([page], _info_synthetic())  # the same page in a report does give facts


# ------------------------------------------------------------------------------------------ label map

def _canonical() -> set[str]:
    from mappings.metrics import metrics as catalogue

    return set(catalogue())  # every label maps to a metric the catalogue defines


CANONICAL = _canonical()


def test_label_map_is_well_formed():
    data = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    assert set(data) <= {"income", "balance", "cashflow", "key_figures"}
    for statement, metrics in data.items():
        seen: dict[str, str] = {}
        for metric, labels in metrics.items():
            assert metric in CANONICAL, metric
            assert labels and all(isinstance(x, str) and x.strip() for x in labels)
            for label in labels:
                key = normalise(label)
                assert seen.setdefault(key, metric) == metric, f"{statement}: {label!r} maps to two metrics"


def test_normalise_mirrors_the_rule():
    assert normalise("Less: Finance costs:") == "finance costs"
    assert normalise("  Revenue  ") == "revenue"
    assert normalise("本年度（虧損）╱溢利") == "本年度(虧損)╱溢利"
    assert normalise("1. Total   Assets") == "total assets"
    try:
        from mappings.metrics import normalise_label
    except ImportError:  # the loader is the lead's; mirror only
        return
    for label in ["Less: Finance costs:", "每股（虧損）╱盈利 －基本（港元）", "(Loss)/profit for the year", "Turnover"]:
        assert normalise(label) == normalise_label(label)


@pytest.mark.parametrize("name", sorted(REPORTS))
def test_every_report_maps_its_headline_metrics(name):
    _hk_dir()
    end = REPORTS[name][2].year
    mapped = {metric_of(f) for f in _facts(name) if f.period_end and f.period_end.year == end} - {None}
    need = {"revenue", "total_equity", "eps_basic"}
    need |= {"net_income_parent"} if name != "1678_chinacreative_2019_annual.pdf" else {"net_income"}
    need |= {"operating_cash_flow"} if name != "0328_alco_2025_annual-results.pdf" else set()
    assert need <= mapped, need - mapped


@pytest.fixture(scope="module")
def emperor_home(tmp_path_factory):
    from tests.conftest import ingested_home

    return ingested_home(tmp_path_factory, "hk_emperor", [("hk", "0717_emperorcapital_2021_annual.pdf"),
                                                          ("hk", "1678_chinacreative_2019_annual.pdf")])


def test_totals_derived_from_section_subtotals(emperor_home):
    """0717 FY2021 prints no "Total assets" / "Total liabilities" line on its balance sheet (p73-74): total
    assets = non-current assets 690,738 + current assets 6,106,262 (p73) and total liabilities = current
    liabilities 2,942,272 + non-current liabilities 5,086 (p74), HK$'000, stored as derived with the formula and
    the input pages, never with a page of their own. The financial summary (p181) prints the same totals:
    total assets 6,797,000 (2021) / 10,016,872 (2020), total liabilities (2,947,358) / (5,591,259)."""
    import duckdb
    import json

    con = duckdb.connect(str(emperor_home / "warehouse.duckdb"), read_only=True)
    rows = con.execute(
        """SELECT fiscal_year, metric_name, metric_value, page, source_kind, derivation FROM financial_metrics
           WHERE stock_code = '0717.HK' AND metric_name IN ('total_assets', 'total_liabilities')
           ORDER BY fiscal_year, metric_name""").fetchall()
    got = {(y, m): (v, page, kind, json.loads(d) if d else None) for y, m, v, page, kind, d in rows}
    # the years before the balance sheet's two are the summary's own (p181): 2019 total assets 9,887,174
    assert got[(2019, "total_assets")][:3] == (Decimal("9887174000"), "181", "comparative")
    expect = {(2021, "total_assets"): Decimal("6797000000"), (2020, "total_assets"): Decimal("10016872000"),
              (2021, "total_liabilities"): Decimal("2947358000"), (2020, "total_liabilities"): Decimal("5591259000")}
    for key, value in expect.items():
        v, page, kind, derivation = got[key]
        assert (v, page, kind) == (value, None, "derived"), key
        assert derivation["formula"] in ("total_assets = non_current_assets + current_assets",
                                         "total_liabilities = non_current_liabilities + current_liabilities")
        assert {i["page"] for i in derivation["inputs"]} <= {"73", "74"}
    assert [i["value"] for i in got[(2021, "total_assets")][3]["inputs"]] == ["690738000.000000", "6106262000.000000"]
    # the year's loss, printed only in the financial summary (p181 "Profit (loss) for the year (576,094)"): the
    # income statement prints it as "Loss for the year attributable to owners of the Company" (p72)
    ni = con.execute("""SELECT metric_value, page, source_kind FROM financial_metrics WHERE stock_code = '0717.HK'
                        AND metric_name = 'net_income' AND fiscal_year = 2021""").fetchone()
    assert ni == (Decimal("-576094000"), "181", "own_report")
    # 1678 FY2019 prints its nil non-current assets and liabilities as dashes ("— 778,558", p71; "— 15,023", p72):
    # total assets = total assets less current liabilities (152,790) + current liabilities 153,472 = 682 and total
    # liabilities = 682 - total (deficit) equity (152,790) = 153,472 (RMB'000); FY2018 = 778,558 + 1,389,366 and
    # 196,046 + 15,023. The five-year summary (p144) prints TOTAL ASSETS 682 / 2,167,924 and TOTAL LIABILITIES
    # 153,472 / 211,069.
    rows = dict(((y, m), (v, kind)) for y, m, v, kind in con.execute(
        """SELECT fiscal_year, metric_name, metric_value, source_kind FROM financial_metrics WHERE stock_code = '1678.HK'
           AND metric_name IN ('total_assets', 'total_liabilities') AND fiscal_year >= 2018""").fetchall())
    # the years before are the summary's own (p144: 2017 TOTAL ASSETS 2,287,987, TOTAL LIABILITIES 199,755)
    earlier = con.execute("""SELECT metric_name, metric_value, page FROM financial_metrics WHERE stock_code = '1678.HK'
                             AND metric_name IN ('total_assets', 'total_liabilities') AND fiscal_year = 2017
                             ORDER BY metric_name""").fetchall()
    assert earlier == [("total_assets", Decimal("2287987000"), "144"), ("total_liabilities", Decimal("199755000"), "144")]
    assert rows == {(2019, "total_assets"): (Decimal("682000"), "derived"),
                    (2019, "total_liabilities"): (Decimal("153472000"), "derived"),
                    (2018, "total_assets"): (Decimal("2167924000"), "derived"),
                    (2018, "total_liabilities"): (Decimal("211069000"), "derived")}
    from warehouse.coverage import report

    rep = report(con)
    assert [r for r in rep["rows"] if r["status"] == "missing"] == []
    assert rep["identities_checked"].get("balance_sections", 0) >= 2
    # opening cash + net change + exchange-rate effect = closing cash, both columns of both cash-flow statements
    assert rep["identities_checked"].get("cash_rollforward", 0) >= 4
    assert not [f for f in rep["findings"] if f["identity"] not in ("restated", "basis_break")]

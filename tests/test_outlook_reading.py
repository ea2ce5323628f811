"""What a filing expects, quoted the way an analyst reads it (router/outlook.py, router/quote_scope.rate_first).
Expected text from the pages named:

- 603259_yaomingkangde_2025_q3 p7: "公司预计 2025年持续经营业务收入重回双位数增长，增速从 13-17%上调至 17-18%。公司预计全年
  整体收入从人民币 425-435 亿元上调至人民币 435-440 亿元。公司将聚焦 CRDMO 核心业务，..." then "上述提及的 2025年全年经营业绩
  展望以公司目前在手订单情况为基础预测，...".
- 603259_yaomingkangde_2024_summary p8: "公司预计2025年持续经营业务收入重回双位数增长，同比增长10%-15%，公司整体收入达到人民币
  415-430亿元。公司将持续聚焦CRDMO核心业务，..." then "上述提及的2025年全年经营业绩展望 ...".
- transcripts/AMZN_2024_Q4 (CFO): "Moving next to our AWS segment, revenue is $28.8 billion, an increase of 19%
  year-over-year."
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from conftest import corpus_page, ingested_home
from router.fallback import labels_of
from router.outlook import outlook_quotes, with_outlook
from router.quote_scope import rate_first
from schema.models import Passage

Q3 = ("cn", "603259_yaomingkangde_2025_q3.pdf", 7)
ANNUAL = ("cn", "603259_yaomingkangde_2024_summary.pdf", 8)


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {name: corpus_page(market, name, page) for market, name, page in (Q3, ANNUAL)}


def _quote(pages: dict[str, str], doc: tuple, pattern: str) -> Passage:
    """The passage of the page ``doc`` from where ``pattern`` matches to the end of its sentence (。)."""
    page = pages[doc[1]]
    m = re.search(pattern, page)
    end = page.index("。", m.start()) + 1
    return Passage(text=page[m.start():end], company_id="wuxi_apptec",
                   source={"document_id": doc[1], "doc_name": doc[1], "page": doc[2], "char_start": m.start(), "char_end": end})


def _page_text(pages):
    return lambda document_id, page: pages.get(document_id)


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_a_guidance_sentence_is_read_on_through_the_outlook_sentences_after_it(pages):
    p = _quote(pages, Q3, r"公司预计\s*2025\s*年持续经营业务")
    read = with_outlook(p, _page_text(pages))
    assert "17-18%" in read.text and "435-440亿元" in _flat(read.text)  # the revenue range of the next sentence
    assert "CRDMO" not in read.text  # a sentence without an outlook figure ends it
    page = pages[Q3[1]]
    assert page[read.source["char_start"]: read.source["char_end"]] == read.text  # still a span of its page


def test_a_sentence_referring_back_to_the_outlook_is_read_with_it(pages):
    p = _quote(pages, ANNUAL, r"上述提及的")
    read = with_outlook(p, _page_text(pages))
    assert "415-430亿元" in _flat(read.text) and _flat(read.text).endswith("存在较大的不确定性。")
    assert "新客户" not in read.text  # not further back than the outlook sentence


def test_the_newest_reports_guidance_comes_first(pages):
    annual = _quote(pages, ANNUAL, r"公司预计2025年")
    q3 = _quote(pages, Q3, r"公司预计\s*2025\s*年持续经营业务")
    ends = {ANNUAL[1]: date(2024, 12, 31), Q3[1]: date(2025, 9, 30)}
    quoted = outlook_quotes([annual, q3], labels_of("revenue"), _page_text(pages), lambda ps: ends)
    assert quoted[0].source["doc_name"] == Q3[1] and "435-440" in _flat(quoted[0].text)
    ends = {ANNUAL[1]: date(2026, 12, 31), Q3[1]: date(2025, 9, 30)}  # dated the other way: the other order
    assert outlook_quotes([annual, q3], labels_of("revenue"), _page_text(pages), lambda ps: ends)[0].source[
        "doc_name"] == ANNUAL[1]


def test_a_rate_asked_puts_the_quotes_that_print_one_first():
    spend = Passage(text="The majority of the spend will support AWS.", company_id="amazon", source={})
    grew = Passage(text="Moving next to our AWS segment, revenue is $28.8 billion, an increase of 19% year-over-year.",
                   company_id="amazon", source={})
    assert rate_first("How fast did AWS grow?", [spend, grew])[0] is grew
    assert rate_first("AWS 2024年收入增速是多少？", [spend, grew])[0] is grew
    assert rate_first("What did Amazon say about AWS?", [spend, grew])[0] is spend  # no rate asked: as they are


@pytest.fixture(scope="module")
def wuxi(tmp_path_factory):
    from filings import Filings

    home = ingested_home(tmp_path_factory, "outlook_reports", [Q3[:2], ANNUAL[:2]], dense=False)
    with Filings(home, read_only=True) as f:
        yield f


def test_a_years_outlook_is_answered_from_the_latest_report_that_updates_it(wuxi):
    a = wuxi.ask("药明康德预计2025年全年整体收入是多少？")
    assert a.status == "answered", a.reason
    assert "435-440" in _flat(a.passages[0].text) and a.passages[0].source["doc_name"] == "603259_yaomingkangde_2025_q3"
    assert any("415-430" in _flat(p.text) for p in a.passages)  # the annual report's first outlook, after it

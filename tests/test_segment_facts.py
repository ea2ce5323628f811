"""A part of a metric that the filing tags in XBRL (a segment, product or region as a dimension member) is answered
from the tagged fact (router/segment_facts.py). Expected figures are read from the filings' segment notes: NVIDIA
10-K FY2025 (nvda-20250126, "Compute & Networking Graphics All Other Consolidated ... Year Ended Jan 26, 2025 ...
Operating income (loss) $ 82,875 $ 5,085 $ (6,507) $ 81,453"; Jan 28, 2024: $ 32,016 $ 5,846), Apple 10-K FY2024
(aapl-20240928, net sales by category: iPhone $201,183; by reportable segment: Greater China $66,952)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import ingested_home
from filings import Filings
from router.segment_facts import member_name


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "segment_facts", [("us", "ixbrl", "nvda-10k-fy2025"),
                                                             ("us", "ixbrl", "aapl-10k-fy2024"),
                                                             ("us", "ixbrl", "wmt-10k-fy2025")])
    with Filings(home, read_only=True) as fx:
        yield fx


def _values(answer) -> dict[tuple[int, str], Decimal]:
    return {(r.fiscal_year, r.fiscal_period): Decimal(r.value) for r in answer.rows}


@pytest.mark.parametrize("question, expected", [
    ("NVIDIA Compute & Networking segment operating income for fiscal 2025", {(2025, "FY"): Decimal("82875e6")}),
    ("What operating income did NVIDIA's Graphics segment produce in fiscal 2024 and 2025?",
     {(2024, "FY"): Decimal("5846e6"), (2025, "FY"): Decimal("5085e6")}),
    ("Apple iPhone net sales fiscal 2024", {(2024, "FY"): Decimal("201183e6")}),
    ("苹果2024财年大中华区净销售额", {(2024, "FY"): Decimal("66952e6")}),  # the member "Greater China" by its words
    # Walmart 10-K FY2025 (wmt-20250131) Walmart International segment: "Net sales $121,885" (its total revenues, with
    # membership and other income, are 123,363): net sales asked, the sales concept's fact
    ("Walmart International segment net sales for fiscal 2025", {(2025, "FY"): Decimal("121885e6")}),
])
def test_a_tagged_part_is_answered_from_its_fact(f, question, expected):
    a = f.ask(question)
    assert a.status == "answered" and _values(a) == expected
    assert all(r.source.get("concept") and r.source.get("dimensions") for r in a.rows)


def test_a_part_no_member_names_is_not_answered_with_a_tagged_fact(f):
    # no member of Apple's is "wearables accessories cloud": no tagged fact, never the company's total
    a = f.ask("Apple wearables accessories cloud revenue fiscal 2024")
    assert not a.rows or all(r.source.get("dimensions") for r in a.rows)
    assert not any(Decimal(r.value) == Decimal("391035e6") for r in a.rows)


def test_member_names_read_as_words():
    assert member_name("aapl:GreaterChinaSegmentMember") == "Greater China"
    assert member_name("aapl:IPhoneMember") == "IPhone"
    assert member_name("nvda:ComputeAndNetworkingMember") == "Compute And Networking"

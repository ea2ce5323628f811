"""Earnings-call transcripts (parsers/transcripts.py).

Expected values were typed from the corpus files by reading them (speaker names and titles from the JSON
participants list, the analysts in IBM's Q&A counted by hand, quarters as each call states them).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import require_corpus
from parsers import transcripts as T
from schema.errors import ParseError


def _folder() -> Path:
    return require_corpus("transcripts")


def _fold(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def _exchange_of(doc, page: int):
    spans = [s for s in doc.sections if s.section == "qa" and s.page_start <= page <= s.page_end]
    assert len(spans) == 1, f"page {page} is in {len(spans)} Q&A exchanges"
    return spans[0]


def _page_with(doc, sentence: str) -> int:
    hits = [p.page for p in doc.pages if sentence in p.text]
    assert len(hits) == 1, f"{sentence!r} found on pages {hits}"
    return hits[0]


# ------------------------------------------------------------------------------------------ unit tests


def _mini_call(tmp_path: Path) -> Path:
    obj = {
        "header_texts": ["Contents:", "Prepared Remarks:", "Questions & Answers:", "Call participants:"],
        "prepared_remarks": [
            {"speaker": "Operator", "speech": "Welcome to the Example Corp fourth quarter 2021 earnings call."},
            {"speaker": "Jane Roe", "speech": "Thanks.  Revenue grew\nnicely."},
        ],
        "q_and_a": [
            {"speaker": "Operator", "speech": "Our first question comes from Al Ayes with Big Bank. Your line is open."},
            {"speaker": "Al Ayes", "speech": "How is pricing?"},
            {"speaker": "Jane Roe", "speech": "Pricing is firm."},
            {"speaker": "John Doe", "speech": "I would add that demand is strong."},
            {"speaker": "Al Ayes", "speech": "And a follow-up on costs?"},
            {"speaker": "John Doe", "speech": "Costs are flat."},
            {"speaker": "Operator", "speech": "Our next question comes from Bea Cee with Small Bank."},
            {"speaker": "Bea Cee", "speech": "What about tariffs?"},
            {"speaker": "Jane Roe", "speech": "Tariffs are manageable."},
            {"speaker": "Operator", "speech": "That concludes the call."},
            {"speaker": "Duration: 30 minutes", "speech": ""},
        ],
        "participants": ["Jane Roe--Chief Executive Officer", "John Doe--Chief Financial Officer",
                         "Al Ayes--Big Bank -- Analyst", "Bea Cee--Small Bank -- Analyst"],
    }
    path = tmp_path / "anything.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def test_mini_json_turns_sections_and_speakers(tmp_path):
    path = _mini_call(tmp_path)
    assert T.is_transcript(path)
    doc = T.parse(path)
    assert doc.parser == "transcripts/1"
    info = doc.info
    assert (info.market, info.form, info.language, info.company_metrics) == ("US", "transcript", "en", False)
    assert info.company_name == "Example Corp"
    assert info.currency is None and info.accounting_standard is None and info.period_end is None
    # no TICKER_YYYY_Qn name and no fiscal phrase: period unknown, said so
    assert info.fiscal_year is None and info.fiscal_period is None
    assert any("fiscal period unknown" in w for w in doc.warnings)
    # 12 turns (the Duration line is not a turn); whitespace folded, text kept
    assert info.pages == len(doc.pages) == 12
    assert doc.pages[1].text == "Jane Roe (Chief Executive Officer): Thanks. Revenue grew nicely."
    assert doc.pages[3].text == "Al Ayes (Analyst, Big Bank): How is pricing?"
    assert doc.pages[0].text.startswith("Operator: Welcome")
    spans = [(s.section, s.page_start, s.page_end) for s in doc.sections]
    assert spans == [("prepared_remarks", 1, 2), ("qa", 4, 8), ("qa", 10, 11)]
    first, second = doc.sections[1].attrs, doc.sections[2].attrs
    assert first["analyst"] == "Al Ayes" and first["firm"] == "Big Bank" and first["exchange"] == "1"
    assert first["speakers"] == "Jane Roe; John Doe"
    assert second["analyst"] == "Bea Cee" and second["speakers"] == "Jane Roe"
    assert doc.sections[0].attrs["duration_minutes"] == "30"
    turns = T.speakers(path)
    assert [t.kind for t in turns[:4]] == ["operator", "management", "operator", "analyst"]
    assert turns[4].speaker == "Jane Roe" and turns[4].exchange == 1 and turns[4].section == "qa"
    assert doc.pages[4].text[turns[4].prefix_len:] == "Pricing is firm."


def test_ticker_map_gives_cik(tmp_path):
    path = _mini_call(tmp_path)
    named = tmp_path / "EXMP_2021_Q4.json"
    named.write_bytes(path.read_bytes())
    doc = T.parse(named, tickers={"EXMP": {"cik": "123", "title": "EXAMPLE CORP"}})
    assert doc.info.stock_code == "EXMP" and doc.info.cik == "0000000123"
    assert (doc.info.fiscal_year, doc.info.fiscal_period) == (2021, "Q4")
    assert doc.sections[0].attrs["fiscal_source"] == "file name"
    # the SEC file's own shape is accepted too
    sec = {"0": {"cik_str": 123, "ticker": "EXMP", "title": "EXAMPLE CORP"}}
    assert T.parse(named, tickers=sec).info.cik == "0000000123"


@pytest.mark.parametrize(
    "name, content, reason",
    [
        ("empty.json", "", "file is empty"),
        ("blank.txt", "  \n", "file is empty"),
        ("other.json", json.dumps({"facts": [1, 2], "speaker": "x"}), "JSON is not an earnings-call transcript"),
        ("list.json", json.dumps([{"speaker": "A", "speech": "b"}]), "JSON is not an earnings-call transcript"),
        ("broken.json", '{"prepared_remarks": [', "invalid JSON"),
        ("notes.txt", "Shopping list: apples, pears, bread. Call the plumber on Monday about the sink. " * 20,
         "does not read like an earnings call"),
    ],
)
def test_bad_input_raises_parse_error(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert not T.is_transcript(path)
    with pytest.raises(ParseError) as err:
        T.parse(path)
    assert reason in err.value.reason
    assert err.value.path == str(path)


def test_turnless_json_and_binary(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"prepared_remarks": [{"speaker": "Operator", "speech": "  "}], "q_and_a": []}))
    with pytest.raises(ParseError, match="no speaker turns"):
        T.parse(path)
    binary = tmp_path / "AAPL_2024_Q4.txt"
    binary.write_bytes(b"\xff\xfe\x00earnings call\x00")
    assert not T.is_transcript(binary)
    with pytest.raises(ParseError, match="not UTF-8"):
        T.parse(binary)
    with pytest.raises(ParseError, match="does not exist"):
        T.parse(tmp_path / "missing.txt")


# ---------------------------------------------------------------------------------------- corpus tests


def test_every_transcript_parses():
    folder = _folder()
    files = sorted(p for p in folder.iterdir() if p.suffix in {".json", ".txt"})
    assert len(files) == 48
    for path in files:
        assert T.is_transcript(path), path.name
        doc = T.parse(path)
        ticker, year, quarter = path.stem.split("_")
        assert doc.info.stock_code == ticker
        assert doc.info.fiscal_period == quarter, path.name
        assert doc.info.pages == len(doc.pages) > 10
        assert [p.page for p in doc.pages] == list(range(1, len(doc.pages) + 1))
        assert all(p.text and p.text == _fold(p.text) for p in doc.pages)
        assert doc.sections[0].section == "prepared_remarks" and doc.sections[0].page_start == 1
        qa = [s for s in doc.sections if s.section == "qa"]
        assert len(qa) >= 5, path.name
        assert [s.attrs["exchange"] for s in qa] == [str(i) for i in range(1, len(qa) + 1)]
        # spans are ordered and never overlap
        for a, b in zip(doc.sections, doc.sections[1:]):
            assert a.page_end < b.page_start, path.name
    assert not T.is_transcript(folder / "README.md")


def test_ibm_speakers_roles_and_exchanges():
    path = _folder() / "IBM_2021_Q4.json"
    doc = T.parse(path)
    assert doc.info.company_name == "IBM"
    assert (doc.info.fiscal_year, doc.info.fiscal_period) == (2021, "Q4")
    # 39 turns: the trailing "Duration: 66 minutes" pseudo-turn is dropped
    assert len(doc.pages) == 39
    assert doc.sections[0].attrs["duration_minutes"] == "66"
    assert doc.pages[0].text.startswith("Operator: Welcome, and thank you for standing by.")
    assert doc.pages[3].text.startswith(
        "Jim Kavanaugh (Senior Vice President and Chief Financial Officer): Thanks, Arvind. "
        "Let me start out with a few of the headline numbers.")
    assert doc.pages[6].text.startswith("Amit Daryanani (Analyst, Evercore ISI): Thanks a lot for taking my question")
    prepared = doc.sections[0]
    assert (prepared.page_start, prepared.page_end) == (1, 5)
    # counted by reading the call: Amit Daryanani, Katy Huberty, Toni Sacconaghi, Wamsi Mohan, Jim Suva,
    # David Grossman, Kyle McNealy, Brian Essex
    qa = [s for s in doc.sections if s.section == "qa"]
    assert [s.attrs["analyst"] for s in qa] == ["Amit Daryanani", "Katy Huberty", "Toni Sacconaghi", "Wamsi Mohan",
                                                "Jim Suva", "David Grossman", "Kyle McNealy", "Brian Essex"]
    assert qa[1].attrs["firm"] == "Morgan Stanley"
    # Arvind Krishna's answer to Wamsi Mohan ("the mid-single-digit growth in 2022 going to 2023")
    page = _page_with(doc, "Let me address the first part of the question, the mid-single-digit growth in 2022")
    ex = _exchange_of(doc, page)
    assert ex.attrs["analyst"] == "Wamsi Mohan" and ex.attrs["exchange"] == "4"
    assert ex.attrs["speakers"] == "Arvind Krishna; Jim Kavanaugh; Patricia Murphy"
    turns = T.speakers(path)
    assert turns[page - 1].speaker == "Arvind Krishna"
    assert turns[page - 1].role == "Chairman and Chief Executive Officer"
    # operator turns are in no exchange
    assert turns[9].kind == "operator" and turns[9].exchange is None


def test_json_speech_kept_exactly():
    path = _folder() / "KO_2021_Q4.json"
    obj = json.loads(path.read_text(encoding="utf-8"))
    doc, turns = T.parse(path), T.speakers(path)
    source = [t["speech"] for t in obj["prepared_remarks"] + obj["q_and_a"] if t["speech"].strip()]
    assert len(source) == len(doc.pages)
    for page, turn, speech in zip(doc.pages, turns, source):
        assert page.text[turn.prefix_len:] == _fold(speech)


def test_unp_analysts_without_analyst_tag():
    # UNP's participants list gives analysts as "Scott Group--Wolfe Research" (no "-- Analyst")
    doc = T.parse(_folder() / "UNP_2021_Q3.json")
    qa = [s for s in doc.sections if s.section == "qa"]
    assert qa[0].attrs["analyst"] == "Scott Group" and qa[0].attrs["firm"] == "Wolfe Research"
    assert doc.pages[qa[0].page_start - 1].text.startswith("Scott Group (Analyst, Wolfe Research): Hey thanks.")


@pytest.mark.parametrize(
    "name, year, quarter, source",
    [
        ("AAPL_2025_Q1.txt", 2025, "Q1", "Q1 Fiscal Year 2025"),  # Apple's December quarter 2024
        ("NVDA_2025_Q3.txt", 2025, "Q3", "third quarter of fiscal 2025"),
        ("NVDA_2026_Q1.txt", 2026, "Q1", "first quarter fiscal 2026"),
        ("MSFT_2024_Q4.txt", 2024, "Q4", "Fiscal Year 2024 Fourth Quarter"),
        ("WMT_2026_Q1.txt", 2026, "Q1", "first quarter fiscal year 2026"),
        ("DIS_2022_Q1.json", 2022, "Q1", "first quarter of fiscal 2022"),
        ("FDX_2022_Q3.json", 2022, "Q3", "third quarter fiscal year 2022"),
        ("CRM_2022_Q2.json", 2022, "Q2", "Fiscal 2022 second-quarter"),
        ("TSLA_2025_Q1.txt", 2025, "Q1", None),  # calendar quarter: the file name decides
    ],
)
def test_fiscal_quarter_as_stated(name, year, quarter, source):
    doc = T.parse(_folder() / name)
    assert (doc.info.fiscal_year, doc.info.fiscal_period) == (year, quarter)
    attrs = doc.sections[0].attrs
    if source:
        assert attrs["fiscal_source"] == "content" and attrs["fiscal_label"] == source
    else:
        assert attrs["fiscal_source"] == "file name"


def test_home_depot_fiscal_year_is_the_year_it_ends():
    # "Home Depot's fourth quarter and fiscal year 2021": fiscal 2021 ended in January 2022
    doc = T.parse(_folder() / "HD_2021_Q4.json")
    assert (doc.info.fiscal_year, doc.info.fiscal_period) == (2022, "Q4")
    assert doc.sections[0].attrs["fiscal_label"] == "fourth quarter and fiscal year 2021"
    assert any("year they start in" in w for w in doc.warnings)


def test_call_dates_stated_in_the_call():
    folder = _folder()
    assert T.parse(folder / "NVDA_2025_Q2.txt").sections[0].attrs["call_date"] == "2024-08-28"
    assert T.parse(folder / "AMZN_2025_Q1.txt").sections[0].attrs["call_date"] == "2025-05-01"
    assert "call_date" not in T.parse(folder / "AAPL_2024_Q4.txt").sections[0].attrs


def test_plain_text_pseudo_turns_and_exchanges():
    path = _folder() / "AAPL_2024_Q4.txt"
    doc = T.parse(path)
    folded = _fold(path.read_text(encoding="utf-8"))
    assert doc.info.company_name == "Apple" and doc.info.company_id == "apple"
    # pages are consecutive exact pieces of the folded source
    assert " ".join(p.text for p in doc.pages) == folded
    assert max(len(p.text.split()) for p in doc.pages) <= 400
    assert T.speakers(path)[0].speaker is None
    # Q&A: the operator's "first question from Michael Ng with Goldman Sachs" opens exchange 1
    qa = [s for s in doc.sections if s.section == "qa"]
    assert qa[0].attrs["analyst"] == "Michael Ng" and qa[0].attrs["firm"] == "Goldman Sachs"
    assert doc.sections[0].page_end < qa[0].page_start
    # Luca's answer to Amit Daryanani's services question
    page = _page_with(doc, "the recurring portion is growing faster than the transactional one")
    ex = _exchange_of(doc, page)
    assert ex.attrs["analyst"] == "Amit Daryanani" and ex.attrs["firm"] == "Evercore"
    # a prepared-remarks sentence is in no exchange
    page = _page_with(doc, "Today's call is being recorded.")
    assert page <= doc.sections[0].page_end


def test_plain_text_nvidia_exchange():
    doc = T.parse(_folder() / "NVDA_2025_Q3.txt")
    page = _page_with(doc, "I'm wondering if you can talk about the trajectory of how Blackwell is going to ramp")
    ex = _exchange_of(doc, page)
    assert ex.attrs["analyst"] == "Timothy Arcuri" and ex.attrs["firm"] == "UBS"


def test_tesla_shareholder_questions_before_analysts():
    # "Now we'll go to investor questions. The first one is, is Tesla still on track ..."
    doc = T.parse(_folder() / "TSLA_2024_Q3.txt")
    qa = [s for s in doc.sections if s.section == "qa"]
    assert qa[0].attrs["kind"] == "shareholder"
    assert doc.pages[qa[0].page_start - 1].text.startswith("The first one is, is Tesla still on track")
    assert [s.attrs["analyst"] for s in qa if s.attrs["kind"] == "analyst"] == ["Pierre Faragu", "Adam Jonas"]


@pytest.mark.parametrize("name", ["IBM_2021_Q4.json", "HD_2021_Q4.json", "UNP_2021_Q3.json", "NVDA_2025_Q2.txt"])
def test_search_units_carry_the_speaker_the_parser_knows(name):
    from vectorstore.chunking import chunk

    path = _folder() / name
    doc = T.parse(path)
    kinds = {t.page: t.kind for t in T.speakers(path)}
    units, _ = chunk(doc.info, doc.pages, doc.sections, path.stem)
    for u in units:  # every unit names the kind of its turn; an unknown role or a plain-text call names none
        assert u.speaker == (kinds[u.page] if kinds[u.page] in ("management", "analyst", "operator") else None)
    if name.endswith(".json"):
        assert {"management", "analyst", "operator"} <= {u.speaker for u in units}
    else:
        assert {u.speaker for u in units} == {None}

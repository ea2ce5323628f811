"""Quoting (router/quotes.py): sentences over the PDF's printed lines, rare question words first, the kind of
answer asked for. Pages read from the corpus; the expected sentences are the ones printed there."""

from __future__ import annotations

import pytest

from conftest import require_corpus
from parsers.pdf_pages import read_pages
from router.quotes import best_quote, cues, root, sentences, term_weights


def test_a_sentence_runs_over_printed_lines_and_stops_at_headings_and_items():
    text = ("Revenue rose in every region as the company\nraised prices and volumes held up across the\nportfolio. "
            "Margins fell.\nLiquidity\nWe had enough cash to meet our needs over the next twelve months and\n"
            "beyond.\n• Risk one is described\nhere in full.\n(a) Risk two")
    got = [text[a:b] for a, b in sentences(text)]
    assert got == ["Revenue rose in every region as the company\nraised prices and volumes held up across the\nportfolio.",
                   "Margins fell.", "Liquidity",
                   "We had enough cash to meet our needs over the next twelve months and\nbeyond.",
                   "• Risk one is described\nhere in full.", "(a) Risk two"]
    assert root("exiting") == "exit" and root("rental") == "rent" and root("risk") == "risk"


def _page(*parts: str, page: int) -> str:
    return read_pages(require_corpus(*parts))[page - 1].text


def test_when_a_question_asks_when_the_date_is_quoted():
    # 3M_2022_10K p11: "3M announced in December 2022 it will take two actions: exiting all PFAS manufacturing by the
    # end of 2025; and working to discontinue the use of PFAS across its product portfolio by the end of 2025."
    text = _page("us", "financebench", "pdfs", "3M_2022_10K.pdf", page=11)
    question = "What is 3M's timeline to exit PFAS manufacturing?"
    a, b = best_quote(text, term_weights("timeline to exit PFAS manufacturing", [text]), cues(question))
    assert "exiting all PFAS manufacturing by the" in text[a:b] and "end of 2025" in text[a:b]


def test_the_reason_of_the_metric_asked_is_quoted_not_its_neighbours():
    # 600080 2024 annual p13: "经营活动产生的现金流量净额变动原因说明：主要因报告期内支付原材料采购款、研发投入、
    # 市场咨询服务费、保证金及往来款等增加所致；" printed over two lines, between the R&D and investing lines
    text = _page("cn", "600080_jinhuagufen_2024_annual.pdf", page=13)
    question = "金花股份2024年经营活动现金流净额为什么大幅下降？"
    a, b = best_quote(text, term_weights("经营活动现金流净额大幅下降", [text]), cues(question))
    assert "支付原材料采购款" in text[a:b] and "保证金及往来款等增加所致" in text[a:b]
    assert "回购本公司股票" not in text[a:b]


def test_a_broad_question_cites_only_passages_that_speak_of_its_topic():
    from router.quotes import mentions, topic_terms

    assert topic_terms("Which companies discussed supply chain disruptions") == {"supply", "chain", "disruption"}
    assert topic_terms("哪些公司提示了汇率风险") >= {"汇率"} and "公司" not in topic_terms("哪些公司提示了汇率风险")
    passages = ["Supply chain disruptions raised our freight costs.", "Our new stores opened on time.",
                "The supply of labour was tight."]
    weights = term_weights("supply chain disruptions", passages)
    topic = {t: w for t, w in weights.items() if t in topic_terms("Which companies discussed supply chain disruptions")}
    assert [mentions(p, topic) for p in passages] == [True, False, False]  # "disruption" weighs most: rarest


def test_a_quote_that_introduces_a_list_carries_the_list():
    # 1741_riying_2021_annual p9: "The Directors believe the more significant risks relating to the business are as
    # follows:" and five items, the last "... leading to cost overruns and adversely affecting the Group's operations
    # and financial results.", then the heading "COMPARISON OF BUSINESS OBJECTIVES ..."
    text = _page("hk", "1741_riying_2021_annual.pdf", page=9)
    question = "What principal risks and uncertainties does Ri Ying describe?"
    a, b = best_quote(text, term_weights("principal risks and uncertainties", [text]), cues(question))
    quote = text[a:b]
    assert "as follows:" in quote
    for item in ("non-recurring in nature", "limited number of customers", "relies substantially on subcontractors",
                 "key management personnel", "cost overruns"):
        assert item in quote, quote
    assert "COMPARISON OF BUSINESS OBJECTIVES" not in quote
    # without a colon there is no list to carry: a quote keeps to its sentences
    plain = "Revenue rose.\nWe face competition.\n• one item after a sentence that introduces nothing\n• another item"
    a, b = best_quote(plain, term_weights("competition", [plain]))
    assert plain[a:b].startswith("We face competition.") and "another item" not in plain[a:b]


def test_what_then_an_amounts_name_asks_for_a_figure():
    # the figure sentence as UPS's Q4 2021 call says it (transcripts/UPS_2021_Q4); a later sentence repeats the
    # question's words without a number
    text = ("In 2022, consolidated revenues are expected to be about $102 billion. Operating margin is expected to be "
            "approximately 13.7%. Our people delivered for customers through the holidays, and the network ran well. "
            "Our 2022 revenue plan builds on what we expect from the company in 2022.")
    weights = term_weights("revenue expect 2022 company", [text])
    a, b = best_quote(text, weights, cues("What revenue does the company expect for 2022?"))
    assert "$102 billion" in text[a:b]
    a, b = best_quote(text, weights, cues("Tell me about the company's revenue in 2022"))  # no figure asked
    assert "$102 billion" not in text[a:b]


def test_a_quote_cut_at_a_semicolon_reads_on_to_its_sentences_end():
    """LOCKHEEDMARTIN_2021_10K p45: "The increase was primarily attributable to higher net sales of approximately $290
    million on classified contracts due to higher volume; about $180 million for the F-16 program ...; and about $30
    million for the C-130 program ... retirements on sustainment activities." One sentence of reasons in clauses."""
    from conftest import corpus_page
    from router.quotes import cues, scored_quote, term_weights

    text = corpus_page("us", "LOCKHEEDMARTIN_2021_10K.pdf", 45)
    question = "What drove the increase in Aeronautics net sales on classified contracts?"
    a, b, _ = scored_quote(text, term_weights(question, [text]), cues(question))
    quote = text[a:b]
    assert "classified contracts due to higher volume;" in quote and "F-16 program" in quote
    assert quote.endswith("retirements on sustainment activities.")
    assert "These increases were partially offset" not in quote  # the next sentence is another one

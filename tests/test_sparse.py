"""BM25 sparse encoding: tokens (English, Chinese via jieba, mixed), stable term ids, BM25 values."""

from __future__ import annotations

import pytest

from vectorstore.sparse import B, K1, Bm25Encoder, encode_document, encode_query, stem, term_id, tokenize, word_pairs


def test_english_tokens_numbers_tickers_stopwords():
    toks = tokenize("Apple (AAPL) 10-K: the Risk Factors of companies; losses of 1,815,013.77 up 12.5% in Q2 2024, 3M")
    assert toks == ["apple", "aapl", "10", "risk", "factor", "company", "loss", "1815013.77", "up", "12.5", "q2", "2024", "3m"]
    assert "the" not in tokenize("The THE the")


def test_light_stemming():
    assert [stem(w) for w in ["risks", "companies", "losses", "taxes", "business", "status", "analysis", "tariffs", "gas"]] == [
        "risk", "company", "loss", "tax", "business", "status", "analysis", "tariff", "gas"]
    assert tokenize("tariffs", stemming=False) == ["tariffs"]


def test_chinese_sub_words_and_mixed_text():
    toks = tokenize("非经常性损益项目和金额")
    assert "损益" in toks and "经常性" in toks and "和" not in toks
    assert "风险" in tokenize("风险因素") and "因素" in tokenize("风险因素")
    mixed = tokenize("金花股份2024年第一季度营业收入AAPL revenues")
    assert {"金花", "股份", "2024", "第一季度", "营业", "收入", "aapl", "revenue"} <= set(mixed)
    assert tokenize("。，、；") == []


def test_term_ids_stable_and_32_bit():
    assert term_id("risk") == term_id("risk") == 2387026710
    assert all(0 <= term_id(t) < 2**32 for t in ["a", "风险", "1815013.77"])


def test_document_values_are_bm25_saturation():
    enc = Bm25Encoder(avglen={"en": 4.0, "zh": 4.0})
    idx, vals = enc.encode_document("tariff tariff risk margin")  # len 4 == avglen -> norm = k1
    got = dict(zip(idx, vals))
    assert got[term_id("tariff")] == pytest.approx(2 * (K1 + 1) / (2 + K1))
    assert got[term_id("risk")] == pytest.approx((K1 + 1) / (1 + K1))
    assert idx == sorted(idx)
    # a longer document than average saturates lower
    long_doc = enc.encode_document("tariff " + "word " * 12)
    assert dict(zip(*long_doc))[term_id("tariff")] < (K1 + 1) / (1 + K1)
    expected = (K1 + 1) / (1 + K1 * (1 - B + B * 13 / 4.0))
    assert dict(zip(*long_doc))[term_id("tariff")] == pytest.approx(expected)


def test_query_values_one_per_unique_term_and_empty_text():
    idx, vals = Bm25Encoder(pairs=False).encode_query("tariffs tariff risk the")
    assert len(idx) == 2 and vals == [1.0, 1.0]
    assert encode_query("the of and") == ([], [])
    assert encode_document("") == ([], [])
    # lang picks avglen only
    assert encode_document("风险 因素", "zh")[0] == encode_document("风险 因素", "en")[0]


def test_word_pairs_score_a_phrase_where_it_is_printed():
    assert word_pairs("Supply-chain disruptions in 2021 hit the quick ratio") == [
        "supply_chain", "chain_disruption", "hit_quick", "quick_ratio"]  # stopwords skipped, figures break a pair
    assert word_pairs("风险因素 and 资产总计") == []
    enc = Bm25Encoder(pairs=True)
    query = dict(zip(*enc.encode_query("supply chain disruptions")))
    phrase = dict(zip(*enc.encode_document("We saw supply chain disruptions across the industry this year")))
    scattered = dict(zip(*enc.encode_document("Chain stores saw disruptions in supply of goods this year")))
    score = lambda doc: sum(v for k, v in doc.items() if k in query)  # noqa: E731 (IDF aside)
    assert score(phrase) > score(scattered)
    assert term_id("supply_chain") in query and term_id("supply_chain") not in scattered

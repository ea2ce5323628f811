"""The question vocabulary is data (mappings/vocabulary.yaml) with a loader that rejects duplicates and bad
patterns; phrases match whole words, Traditional Chinese folds to Simplified."""

from __future__ import annotations

import pytest

from mappings.vocabulary import compile_phrases, fold, form_words, section_words, words
from schema.errors import ConfigError


def test_phrases_match_whole_words_and_stems():
    p = compile_phrases("t", ["describ*", "risk factors", "q&a", "风险"])
    assert p.search("How did they describe it") and p.search("described") and not p.search("indescribable")
    assert p.search("its risk-factors section") and p.search("the Q&A") and p.search(fold("主要風險"))
    assert not p.search("riskfactors")


def test_loader_rejects_duplicates_and_bad_patterns():
    with pytest.raises(ConfigError, match="twice"):
        compile_phrases("t", ["Risk", "risk"])
    with pytest.raises(ConfigError, match="bad pattern"):
        compile_phrases("t", ["re:(unclosed"])


def test_every_list_loads():
    assert {"narrative", "why", "quote_verbs", "trend", "compare", "growth", "broad", "quarterly"} <= set(
        k for k in ("narrative", "why", "quote_verbs", "trend", "compare", "growth", "broad", "quarterly") if words(k))
    assert "risk_factors" in section_words() and "transcript" in section_words()
    assert any("10-K" in forms for _, forms in form_words())

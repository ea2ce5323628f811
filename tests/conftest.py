"""Shared fixtures: where the corpus is, and a fresh warehouse home per test that needs one.

Exported model graphs go to one cache for the run (``FILINGS_MODEL_CACHE``, default ~/.cache/filings/models).
The corpus is read in place from ../shared/corpus (or $FILINGS_CORPUS). When it is absent, corpus tests
skip with a message, except in CI (CI=true), where its absence is a failure.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# Graphs exported from the bundled model weights (vectorstore.onnx_export, vectorstore.e5_onnx) are kept in one
# cache for the whole run, not under each test's fresh FILINGS_HOME: a test that needs a model exports it once.
os.environ.setdefault("FILINGS_MODEL_CACHE", str(Path.home() / ".cache" / "filings" / "models"))


def corpus_root() -> Path:
    return Path(os.environ.get("FILINGS_CORPUS") or REPO.parent / "shared" / "corpus").resolve()


def require_corpus(*parts: str) -> Path:
    path = corpus_root().joinpath(*parts)
    if not path.exists():
        message = f"corpus not found at {path} (set FILINGS_CORPUS)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@lru_cache(maxsize=None)
def corpus_page(market: str, name: str, number: int) -> str:
    """The text of a corpus PDF's page (1-based) as the parser reads it; ``market`` "us" reads the FinanceBench PDFs."""
    from parsers.pdf_pages import read_pages

    parts = ("us", "financebench", "pdfs", name) if market == "us" else (market, name)
    return read_pages(require_corpus(*parts))[number - 1].text


@pytest.fixture(scope="session")
def corpus() -> Path:
    return require_corpus()


@pytest.fixture()
def home(tmp_path, monkeypatch) -> Path:
    h = tmp_path / "home"
    monkeypatch.setenv("FILINGS_HOME", str(h))
    return h


def opened_home(tmp_path_factory, name: str, docs, **ingest):
    """The warehouse of :func:`ingested_home`, opened read-only (a context manager: ``with opened_home(...) as f``)."""
    from filings import Filings

    return Filings(ingested_home(tmp_path_factory, name, docs, **ingest), read_only=True)


def ingested_home(tmp_path_factory, name: str, docs, **ingest) -> Path:
    """A module's warehouse home with ``docs`` (corpus path parts) ingested, without a search index unless
    ``ingest`` says otherwise (``dense=False``: keywords only); the ingest must report no failure."""
    from filings import Filings

    home = tmp_path_factory.mktemp(name)
    with Filings(home) as f:
        report = f.ingest(*[require_corpus(*d) for d in docs], **(ingest or {"index": False}))
    assert not report.failed, [r.reason for r in report.failed]
    return home

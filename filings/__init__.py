"""The face users touch: the ``filings`` CLI and the ``Filings`` facade notebooks import."""

from filings.api import Filings

__all__ = ["Filings"]

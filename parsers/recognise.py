"""What is this PDF? Market, company, stock code, report kind, period, language, currency, standard.

Content first, file name second: every field is read from the page text; the file name is consulted
only when the content does not say (corpus names look like ``600080_jinhuagufen_2024_annual.pdf`` or
``0717_emperorcapital_2021_annual.pdf``; users' files will not) and only for the market and stock code.
When the market, the report kind or the period cannot be determined, :class:`UnrecognisedDocument`
is raised: recognition never guesses.

This module tells the market (an SEC form cover, then an A-share code and title, then Hong Kong listing
marks, then weaker US marks, then the file name) and hands the document to that market's recogniser,
whose module states its rules: ``parsers.recognise_a`` (A-shares), ``recognise_hk`` (Hong Kong),
``recognise_us`` (US filings, e.g. FinanceBench); ``recognise_text`` holds what they share.
``recognise_pdf`` then fills what the content leaves open from the caller's hints and lists the issuer's names.
"""

from __future__ import annotations

import re
from pathlib import Path

from parsers.issuer_names import issuer_names
from parsers.recognise_a import has_a_share_cover, recognise_a
from parsers.recognise_hk import has_hk_marks, recognise_hk
from parsers.recognise_us import has_sec_cover, has_us_marks, recognise_us
from schema.errors import UnrecognisedDocument
from schema.models import DocumentInfo, Page


def _market(path: Path, pages: list[Page]) -> str | None:
    if has_sec_cover(pages):
        return "US"
    if has_a_share_cover(pages):
        return "A"
    if has_hk_marks(pages):
        return "HK"
    if has_us_marks(pages):
        return "US"
    name = path.name
    if re.match(r"^\d{6}[_\-]", name):
        return "A"
    if re.match(r"^\d{4,5}[_\-.]", name):
        return "HK"
    return None


def recognise_pdf(path: str | Path, pages: list[Page], hints: DocumentInfo | None = None) -> DocumentInfo:
    """DocumentInfo for an A-share, HK or US PDF from its page text (see the module docstring).

    ``hints`` (e.g. from a manifest beside the files) fill what the content leaves open; the content wins
    wherever it says something. Without content recognition, hints that give market, kind and period stand in."""
    try:
        info = _recognise_content(path, pages)
    except UnrecognisedDocument:
        if hints is None or not (hints.market and hints.form and (hints.period_end or hints.fiscal_year)):
            raise
        info = DocumentInfo(file_name=Path(path).name, pages=len(pages))
    if hints is not None:
        for name, value in hints.model_dump(exclude={"document_id", "file_name", "pages", "names"}).items():
            if value not in (None, [], "") and getattr(info, name) in (None, [], ""):
                setattr(info, name, value)
    info.names = issuer_names(info, pages, extra=info.names)
    return info


def _recognise_content(path: str | Path, pages: list[Page]) -> DocumentInfo:
    path = Path(path)
    if not any(p.text.strip() for p in pages):
        raise UnrecognisedDocument(str(path), "no text on any page")
    info = DocumentInfo(file_name=path.name, pages=len(pages))
    market = _market(path, pages)
    if market is None:
        raise UnrecognisedDocument(str(path), "market not recognised (no A-share code/title, no Hong Kong "
                                              "listing marks, no SEC form cover)")
    info.market = market
    if market == "A":
        recognise_a(path, pages, info)
    elif market == "HK":
        recognise_hk(path, pages, info)
    else:
        recognise_us(path, pages, info)
    if info.stock_code is None:
        fm = re.match(r"^(\d{6}|\d{4,5})[_\-.]", path.name)
        if fm and market == "A" and len(fm.group(1)) == 6:
            info.stock_code = fm.group(1)
        elif fm and market == "HK" and len(fm.group(1)) in (4, 5):
            info.stock_code = fm.group(1).lstrip("0").zfill(4) + ".HK"
    if info.market is None or info.form is None or info.period_end is None:
        raise UnrecognisedDocument(str(path), "market, report kind or period could not be determined")
    return info

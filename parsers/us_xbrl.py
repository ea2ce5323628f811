"""US SEC XBRL: inline-XBRL 10-K/10-Q primary documents and classic XBRL instances -> ParsedDocument.

A pure function module: ``parse(path)`` reads one file (plus the company schema / label linkbase beside
it when present) and returns a :class:`schema.models.ParsedDocument`; it never touches a store.

How it reads a filing (strictly offline):

* arelle loads the entry document with ``internetConnectivity='offline'`` and ``skipDTS=True``: the
  standard taxonomies (us-gaap, dei, srt) are remote and never available here, so concept definitions
  are never used; values, units, contexts and decimals are read from the markup itself. Skipping DTS
  discovery also avoids loading the company pre/def/cal linkbases we do not need.
* iXBRL values: the displayed text is transformed with arelle's registry (``ixt:``) or our own SEC
  registry (``ixt-sec:``, see :mod:`parsers.xbrl_transforms`), then ``scale`` and ``sign`` applied.
* Periods come from the context XML as written (arelle's datetimes put end dates / instants at the
  next midnight).
* Labels: the company label linkbase (standard role, else terse), parsed with lxml; else the printed row
  label of the iXBRL table row that holds the fact.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from parsers.issuer_names import dei_names
from parsers.xbrl_document import document_info
from parsers.xbrl_facts import IX_NS, XBRLI, inline_facts, instance_facts
from parsers.xbrl_labels import label_files, read_labels
from schema.errors import ParseError
from schema.models import ParsedDocument

PARSER = "us_xbrl/1"
SNIFF_BYTES = 65536


# ============================================================================ sniffing


def _root_tag(head: bytes) -> str | None:
    """The first element's tag (with prefix) of an XML byte prefix, skipping declarations and comments."""
    text = head.decode("utf-8", "ignore")
    pos = 0
    while True:
        i = text.find("<", pos)
        if i < 0 or i + 1 >= len(text):
            return None
        nxt = text[i + 1]
        if nxt == "?":
            pos = text.find("?>", i) + 2
        elif text.startswith("<!--", i):
            end = text.find("-->", i)
            if end < 0:
                return None
            pos = end + 3
        elif nxt == "!":
            pos = text.find(">", i) + 1
        else:
            m = re.match(r"<([A-Za-z_][\w.\-]*(?::[\w.\-]+)?)", text[i:])
            return m.group(1) if m else None
        if pos <= 0:
            return None


def _sniff(path: Path) -> str | None:
    """'ixbrl', 'xbrl' or None, from the first 64 KB."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return None
    suffix = path.suffix.lower()
    if suffix in (".htm", ".html", ".xhtml"):
        if any(ns.encode() in head for ns in IX_NS) or b"<ix:header" in head or b"<ix:nonFraction" in head:
            return "ixbrl"
        return None
    if suffix == ".xml":
        tag = _root_tag(head)
        if tag is None or tag.rsplit(":", 1)[-1] != "xbrl":
            return None  # linkbases (link:linkbase), schemas, anything else
        if XBRLI.encode() in head:
            return "xbrl"
    return None


def is_xbrl(path: str | Path) -> bool:
    """Cheap check used by the ingest dispatcher: an inline XBRL document or a classic XBRL instance.

    The company schema (.xsd) and the _cal/_def/_lab/_pre.xml linkbases beside an instance are not
    documents and answer False."""
    return _sniff(Path(path)) is not None


# ============================================================================ arelle


_LOG_CODES = r"^(xmlSchema:syntax|IOerror|FileNotLoadable|arelleOpenFileError|exception|arelle:.*)$"


def _load(path: Path) -> tuple[Any, Any, list[dict]]:
    """Load with arelle, offline, no DTS discovery. Returns (session, modelXbrl, log records)."""
    from arelle.api.Session import Session
    from arelle.RuntimeOptions import RuntimeOptions

    session = Session()
    try:
        session.run(
            RuntimeOptions(
                entrypointFile=str(path),
                internetConnectivity="offline",
                keepOpen=True,
                disablePersistentConfig=True,
                skipDTS=True,
                validate=False,
                # keep only what decides success: syntax / file errors. The hundreds of
                # missingReferences / invalidTransformation records would cost more than our own
                # post-processing to serialise.
                logCodeFilter=_LOG_CODES,
            ),
            logFileName="logToBuffer",
        )
        models = session.get_models()
        try:
            logs = json.loads(session.get_logs("json")).get("log", [])
        except Exception:
            logs = []
    except BaseException:
        session.close()
        raise
    return session, (models[0] if models else None), logs


def _log_text(rec: dict) -> str:
    msg = rec.get("message", {})
    return (msg.get("text") if isinstance(msg, dict) else str(msg)) or rec.get("code", "")


# ============================================================================ entry point


def _precheck(path: Path) -> str:
    if not path.exists():
        raise ParseError(str(path), "file not found")
    if not path.is_file():
        raise ParseError(str(path), "not a file")
    try:
        with open(path, "rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError as err:
        raise ParseError(str(path), f"cannot read file: {err.strerror or err}") from None
    if not head.strip():
        raise ParseError(str(path), "empty file")
    if head.startswith(b"%PDF"):
        raise ParseError(str(path), "a PDF file, not XBRL")
    if head.startswith(b"PK\x03\x04"):
        raise ParseError(str(path), "a zip archive, not an XBRL document")
    kind = _sniff(path)
    if kind is None:
        if path.suffix.lower() in (".htm", ".html", ".xhtml"):
            raise ParseError(str(path), "HTML page with no inline XBRL (no ix: namespace or facts)")
        if path.suffix.lower() == ".xml":
            raise ParseError(str(path), "XML file is not an XBRL instance (root element is not xbrli:xbrl)")
        raise ParseError(str(path), "not an XBRL instance or inline XBRL document")
    return kind


def parse(path: str | Path) -> ParsedDocument:
    """Parse one iXBRL primary document (.htm) or classic XBRL instance (.xml) into a ParsedDocument.

    Raises ParseError (never an arelle traceback) for a missing, empty, truncated or malformed file, an
    HTML page without XBRL facts, a PDF or any other non-XBRL file."""
    path = Path(path)
    kind = _precheck(path)
    warnings: list[str] = []
    try:
        session, m, logs = _load(path.resolve())
    except ParseError:
        raise
    except Exception as err:
        raise ParseError(str(path), f"XBRL load failed: {type(err).__name__}: {err}") from None
    try:
        syntax = [r for r in logs if str(r.get("code", "")).startswith("xmlSchema:syntax")
                  or r.get("code") in ("arelleOpenFileError", "FileNotLoadable")]
        if syntax:
            raise ParseError(str(path), "malformed or truncated XML: " + _log_text(syntax[0])[:300])
        if m is None or m.modelDocument is None:
            errs = [r for r in logs if r.get("level") in ("error", "critical")]
            reason = _log_text(errs[0])[:300] if errs else "arelle could not load the document"
            raise ParseError(str(path), reason)
        root = m.modelDocument.xmlRootElement
        labels = read_labels(label_files(path.resolve(), root))
        if kind == "ixbrl":
            facts = inline_facts(m, path, warnings, labels)
        else:
            facts = instance_facts(m, path, warnings, labels)
        if not facts:
            raise ParseError(str(path), "no XBRL facts in the document")
        info = document_info(path, facts, warnings)
        info.names = dei_names(facts)  # the cover's registrant name, symbols, CIK: names of the issuer
        return ParsedDocument(info=info, facts=facts, parser=PARSER, warnings=warnings)
    except ParseError:
        raise
    except Exception as err:
        raise ParseError(str(path), f"XBRL processing failed: {type(err).__name__}: {err}") from None
    finally:
        try:
            session.close()
        except Exception:
            pass

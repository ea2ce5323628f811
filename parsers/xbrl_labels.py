"""The company label linkbase of an XBRL filing (standard role, else terse), read with lxml, and the label of a
concept; ``fold`` is the whitespace folding every XBRL text is compared in."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any


_LINK = "http://www.xbrl.org/2003/linkbase"
_XLINK = "http://www.w3.org/1999/xlink"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_ROLE_LABEL = "http://www.xbrl.org/2003/role/label"
_ROLE_TERSE = "http://www.xbrl.org/2003/role/terseLabel"
_WS = re.compile(r"\s+")


def fold(text: str) -> str:
    return _WS.sub(" ", text.replace("\xa0", " ")).strip()


def label_files(path: Path, root: Any) -> list[Path]:
    """Local label linkbases of the filing: via schemaRef -> the .xsd's linkbaseRefs, plus direct refs."""
    from lxml import etree

    found: list[Path] = []
    schema_refs = [e.get(f"{{{_XLINK}}}href") for e in root.iter(f"{{{_LINK}}}schemaRef")]
    direct = [e for e in root.iter(f"{{{_LINK}}}linkbaseRef")]
    for e in direct:
        href = e.get(f"{{{_XLINK}}}href") or ""
        if "://" not in href and (path.parent / href).is_file():
            found.append(path.parent / href)
    for href in schema_refs:
        if not href or "://" in href:
            continue
        xsd = path.parent / href
        if not xsd.is_file():
            continue
        try:
            tree = etree.parse(str(xsd), etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
        except Exception:
            continue
        for e in tree.iter(f"{{{_LINK}}}linkbaseRef"):
            lhref = e.get(f"{{{_XLINK}}}href") or ""
            role = e.get(f"{{{_XLINK}}}role") or ""
            if "://" in lhref:
                continue
            if role.endswith("labelLinkbaseRef") or re.search(r"_lab\.xml$", lhref, re.I):
                p = xsd.parent / lhref
                if p.is_file():
                    found.append(p)
        guess = xsd.with_name(xsd.stem + "_lab.xml")
        if guess.is_file():
            found.append(guess)
    out: list[Path] = []
    for p in found:
        if p.resolve() not in [q.resolve() for q in out]:
            out.append(p)
    return out


def read_labels(files: list[Path]) -> dict[str, str]:
    """concept fragment id ("us-gaap_Revenues") -> label (standard role, else terse; en preferred)."""
    from lxml import etree

    best: dict[str, tuple[int, str]] = {}
    for f in files:
        try:
            tree = etree.parse(str(f), etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
        except Exception:
            continue
        for link in tree.iter(f"{{{_LINK}}}labelLink"):
            locs: dict[str, list[str]] = {}
            labels: dict[str, list[tuple[int, str]]] = {}
            arcs: list[tuple[str, str]] = []
            for el in link:
                tag = el.tag
                if tag == f"{{{_LINK}}}loc":
                    href = el.get(f"{{{_XLINK}}}href") or ""
                    frag = href.rsplit("#", 1)[-1]
                    locs.setdefault(el.get(f"{{{_XLINK}}}label"), []).append(frag)
                elif tag == f"{{{_LINK}}}label":
                    role = el.get(f"{{{_XLINK}}}role") or _ROLE_LABEL
                    if role == _ROLE_LABEL:
                        rank = 0
                    elif role == _ROLE_TERSE:
                        rank = 2
                    else:
                        continue
                    lang = (el.get(_XML_LANG) or "").lower()
                    if not lang.startswith("en"):
                        rank += 1 if not lang else 5
                    text = fold("".join(el.itertext()))
                    if text:
                        labels.setdefault(el.get(f"{{{_XLINK}}}label"), []).append((rank, text))
                elif tag == f"{{{_LINK}}}labelArc":
                    arcs.append((el.get(f"{{{_XLINK}}}from"), el.get(f"{{{_XLINK}}}to")))
            for frm, to in arcs:
                for frag in locs.get(frm, ()):
                    for rank, text in labels.get(to, ()):
                        cur = best.get(frag)
                        if cur is None or rank < cur[0]:
                            best[frag] = (rank, text)
    return {k: v[1] for k, v in best.items()}


def label_for(concept: str, labels: dict[str, str], by_local: dict[str, str | None]) -> str | None:
    if not labels:
        return None
    prefix, _, local = concept.rpartition(":")
    hit = labels.get(f"{prefix}_{local}")
    if hit is None:
        hit = by_local.get(local)
    return hit

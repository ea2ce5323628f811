"""How often a part's name asked in one language finds its label printed in the other (router.other_language_names),
measured on the names the corpus's own reports print in both languages: an A-share row "化学业务（WuXi Chemistry）", an
HK row "Corporate Finance 企業融資 12,735 9,145". On each page that prints three or more such pairs, each English name
is looked for among every Chinese label the page prints and each Chinese name among its English ones: right (its partner),
wrong (another label: the figure a question would get is another part's) or none.

Pages are split in two halves by a hash of their document's name and number: thresholds are chosen on the first half (--half 0) and
checked on the second (--half 1); both are printed by default.

    python bench/other_language_names.py --home DIR [--prose]
"""

from __future__ import annotations

import argparse
import hashlib
import re
from pathlib import Path

import duckdb

from mappings.metrics import CJK
from router.other_language_names import printed_name, prose_names, row_labels

_BRACKETED = re.compile(r"([\u4e00-\u9fff]{2,14})[^\S\n]*[（(]([A-Za-z][A-Za-z0-9 &'’/.,-]{2,50})[)）]")
_SIDE_BY_SIDE = re.compile(r"(?m)^[^\S\n]*([A-Z][A-Za-z &'’/,.-]{2,50}?)[^\S\n]+([\u4e00-\u9fff][\u4e00-\u9fff、]{1,13})[^\S\n]+[\d(（-]")


def pairs_of(text: str) -> list[tuple[str, str]]:
    """The (English, Chinese) names a page prints side by side or one in brackets after the other."""
    found = [(e.strip(), c) for c, e in _BRACKETED.findall(text)] + [(e.strip(), c) for e, c in _SIDE_BY_SIDE.findall(text)]
    return list(dict.fromkeys(p for p in found if len(p[0]) >= 3))


def half_of(name: str) -> int:
    return hashlib.sha256(name.encode()).digest()[0] % 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True, help="a warehouse home (its warehouse.duckdb pages are read)")
    ap.add_argument("--half", type=int, choices=[0, 1], default=None)
    ap.add_argument("--show-wrong", action="store_true")
    ap.add_argument("--prose", action="store_true", help="the parts a page names in running text are candidates too "
                    "(router.other_language_names.prose_names, as a part's question reads them)")
    args = ap.parse_args()
    con = duckdb.connect(str(args.home / "warehouse.duckdb"), read_only=True)
    rows = con.execute("SELECT d.doc_name, p.page, p.text FROM pages p JOIN documents d USING (document_id) "
                       "WHERE d.market IN ('A', 'HK') ORDER BY d.doc_name, p.page").fetchall()
    tally = {h: {"right": 0, "wrong": 0, "none": 0, "pages": 0} for h in (0, 1)}
    for doc, page, text in rows:
        pairs = pairs_of(text or "")
        if len({e for e, _ in pairs}) < 3 or len({c for _, c in pairs}) < 3:
            continue
        half = half_of(f"{doc}#{page}")
        if args.half is not None and half != args.half:
            continue
        tally[half]["pages"] += 1
        printed = row_labels(text)  # every label the page prints is a candidate, as for a question
        printed += prose_names(text) if args.prose else []
        english = list(dict.fromkeys([e for e, _ in pairs] + [x for x in printed if not CJK.search(x)]))
        chinese = list(dict.fromkeys([c for _, c in pairs] + [x for x in printed if CJK.search(x)]))
        for e, c in pairs:
            for asked, labels, partner in ((e, chinese, c), (c, english, e)):
                got = printed_name(asked, labels)
                verdict = "none" if got is None else "right" if got == partner or (
                    (got, asked) in pairs or (asked, got) in pairs) else "wrong"
                tally[half][verdict] += 1
                if verdict == "wrong" and args.show_wrong:
                    print(f"  wrong  {doc} p{page}: {asked!r} -> {got!r} (printed beside it: {partner!r})")
    for half, t in tally.items():
        if args.half is not None and half != args.half:
            continue
        asked = t["right"] + t["wrong"] + t["none"]
        answered = t["right"] + t["wrong"]
        print(f"half {half} ({'tuning' if half == 0 else 'checking'}): {t['pages']} pages, {asked} names asked: "
              f"right {t['right']} ({t['right'] / max(asked, 1):.1%}), wrong {t['wrong']}, none {t['none']}; "
              f"precision {t['right'] / max(answered, 1):.3f}")


if __name__ == "__main__":
    main()

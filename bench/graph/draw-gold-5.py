#!/usr/bin/env python3
"""Draws the pages of the fifth held-out gold set (bench/graph/README.md, "Fifth held-out set").

  python3 bench/graph/draw-gold-5.py [--all]

Continues the fourth set's protocol (draw-gold-4.py, whose candidate logic is reused here): the candidate pages are
draw-gold-4.py's candidates (pages 1..min(12, page count) of every paper of the library, minus every page that carries
an edge in gold-dev.json, gold-heldout.json, gold-heldout-2.json or gold-heldout-3-candidates.json), minus every page
of gold-heldout-4.json and every page draw-gold-4.py drew: its draws 1..21 (the 14 kept, the 3 skipped, and draws
18-21, which its writer read ahead but did not use). The remaining candidates are sorted by (paper_id, page) and
shuffled with random.Random(20261204); pages are taken in that order. Each drawn page was read by hand (its stored
`pages.text`): a page that is a reference list, mostly a table or figure, or states no claim is skipped (REJECTED
below, with its reason); on every other page every explicit claim that fits the conventions was written down.
Writing stopped at the first page that brought the set to >= 60 edges (STOP_AFTER below). The draw was taken once
and not redrawn.

Prints the drawn order: position, paper, page, and what became of the page (edges kept in gold-heldout-5.json, or
the reason it was skipped). Without --all the list ends at STOP_AFTER; with --all every candidate is printed.
"""

import importlib.util
import json
import os
import random
import sys

SEED = 20261204
OUT = "gold-heldout-5.json"
FOURTH = "gold-heldout-4.json"
# draw-gold-4.py's seed and how far its writer read in its order (draws 1..21; 18-21 read ahead, not used).
FOURTH_SEED = 20261203
FOURTH_DRAWN = 21

# Drawn pages skipped, with the reason: (paper_id, page) -> reason.
REJECTED = {
    ("2501.12948", 2): "table of contents",
    ("s2orc-the-semantic-scholar-open-research-corpus", 12): "reference list",
    ("2012.13255v1", 10): "reference list, then a definition quoted from Arora et al. and a remark (proof appendix): no claim",
    ("1802.05365v2", 10): "reference list",
    ("2203.14465v1", 12): "reference list",
    ("2310.07609v1", 9): "reference list",
}

# Drawn pages read and kept that gave no edge of their own, with the reason.
NO_EDGE = {
    ("1804.08838v1", 6): "its claims (intrinsic dimension measured on MNIST with FC networks) repeat edges already taken on draw 14",
}

# The last drawn page written down (the one that brought the set to >= 60 edges).
STOP_AFTER = ("2310.06117v1", 4)


def load_fourth(here):
    spec = importlib.util.spec_from_file_location("draw_gold_4", os.path.join(here, "draw-gold-4.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def candidates(here):
    d4 = load_fourth(here)
    assert d4.SEED == FOURTH_SEED
    cands4, n_papers, n_used = d4.candidates(here)
    order4 = list(cands4)
    random.Random(FOURTH_SEED).shuffle(order4)
    excluded = set(order4[:FOURTH_DRAWN])
    for e in json.load(open(os.path.join(here, FOURTH), encoding="utf-8"))["edges"]:
        excluded.add((e["paper_id"], int(e["page"])))
    cands = sorted(c for c in cands4 if c not in excluded)
    return cands, n_papers, n_used, len(cands4), len(excluded)


def report(here, cands, header, seed, out, rejected, no_edge, stop_after):
    """Prints the drawn order of `cands` shuffled with `seed`, and what became of each page (the edges `out` keeps, or
    why it was skipped); stops at `stop_after` unless --all. draw-gold-6.py prints its draw with this too."""
    order = list(cands)
    random.Random(seed).shuffle(order)

    kept = {}
    out_path = os.path.join(here, out)
    if os.path.exists(out_path):
        for e in json.load(open(out_path, encoding="utf-8"))["edges"]:
            key = (e["paper_id"], int(e["page"]))
            kept[key] = kept.get(key, 0) + 1

    print(header)
    print(f"seed {seed}; drawn order:")
    total = 0
    stop = order.index(stop_after) if stop_after in order else None
    for i, key in enumerate(order, 1):
        if key in rejected:
            status = f"skipped: {rejected[key]}"
        elif key in kept:
            total += kept[key]
            status = f"{kept[key]} edges (running total {total})"
        elif stop is None or i - 1 > stop:
            status = "not reached"
        else:
            status = "read, no edge" + (f": {no_edge[key]}" if key in no_edge else "")
        print(f"{i:4d}  {key[0]:<62} p.{key[1]:<3d} {status}")
        if key == stop_after and "--all" not in sys.argv:
            break


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cands, n_papers, n_used, n_cands4, n_excl = candidates(here)
    header = (
        f"papers: {n_papers}; pages used by earlier gold files: {n_used}; fourth set's candidates: {n_cands4}; "
        f"drawn or used by the fourth set: {n_excl}; candidate pages: {len(cands)}"
    )
    report(here, cands, header, SEED, OUT, REJECTED, NO_EDGE, STOP_AFTER)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draws the pages of the seventh held-out gold set (bench/graph/README.md, "Seventh held-out set").

  python3 bench/graph/draw-gold-7.py [--all]

Continues the fourth, fifth and sixth sets' protocol (draw-gold-6.py, whose candidate logic is reused here, and
through it draw-gold-5.py's and draw-gold-4.py's): the candidate pages are draw-gold-6.py's candidates (pages
1..min(12, page count) of every paper of the library, minus every page that carries an edge in gold-dev.json,
gold-heldout.json, gold-heldout-2.json or gold-heldout-3-candidates.json, minus every page the fourth and fifth sets
drew or used), minus every page of gold-heldout-6.json and every page draw-gold-6.py drew: its draws 1..17 (its
STOP_AFTER; its writer read no page after it). The remaining candidates are sorted by (paper_id, page) and shuffled
with random.Random(20261206); pages are taken in that order. Each drawn page was read by hand (its stored
`pages.text`): a page that is a reference list, a table of contents, or states no claim is skipped (REJECTED below,
with its reason); on every other page every explicit claim that fits the conventions was written down. Writing
stopped at the first page that brought the set to >= 60 edges (STOP_AFTER below). The draw was taken once and not
redrawn.

Prints the drawn order: position, paper, page, and what became of the page (edges kept in gold-heldout-7.json, or
the reason it was skipped). Without --all the list ends at STOP_AFTER; with --all every candidate is printed.
"""

import importlib.util
import json
import os
import random

SEED = 20261206
OUT = "gold-heldout-7.json"
SIXTH = "gold-heldout-6.json"
# draw-gold-6.py's seed and how far its writer read in its order (draws 1..17, its STOP_AFTER; no read-ahead).
SIXTH_SEED = 20261205
SIXTH_DRAWN = 17

# Drawn pages skipped, with the reason: (paper_id, page) -> reason.
REJECTED = {
    ("2302.00083v3", 12): "reference list",
    ("2204.10628v1", 10): "reference list",
    ("2310.06117v1", 10): "reference list",
    ("2203.14465v1", 10): "end of the discussion (future work, no relation claim), acknowledgements, then a reference list",
    ("2310.07609v1", 8): "reference list",
}

# Drawn pages read and kept that gave no edge of their own, with the reason.
NO_EDGE = {}  # every kept page gave at least one edge

# The last drawn page written down (the one that brought the set to >= 60 edges).
STOP_AFTER = ("1512.03385v1", 10)


def load_module(here, name, filename):
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, filename))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def load_sixth(here):
    return load_module(here, "draw_gold_6", "draw-gold-6.py")


def candidates(here):
    d6 = load_sixth(here)
    assert d6.SEED == SIXTH_SEED
    cands6, n_papers, n_used, _n_cands5, _n_excl5 = d6.candidates(here)
    order6 = list(cands6)
    random.Random(SIXTH_SEED).shuffle(order6)
    assert order6[SIXTH_DRAWN - 1] == d6.STOP_AFTER
    excluded = set(order6[:SIXTH_DRAWN])
    for e in json.load(open(os.path.join(here, SIXTH), encoding="utf-8"))["edges"]:
        excluded.add((e["paper_id"], int(e["page"])))
    cands = sorted(c for c in cands6 if c not in excluded)
    return cands, n_papers, n_used, len(cands6), len(excluded)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cands, n_papers, n_used, n_cands6, n_excl = candidates(here)
    header = (
        f"papers: {n_papers}; pages used by earlier gold files: {n_used}; sixth set's candidates: {n_cands6}; "
        f"drawn or used by the sixth set: {n_excl}; candidate pages: {len(cands)}"
    )
    # the fifth set's script prints the draw; draw-gold-6.py does the same
    load_module(here, "draw_gold_5", "draw-gold-5.py").report(
        here, cands, header, SEED, OUT, REJECTED, NO_EDGE, STOP_AFTER
    )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draws the pages of the sixth held-out gold set (bench/graph/README.md, "Sixth held-out set").

  python3 bench/graph/draw-gold-6.py [--all]

Continues the fourth and fifth sets' protocol (draw-gold-5.py, whose candidate logic is reused here, and through it
draw-gold-4.py's): the candidate pages are draw-gold-5.py's candidates (pages 1..min(12, page count) of every paper
of the library, minus every page that carries an edge in gold-dev.json, gold-heldout.json, gold-heldout-2.json or
gold-heldout-3-candidates.json, minus every page the fourth set drew or used), minus every page of
gold-heldout-5.json and every page draw-gold-5.py drew: its draws 1..24 (its STOP_AFTER; its writer read no page
after it). The remaining candidates are sorted by (paper_id, page) and shuffled with random.Random(20261205); pages
are taken in that order. Each drawn page was read by hand (its stored `pages.text`): a page that is a reference list,
a table of contents, or states no claim is skipped (REJECTED below, with its reason); on every other page every
explicit claim that fits the conventions was written down. Writing stopped at the first page that brought the set to
>= 60 edges (STOP_AFTER below). The draw was taken once and not redrawn.

Prints the drawn order: position, paper, page, and what became of the page (edges kept in gold-heldout-6.json, or
the reason it was skipped). Without --all the list ends at STOP_AFTER; with --all every candidate is printed.
"""

import importlib.util
import json
import os
import random

SEED = 20261205
OUT = "gold-heldout-6.json"
FIFTH = "gold-heldout-5.json"
# draw-gold-5.py's seed and how far its writer read in its order (draws 1..24, its STOP_AFTER; no read-ahead).
FIFTH_SEED = 20261204
FIFTH_DRAWN = 24

# Drawn pages skipped, with the reason: (paper_id, page) -> reason.
REJECTED = {
    ("1804.08838v1", 11): "reference list",
    ("2005.11401v4", 11): "reference list",
}

# Drawn pages read and kept that gave no edge of their own, with the reason.
NO_EDGE = {
    ("2302.07302v1", 10): "user-study results: its one comparison (the Reencountered strategy outperformed the baselines) names "
    "them only as 'three baselines'; the rest is the study's statistics",
    ("automatically-correcting-large-language-models-surveying-the", 6): "mostly Table 2 (a table, not claims); the text "
    "below it names Chain-of-Hindsight without a named second side, and a method only by its citation (Gao et al. 2023a)",
}

# The last drawn page written down (the one that brought the set to >= 60 edges).
STOP_AFTER = ("1802.05365v2", 12)


def load_fifth(here):
    spec = importlib.util.spec_from_file_location("draw_gold_5", os.path.join(here, "draw-gold-5.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def candidates(here):
    d5 = load_fifth(here)
    assert d5.SEED == FIFTH_SEED
    cands5, n_papers, n_used, n_cands4, n_excl4 = d5.candidates(here)
    order5 = list(cands5)
    random.Random(FIFTH_SEED).shuffle(order5)
    assert order5[FIFTH_DRAWN - 1] == d5.STOP_AFTER
    excluded = set(order5[:FIFTH_DRAWN])
    for e in json.load(open(os.path.join(here, FIFTH), encoding="utf-8"))["edges"]:
        excluded.add((e["paper_id"], int(e["page"])))
    cands = sorted(c for c in cands5 if c not in excluded)
    return cands, n_papers, n_used, len(cands5), len(excluded)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cands, n_papers, n_used, n_cands5, n_excl = candidates(here)
    header = (
        f"papers: {n_papers}; pages used by earlier gold files: {n_used}; fifth set's candidates: {n_cands5}; "
        f"drawn or used by the fifth set: {n_excl}; candidate pages: {len(cands)}"
    )
    # the fifth set's script prints the draw the same way
    load_fifth(here).report(here, cands, header, SEED, OUT, REJECTED, NO_EDGE, STOP_AFTER)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draws the pages of the eighth held-out gold set (bench/graph/README.md, "Eighth held-out set").

  python3 bench/graph/draw-gold-8.py [--all]

Continues the fourth to seventh sets' protocol (draw-gold-7.py, whose candidate logic is reused here, and through it
draw-gold-6.py's, draw-gold-5.py's and draw-gold-4.py's): the candidate pages are draw-gold-7.py's candidates (pages
1..min(12, page count) of every paper of the library, minus every page that carries an edge in gold-dev.json,
gold-heldout.json, gold-heldout-2.json or gold-heldout-3-candidates.json, minus every page the fourth, fifth and
sixth sets drew or used), minus every page of gold-heldout-7.json and every page draw-gold-7.py drew: its draws
1..16 (its STOP_AFTER; its writer read no page after it). The remaining candidates are sorted by (paper_id, page)
and shuffled with random.Random(20261207); pages are taken in that order. Each drawn page was read by hand (its
stored `pages.text`): a page that is a reference list, a table of contents, or states no claim is skipped (REJECTED
below, with its reason); on every other page every explicit claim that fits the conventions was written down.
Writing stopped at the first page that brought the set to >= 60 edges (STOP_AFTER below). The draw was taken once
and not redrawn.

Prints the drawn order: position, paper, page, and what became of the page (edges kept in gold-heldout-8.json, or
the reason it was skipped). Without --all the list ends at STOP_AFTER; with --all every candidate is printed.
"""

import importlib.util
import json
import os
import random

SEED = 20261207
OUT = "gold-heldout-8.json"
SEVENTH = "gold-heldout-7.json"
# draw-gold-7.py's seed and how far its writer read in its order (draws 1..16, its STOP_AFTER; no read-ahead).
SEVENTH_SEED = 20261206
SEVENTH_DRAWN = 16

# Drawn pages skipped, with the reason: (paper_id, page) -> reason.
REJECTED = {
    ("2010.11929v2", 10): "reference list",
    ("2104.08663v4", 10): "reference list",
    ("1804.08838v1", 10): "reference list",
}

# Drawn pages read and kept that gave no edge of their own, with the reason.
NO_EDGE = {
    ("1910.02054v3", 1): "abstract and start of the introduction: ZeRO's gains are stated over 'state-of-the-art' and "
    "'existing solutions' (a contrast), and 'larger than Megatron GPT 8.3B and T5 11B' compares model sizes, not "
    "ZeRO; no claim names both sides",
}

# The last drawn page written down (the one that brought the set to >= 60 edges).
STOP_AFTER = ("2104.08663v4", 8)


def load_module(here, name, filename):
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, filename))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def load_seventh(here):
    return load_module(here, "draw_gold_7", "draw-gold-7.py")


def candidates(here):
    d7 = load_seventh(here)
    assert d7.SEED == SEVENTH_SEED
    cands7, n_papers, n_used, _n_cands6, _n_excl6 = d7.candidates(here)
    order7 = list(cands7)
    random.Random(SEVENTH_SEED).shuffle(order7)
    assert order7[SEVENTH_DRAWN - 1] == d7.STOP_AFTER
    excluded = set(order7[:SEVENTH_DRAWN])
    for e in json.load(open(os.path.join(here, SEVENTH), encoding="utf-8"))["edges"]:
        excluded.add((e["paper_id"], int(e["page"])))
    cands = sorted(c for c in cands7 if c not in excluded)
    return cands, n_papers, n_used, len(cands7), len(excluded)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cands, n_papers, n_used, n_cands7, n_excl = candidates(here)
    header = (
        f"papers: {n_papers}; pages used by earlier gold files: {n_used}; seventh set's candidates: {n_cands7}; "
        f"drawn or used by the seventh set: {n_excl}; candidate pages: {len(cands)}"
    )
    # the fifth set's script prints the draw; draw-gold-6.py and draw-gold-7.py do the same
    load_module(here, "draw_gold_5", "draw-gold-5.py").report(
        here, cands, header, SEED, OUT, REJECTED, NO_EDGE, STOP_AFTER
    )


if __name__ == "__main__":
    main()

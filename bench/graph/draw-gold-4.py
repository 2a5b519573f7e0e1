#!/usr/bin/env python3
"""Draws the pages of the fourth held-out gold set (bench/graph/README.md, "Fourth held-out set").

  python3 bench/graph/draw-gold-4.py [--all]

Pages, not papers: every paper of the corpus is already in an earlier gold file, so this set takes pages that no
earlier gold file uses. For every paper of the library (PostgreSQL `lc_ans`, tables `papers` and `pages`, read with
psql; PGHOST/PGUSER/PGDATABASE override the defaults below), the candidate pages are 1..min(12, page count) minus
every page that carries an edge in gold-dev.json, gold-heldout.json, gold-heldout-2.json or
gold-heldout-3-candidates.json (the last holds every edge of gold-heldout-3.json and gold-heldout-3-rest.json). The
candidates are sorted by (paper_id, page) and shuffled with random.Random(20261203); pages are taken in that order.
Each drawn page was read by hand (its stored `pages.text`): a page that is a reference list, mostly a table or
figure, or states no claim is skipped (REJECTED below, with its reason); on every other page every explicit claim
that fits the conventions was written down. Writing stopped at the first page that brought the set to >= 60 edges
(STOP_AFTER below). The draw was taken once and not redrawn.

Prints the drawn order: position, paper, page, and what became of the page (edges kept in gold-heldout-4.json, or
the reason it was skipped). Without --all the list ends at STOP_AFTER; with --all every candidate is printed.
"""

import json
import os
import random
import subprocess
import sys

SEED = 20261203
MAX_PAGE = 12
EARLIER = ["gold-dev.json", "gold-heldout.json", "gold-heldout-2.json", "gold-heldout-3-candidates.json"]
OUT = "gold-heldout-4.json"

# Drawn pages skipped, with the reason: (paper_id, page) -> reason.
REJECTED = {
    ("2203.14465v1", 11): "reference list",
    ("2104.08663v4", 12): "reference list",
    ("1706.03762v5", 12): "reference list",
}

# The last drawn page written down (the one that brought the set to >= 60 edges).
STOP_AFTER = ("2210.11610v2", 7)


def psql(sql):
    env = dict(os.environ)
    cmd = [
        "psql",
        "-h", env.get("PGHOST", "127.0.0.1"),
        "-U", env.get("PGUSER", "postgres"),
        "-d", env.get("PGDATABASE", "lc_ans"),
        "-At", "-F", "\t", "-c", sql,
    ]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def candidates(here):
    used = set()
    for name in EARLIER:
        gold = json.load(open(os.path.join(here, name), encoding="utf-8"))
        for e in gold["edges"]:
            used.add((e["paper_id"], int(e["page"])))
    rows = psql(
        "select p.id, count(g.page_number) from papers p left join pages g on g.paper_id = p.id "
        "group by p.id order by p.id"
    )
    cands = []
    for paper_id, n in rows:
        for page in range(1, min(MAX_PAGE, int(n)) + 1):
            if (paper_id, page) not in used:
                cands.append((paper_id, page))
    return sorted(cands), len(rows), len(used)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cands, n_papers, n_used = candidates(here)
    order = list(cands)
    random.Random(SEED).shuffle(order)

    kept = {}
    out_path = os.path.join(here, OUT)
    if os.path.exists(out_path):
        for e in json.load(open(out_path, encoding="utf-8"))["edges"]:
            key = (e["paper_id"], int(e["page"]))
            kept[key] = kept.get(key, 0) + 1

    print(f"papers: {n_papers}; pages used by earlier gold files: {n_used}; candidate pages: {len(cands)}")
    print(f"seed {SEED}; drawn order:")
    total = 0
    stop = order.index(STOP_AFTER) if STOP_AFTER in order else None
    for i, key in enumerate(order, 1):
        if key in REJECTED:
            status = f"skipped: {REJECTED[key]}"
        elif key in kept:
            total += kept[key]
            status = f"{kept[key]} edges (running total {total})"
        elif stop is not None and i - 1 > stop:
            status = "not reached"
        else:
            status = "read, no edge"
        print(f"{i:4d}  {key[0]:<62} p.{key[1]:<3d} {status}")
        if key == STOP_AFTER and "--all" not in sys.argv:
            break


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Samples the third held-out gold set from its candidate edges (bench/graph/README.md, "Third held-out set").

  python3 bench/graph/sample-heldout-3.py   (reads gold-heldout-3-candidates.json, writes gold-heldout-3.json)

The candidates are every explicit claim written down from the 12 papers of `draw-gold.py --heldout-3`. About 75
are kept: each paper gets round(75 * its candidates / all candidates) by largest remainder, and its edges are drawn
with one random.Random(20261128), paper by paper in draw order (the order of the candidates file's "papers"). The
sample was taken once and not redrawn. Kept edges keep their order and are renumbered heldout3-<id>-NN.
"""

import json
import os
import random

SEED = 20261128
TARGET = 75


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    cands = json.load(open(os.path.join(here, "gold-heldout-3-candidates.json"), encoding="utf-8"))
    papers = cands["papers"]
    by_paper = {p["paper_id"]: [e for e in cands["edges"] if e["paper_id"] == p["paper_id"]] for p in papers}
    total = sum(len(v) for v in by_paper.values())
    quota = {pid: TARGET * len(v) / total for pid, v in by_paper.items()}
    alloc = {pid: int(q) for pid, q in quota.items()}
    rest = sorted(quota, key=lambda pid: (-(quota[pid] - alloc[pid]), list(by_paper).index(pid)))
    for pid in rest[: TARGET - sum(alloc.values())]:
        alloc[pid] += 1
    rng = random.Random(SEED)
    kept = []
    for p in papers:
        edges = by_paper[p["paper_id"]]
        idx = sorted(rng.sample(range(len(edges)), alloc[p["paper_id"]]))
        short = p["file"][:-4] if p["file"].endswith(".pdf") else p["file"]
        for n, i in enumerate(idx, 1):
            e = dict(edges[i])
            e["id"] = f"heldout3-{short}-{n:02d}"
            kept.append(e)
    out = {
        "split": "heldout-3",
        "seed": 20261126,
        "sample_seed": SEED,
        "script": "bench/graph/draw-gold.py --heldout-3; bench/graph/sample-heldout-3.py",
        "conventions": "bench/graph/README.md",
        "papers": papers,
        "edges": kept,
    }
    with open(os.path.join(here, "gold-heldout-3.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=2)
        f.write("\n")
    print(json.dumps({"candidates": total, "kept": len(kept), "per_paper": alloc}))


if __name__ == "__main__":
    main()

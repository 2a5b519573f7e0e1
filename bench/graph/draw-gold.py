#!/usr/bin/env python3
"""Draws the papers of the knowledge-graph gold set (bench/graph/README.md), reproducibly.

  python3 bench/graph/draw-gold.py [corpus_dir]   (default ../shared/corpus/papers, relative to the repo)
  python3 bench/graph/draw-gold.py --heldout-2 [corpus_dir]
  python3 bench/graph/draw-gold.py --heldout-3 [corpus_dir]

Lists the corpus PDFs (file names = arXiv ids), sorts them, shuffles them with a seeded PRNG written out here
(splitmix64 + Fisher-Yates, so the order does not depend on Python's `random` implementation), and takes the first
20. The first 12 drawn papers are the dev split, the next 8 the held-out split (all edges of a paper in one split).
With --heldout-2 it prints instead the next 8 papers of the same shuffled order (positions 21-28), the papers of
gold-heldout-2.json (written 2026-11-27). With --heldout-3 it prints the 12 papers after those (positions 29-40),
the papers of gold-heldout-3.json (written 2026-11-27).
"""

import json
import os
import sys

SEED = 20261126
N_PAPERS = 20
N_DEV = 12
N_HELDOUT_2 = 8
N_HELDOUT_3 = 12
MASK = (1 << 64) - 1


def splitmix64(state):
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def shuffled(items, seed):
    out = list(items)
    rng = splitmix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = next(rng) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    args = sys.argv[1:]
    heldout_2 = "--heldout-2" in args
    heldout_3 = "--heldout-3" in args
    args = [a for a in args if a not in ("--heldout-2", "--heldout-3")]
    corpus = args[0] if args else os.path.join(here, "..", "..", "..", "shared", "corpus", "papers")
    ids = sorted(f[:-4] for f in os.listdir(corpus) if f.endswith(".pdf"))
    order = shuffled(ids, SEED)
    if heldout_3:
        start = N_PAPERS + N_HELDOUT_2
        drawn = order[start : start + N_HELDOUT_3]
        print(json.dumps({"seed": SEED, "corpus_size": len(ids), "positions": [start + 1, start + len(drawn)],
                          "heldout_3": drawn}, indent=2))
        return
    if heldout_2:
        drawn = order[N_PAPERS : N_PAPERS + N_HELDOUT_2]
        print(json.dumps({"seed": SEED, "corpus_size": len(ids), "positions": [N_PAPERS + 1, N_PAPERS + len(drawn)],
                          "heldout_2": drawn}, indent=2))
        return
    drawn = order[:N_PAPERS]
    print(json.dumps({"seed": SEED, "corpus_size": len(ids), "dev": drawn[:N_DEV], "heldout": drawn[N_DEV:]}, indent=2))


if __name__ == "__main__":
    main()

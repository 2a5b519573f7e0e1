#!/usr/bin/env python3
"""Draw 12 paper pairs for the second two-part outline benchmark (seed 20261130).

Procedure (same as draw-outline-two-part.py, new seed):
  * PDF file names in /work/shared/corpus/papers, sorted (40 files);
  * random.seed(20261130); random.sample(range(len(files)), 24) -> 24 papers in
    draw order, paired consecutively (1+2, 3+4, ...) into 12 pairs U01..U12.
Repeat rule: if a pair equals (as an unordered pair) a pair of
outline-two-part.json, it is skipped and the next pair is taken from the
continuation of the same draw: with the RNG state left after the first draw,
random.sample() over the papers not yet drawn, taken two at a time, until 12
non-repeating pairs exist. With seed 20261130 no pair repeats, so the rule
was not triggered and the 12 pairs are exactly the first 24 draws.
"""
import json
import os
import random

CORPUS = "/work/shared/corpus/papers"
HERE = os.path.dirname(os.path.abspath(__file__))

files = sorted(f for f in os.listdir(CORPUS) if f.endswith(".pdf"))
old = {
    frozenset(p["paper"] for p in q["parts"])
    for q in json.load(open(os.path.join(HERE, "outline-two-part.json")))["questions"]
}

random.seed(20261130)
idx = random.sample(range(len(files)), 24)
picked = [files[i] for i in idx]
candidates = [(picked[2 * k], picked[2 * k + 1]) for k in range(12)]

pairs, skipped = [], []
for a, b in candidates:
    if frozenset((a, b)) in old:
        skipped.append((a, b))
    else:
        pairs.append((a, b))

if len(pairs) < 12:  # repeat rule: continue the draw over the unused papers
    rest = [i for i in range(len(files)) if i not in set(idx)]
    extra = [files[i] for i in random.sample(rest, len(rest))]
    for k in range(0, len(extra) - 1, 2):
        if len(pairs) == 12:
            break
        a, b = extra[k], extra[k + 1]
        if frozenset((a, b)) in old:
            skipped.append((a, b))
        else:
            pairs.append((a, b))

for k, (a, b) in enumerate(pairs):
    print(f"U{k+1:02d}", a, b)
print("skipped (repeat of outline-two-part.json):", skipped or "none")

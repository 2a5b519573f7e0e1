#!/usr/bin/env python3
"""Draw 12 paper pairs for the two-part outline benchmark (seed 20261129)."""
import os
import random

CORPUS = "/work/shared/corpus/papers"
files = sorted(f for f in os.listdir(CORPUS) if f.endswith(".pdf"))
random.seed(20261129)
idx = random.sample(range(len(files)), 24)
picked = [files[i] for i in idx]
for k in range(12):
    print(f"T{k+1:02d}", picked[2 * k], picked[2 * k + 1])

#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-13.json and check the set.

answers-heldout-13.json is a thirteenth held-out set for *offline answer quality*, written 2026-11-29
before the answer code was changed further. Its question writer did not read lib/, app/, components/, db/,
cli/, bench/research.ts or bench/fit-answer-weights.ts. Same protocol as draw-answers-heldout.py,
except: seed 20261208 (the seed is simply the next one after set 12's 20261207),
answers-heldout.json, answers-heldout-2.json .. answers-heldout-12.json are also skip lists (their
evidence pages and their synthesis pairs), set 12's REJECTED_PAGES and REJECTED_PAIRS are kept (so
this set skips everything the set-12 script skips), and the `none` questions are on topics none of
the earlier sets' `none` questions cover. Its question ids start with N (N01.., NN1..), as asked; no
other held-out set uses N, but dev-questions.json has two `none` questions N01 and N02, so (as with
set 10's K ids and heldout-2.json) a tool that merges sets must keep each question's set with its
qid. It has NO synthesis questions (no NY..): as for set 12, the pair draw keeps no pair (see 2).

    python3 bench/questions/draw-answers-heldout-13.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261208, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json or answers-heldout-2.json .. answers-heldout-12.json, if it was drawn
   before, or if it is in REJECTED_PAGES (judged by reading the page: reference list, mostly a
   table / figure, table of contents, no prose sentence stating a fact). Draw until 16 are kept.
   Six pages were rejected in this draw (four reference lists: Step-Back Prompting's page 11,
   ELMo's page 11, S2ORC's page 11 and FlashAttention's page 12; OPT's page 11, the end of its
   acknowledgments and the start of its references; and DeepSeek-R1's page 2, its table of
   contents, which set 1 had rejected too but which no later script carried over); fifteen of the
   earlier sets' rejections came up too (thirteen reference lists, FlashAttention's page 11, the end
   of its acknowledgments and the start of its references, and page 11 of Intrinsic
   Dimensionality Explains the Effectiveness of Language Model Fine-Tuning, equations only). The
   draw kept two pages each of ViT (2, 9), ZeRO (2, 12) and STaR (5, 8); they were kept as drawn.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json .. answers-heldout-12.json (USED_PAIRS_FROM) or
   in REJECTED_PAIRS (no clear use / extension / comparison in the text, or no page left to
   choose) are skipped; the first 4 are kept. The candidates are exhausted, as set 12 found: of
   the 86 candidate pairs, 44 are synthesis pairs of earlier sets and the other 42 are earlier
   sets' rejections (the last two of them set 12's), so no pair is kept, none was left to judge,
   and this set has no synthesis questions. The protocol, which skips every earlier set's pairs, cannot
   give a later set any synthesis pair unless new papers join the corpus or the protocol changes
   (e.g. allowing an earlier pair with pages not yet evidence); neither was done here, and the set
   was not padded.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (single-image super-resolution, automatic license plate recognition,
   multi-person human pose estimation, neural combinatorial optimisation for the traveling
   salesman and vehicle routing problems) are not those of the earlier sets' `none` questions
   (nor those of heldout.json, heldout-2.json and dev-questions.json). Topics first considered and
   dropped because the corpus mentions them: diabetic retinopathy grading from fundus photographs
   and histopathology (ViT's VTAB tasks include Retinopathy and Camelyon), visual SLAM / odometry
   (VTAB's KITTI), retrosynthesis (Step-Back's chemistry examples; the Pile's USPTO subset) and
   video action recognition (too close to set 11's LN3, human activity recognition). "anpr" is not
   among NN2's terms only because it occurs inside an author's name (Amanpreet); "upscaling" is not among NN1's
   (a reference title, "multidimensional upscaling"), nor "key point" or "heatmap" among NN3's
   (the "key points" of grading prompts, a Jaccard-score heatmap), nor "tsp", "routing" or
   "combinatorial optimization" among NN4's (a flask URL and TSPNet, the RAG survey's query
   routing, GRAG's subgraph retrieval as a combinatorial optimization problem).
4. if answers-heldout-13.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 12's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-12 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set12 = base.load_script("draw-answers-heldout-12.py")

SEED = 20261208

# Pages drawn but not usable (read by hand on 2026-11-29); fifteen of the earlier sets' (2205.14135 p11, 2310.05634 p11,
# acl2020-s2orc p10 and p12, 2405.16506 p9, 2004.04906 p10, emnlp2023f-logic-lm p11 and p12, 2010.11929 p10, 2012.13255
# p11, 1804.08838 p11, 2401.18059 p12, 1906.04341 p11, 2005.11401 p11 and 2204.10628 p10) came up in this draw too.
REJECTED_PAGES = {
    **set12.REJECTED_PAGES,
    ("2310.06117", 11): "reference list only",
    ("1802.05365", 11): "reference list only",
    ("acl2020-s2orc", 11): "reference list only",
    ("2501.12948", 2): "table of contents (also rejected in set 1)",
    ("2205.01068", 11): "the end of the acknowledgments and the start of the reference list; no prose sentence stating a fact",
    ("2205.14135", 12): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, pairs whose only pages of use
# are already evidence, and title matches that are no citation: set 12's, unchanged (no new pair came up to judge).
REJECTED_PAIRS = {
    **set12.REJECTED_PAIRS,
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "NN1": ["super-resolution", "super resolution", "psnr", "div2k", "bicubic"],
    "NN2": ["license plate", "licence plate", "number plate", "alpr"],
    "NN3": ["pose estimation", "human pose", "keypoint", "openpose"],
    "NN4": ["traveling salesman", "travelling salesman", "vehicle routing", "capacitated", "pointer network"],
}

# Set 12's skip lists, and set 12 itself.
EXISTING = [*set12.EXISTING, os.path.join(HERE, "answers-heldout-12.json")]
USED_PAIRS_FROM = [*set12.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-12.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-13.json")

if __name__ == "__main__":
    base.main()

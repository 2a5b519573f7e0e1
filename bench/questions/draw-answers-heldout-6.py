#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-6.json and check the set.

answers-heldout-6.json is a sixth held-out set for *offline answer quality*, written 2026-11-27
before the answer code was changed further. Its question writer did not read lib/, app/,
components/ or bench/research.ts. Same protocol as draw-answers-heldout.py, except: seed 20261201
(the seed is simply the next one after set 5's 20261130), answers-heldout.json,
answers-heldout-2.json, answers-heldout-3.json, answers-heldout-4.json and answers-heldout-5.json
are also skip lists (their evidence pages and their synthesis pairs), set 5's REJECTED_PAGES and
REJECTED_PAIRS are kept (so this set skips everything the set-5 script skips), and the `none`
questions are on topics none of the earlier sets' `none` questions cover.

    python3 bench/questions/draw-answers-heldout-6.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261201, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json, answers-heldout-4.json or
   answers-heldout-5.json, if it was drawn before, or if it is in REJECTED_PAGES (judged by reading
   the page: reference list, mostly a table / figure, table of contents, no prose sentence stating
   a fact). Draw until 16 are kept.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json,
   answers-heldout-4.json or answers-heldout-5.json (USED_PAIRS_FROM) or in REJECTED_PAIRS (no
   clear use / extension / comparison in the text) are skipped; the first 4 are kept. The evidence
   page in each paper was then chosen by hand: a page (not already evidence anywhere, nor a single
   page of this set) where the citing paper uses / compares to the other, and the other paper's
   page that states the fact the question joins to it. One pair in this set's REJECTED_PAIRS does
   show a use, but only on a page that is already evidence, so no page could be chosen for it; it
   is skipped like the others (its entry says so).
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (music source separation, blood glucose forecasting in diabetes,
   wildfire spread prediction, sleep staging from polysomnography) are not those of the earlier
   sets' `none` questions.
4. if answers-heldout-6.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 5's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-5 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set5 = base.load_script("draw-answers-heldout-5.py")

SEED = 20261201

# Pages drawn but not usable (read by hand on 2026-11-27); none of the earlier sets' came up in this draw.
REJECTED_PAGES = {
    **set5.REJECTED_PAGES,
    ("emnlp2023f-logic-lm", 11): "reference list only",
    ("2004.04906", 11): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other (and one whose only page
# of use is already evidence, so that no page can be chosen for it).
REJECTED_PAIRS = {
    **set5.REJECTED_PAIRS,
    ("1503.02531", "2004.13313"): "EARL cites knowledge distillation only in a related-work sentence as a line of work orthogonal to its own (no use or comparison)",
    ("2210.11610", "2212.08073"): "Constitutional AI names LMSI only in a related-work list of self-supervision works; LMSI does not cite it (no use or comparison)",
    ("1706.03762", "2205.01068"): "OPT cites the Transformer only in a related-work sentence on the history of LLMs (no use or comparison; cf. Codex, rejected in set 2)",
    ("1906.04341", "2012.13255"): "the intrinsic-dimensionality paper uses Clark et al. only on its page 3 (to motivate SAID), which is already evidence (set 5, E06): no page can be chosen",
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "FN1": ["source separation", "musdb", "vocals", "accompaniment", "signal-to-distortion"],
    "FN2": ["glucose", "diabetes", "hypoglycemi", "insulin"],
    "FN3": ["wildfire", "burned area", "fire spread", "fire weather"],
    "FN4": ["sleep stage", "sleep staging", "polysomnograph", "sleep-edf", "hypnogram"],
}

# Set 5's skip lists, and set 5 itself.
EXISTING = [*set5.EXISTING, os.path.join(HERE, "answers-heldout-5.json")]
USED_PAIRS_FROM = [*set5.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-5.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-6.json")

if __name__ == "__main__":
    base.main()

#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-8.json and check the set.

answers-heldout-8.json is an eighth held-out set for *offline answer quality*, written 2026-11-28
before the answer code was changed further. Its question writer did not read lib/, app/,
components/ or bench/research.ts. Same protocol as draw-answers-heldout.py, except: seed 20261203
(the seed is simply the next one after set 7's 20261202), answers-heldout.json,
answers-heldout-2.json, answers-heldout-3.json, answers-heldout-4.json, answers-heldout-5.json,
answers-heldout-6.json and answers-heldout-7.json are also skip lists (their evidence pages and
their synthesis pairs), set 7's REJECTED_PAGES and REJECTED_PAIRS are kept (so this set skips
everything the set-7 script skips), and the `none` questions are on topics none of the earlier
sets' `none` questions cover. Its question ids start with I (I01.., IY1.., IN1..), since H is
heldout.json's.

    python3 bench/questions/draw-answers-heldout-8.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261203, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json, answers-heldout-4.json,
   answers-heldout-5.json, answers-heldout-6.json or answers-heldout-7.json, if it was drawn
   before, or if it is in REJECTED_PAGES (judged by reading the page: reference list, mostly a
   table / figure, table of contents, no prose sentence stating a fact). Draw until 16 are kept.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json,
   answers-heldout-4.json, answers-heldout-5.json, answers-heldout-6.json or answers-heldout-7.json
   (USED_PAIRS_FROM) or in REJECTED_PAIRS (no clear use / extension / comparison in the text) are
   skipped; the first 4 are kept. The evidence page in each paper was then chosen by hand: a page
   (not already evidence anywhere, nor a single page of this set) where the citing paper uses /
   compares to the other, and the other paper's page that states the fact the question joins to it.
   One pair in this set's REJECTED_PAIRS does show a use, but only on pages that are already
   evidence, so no page could be chosen for it; it is skipped like the others (its entry says so).
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (CRISPR guide RNA off-target prediction, neural surrogates for
   computational fluid dynamics / turbulence, ECG arrhythmia detection, speaker diarization) are not
   those of the earlier sets' `none` questions.
4. if answers-heldout-8.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 7's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-7 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set7 = base.load_script("draw-answers-heldout-7.py")

SEED = 20261203

# Pages drawn but not usable (read by hand on 2026-11-28); none of the earlier sets' came up in this draw.
REJECTED_PAGES = {
    **set7.REJECTED_PAGES,
    ("1906.04341", 10): "reference list only",
    ("2004.04906", 10): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, and one whose only pages of use
# are already evidence, so that no page can be chosen for it (none of the earlier sets' came up in this draw).
REJECTED_PAIRS = {
    **set7.REJECTED_PAIRS,
    ("1810.04805", "2109.08668"): "Primer names BERT only in its limitations, as an encoder-only model it does not study (page 11, already evidence), and in its references; no use or comparison (cf. XLNet, rejected in set 7)",
    ("1810.04805", "2012.13255"): "the intrinsic-dimensionality paper uses BERT only on its pages 2, 3, 4 and 6 (BERT's redundancy, its d90 of BERT-Base/Large on MRPC and QQP, the pre-trained models it studies), all already evidence: no page can be chosen",
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "IN1": ["crispr", "cas9", "guide rna", "sgrna", "off-target"],
    "IN2": ["navier-stokes", "turbulen", "fluid dynamics", "reynolds number", "airfoil"],
    "IN3": ["electrocardiogram", "ecg", "arrhythmi", "atrial fibrillation", "mit-bih"],
    "IN4": ["diarization", "callhome", "overlapping speech", "speaker embedding"],
}

# Set 7's skip lists, and set 7 itself.
EXISTING = [*set7.EXISTING, os.path.join(HERE, "answers-heldout-7.json")]
USED_PAIRS_FROM = [*set7.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-7.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-8.json")

if __name__ == "__main__":
    base.main()

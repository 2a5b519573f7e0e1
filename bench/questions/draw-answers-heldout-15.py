#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-15.json and check the set.

answers-heldout-15.json is a fifteenth held-out set for *offline answer quality*, written 2026-11-30
before the answer code was changed further. Its question writer did not read lib/, app/, components/, db/,
cli/, bench/research.ts or bench/fit-answer-weights.ts. Same protocol as draw-answers-heldout.py,
except: seed 20261210 (the seed is simply the next one after set 14's 20261209),
answers-heldout.json, answers-heldout-2.json .. answers-heldout-14.json and none-heldout.json are also
skip lists (their evidence pages and their synthesis pairs; none-heldout.json has only `none` questions,
so it adds neither pages nor pairs, and is listed only so that every earlier set is), every earlier
set's REJECTED_PAGES and REJECTED_PAIRS are kept: set 14's, and also set 1's (draw-answers-heldout.py's),
two of which no later script had carried over (QACheck's page 8, a reference list, and the
self-correction survey's page 6, its Table 2; set 13 had noticed the same for DeepSeek-R1's page 2), and
the `none` questions are on topics none of the earlier sets' `none` questions cover (including
none-heldout.json's O01..O12). Its question ids start with Q (Q01.., QN1..); no other set (nor
dev-questions.json) uses Q. It has NO synthesis questions (no QY..): as for sets 12 to 14, the pair draw
keeps no pair (see 2).

    python3 bench/questions/draw-answers-heldout-15.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261210, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json, answers-heldout-2.json .. answers-heldout-14.json or none-heldout.json, if
   it was drawn before, or if it is in REJECTED_PAGES (judged by reading the page: reference list,
   mostly a table / figure, table of contents, no prose sentence stating a fact). Draw until 16 are
   kept. Three pages were rejected in this draw (RWKV's page 12, Measuring the Intrinsic Dimension
   of Objective Landscapes' page 10 and STaR's page 11, reference lists only); thirty-eight of the
   earlier sets' rejections came up too (thirty reference lists, two of them after the
   acknowledgments; Primer's page 12 and FlashAttention's page 11, the end of the acknowledgments and
   the start of the references; page 11 of Intrinsic Dimensionality Explains the Effectiveness of
   Language Model Fine-Tuning, equations only; the self-correction survey's page 6, its Table 2 (set
   1's rejection, which would have been kept here had set 1's list not been carried over again); the
   RAG survey's page 6, its Table I; QACheck's page 10, prompt templates; PaSa's page 10, two tables
   and the start of the references; and DeepSeek-R1's page 2, its table of contents): the unused pages
   of the corpus are thinning out, and the draw made 454 skips to keep 16. One kept page was read with
   care and kept: PaSa's page 11 (mostly references, but its Appendix A.1 states in prose how the
   crawler's imitation-learning data is generated). The draw kept no two pages of one paper. Where a
   drawn page's most obvious fact had already been asked by an earlier set from another page
   (Primer's two main modifications, set 8's I01; STaR's rationalization, heldout-2.json's KY1;
   In-Context RALM's retrieval stride, dev-questions.json's S28; the size of BioKaLMA, set 10's K06;
   the Step-Back Prompting gains on MMLU, set 10's K15), another fact of the page was asked instead
   (STaR's Q08 asks why the basic loop saturates, which rationalization answers).
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json .. answers-heldout-14.json or none-heldout.json
   (USED_PAIRS_FROM) or in REJECTED_PAIRS (no clear use / extension / comparison in the text, or no
   page left to choose) are skipped; the first 4 are kept. The candidates are still exhausted, as
   sets 12 to 14 found (checked again with this seed): of the 86 candidate pairs, 44 are synthesis
   pairs of earlier sets and the other 42 are earlier sets' rejections, so no pair is kept, none was
   left to judge, and this set has no synthesis questions. Set 14 added no pair or paper, so the
   protocol, which skips every earlier set's pairs, cannot give a later set any synthesis pair unless
   new papers join the corpus or the protocol changes; neither was done here, and the set was not
   padded.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (polyp segmentation in colonoscopy, channel estimation in massive MIMO
   wireless systems, expected goals models in soccer analytics, optical music recognition) are not
   those of the earlier sets' `none` questions (nor those of none-heldout.json, heldout.json,
   heldout-2.json and dev-questions.json). Topics first considered and dropped because the corpus
   mentions them: seismic phase picking / earthquake detection (SEAL's examples name earthquakes and
   seismic activity) and sign language recognition (PaSa names sign language). Words of the questions
   that occur in the corpus were kept out of the key terms: "segmentation" (ViT, RAPTOR, ...) and
   "real time" for QN1; "least-squares" (ViT) and "pilot" (CiteSee's pilot study, Codex, PaSa) for
   QN2; "xg" (inside CodeXGLUE), "shot" (few-shot), "goal" and "football" (the football split of DROP in
   LMSI and Step-Back Prompting, and others; the question says soccer) for QN3; "music" (ProgramFC,
   Codex), "omr" (inside Omri, an author's name in In-Context RALM) and "handwritten" (Codex's
   handwritten programming problems, a reference title on handwritten zip codes) for QN4.
4. if answers-heldout-15.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above. Two
   quotes stop short of their sentence's end (Q07 before a colon that introduces a formula, Q11 before
   the full stop that pdftotext sets apart after a variable).
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 14's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-14 script skips,
# and so are set 1's, read from the protocol module before its settings are replaced (set 2's script did not carry
# them over, so later scripts lacked two of them).
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set14 = base.load_script("draw-answers-heldout-14.py")

SEED = 20261210

# Pages drawn but not usable (read by hand on 2026-11-30); thirty-eight of the earlier sets' came up in this draw too
# (see the docstring), among them set 1's tacl2024-self-correction-survey p6, which only set 1's list holds.
REJECTED_PAGES = {
    **base.REJECTED_PAGES,
    **set14.REJECTED_PAGES,
    ("2305.13048", 12): "reference list only",
    ("1804.08838", 10): "reference list only",
    ("2203.14465", 11): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, pairs whose only pages of use
# are already evidence, and title matches that are no citation: set 14's (which hold set 1's), unchanged (no new pair
# came up to judge).
REJECTED_PAIRS = {
    **base.REJECTED_PAIRS,
    **set14.REJECTED_PAIRS,
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "QN1": ["polyp", "colonoscop", "kvasir", "endoscop", "colorectal"],
    "QN2": ["mimo", "channel estimation", "pilot signal", "mmse", "wireless", "ofdm"],
    "QN3": ["expected goals", "soccer", "tracking data", "shot location", "statsbomb"],
    "QN4": ["optical music", "sheet music", "musicxml", "staff-line", "staff line", "music notation"],
}

# Set 14's skip lists, and set 14 itself.
EXISTING = [*set14.EXISTING, os.path.join(HERE, "answers-heldout-14.json")]
USED_PAIRS_FROM = [*set14.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-14.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-15.json")

if __name__ == "__main__":
    base.main()

#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-9.json and check the set.

answers-heldout-9.json is a ninth held-out set for *offline answer quality*, written 2026-11-28
before the answer code was changed further. Its question writer did not read lib/, app/,
components/, db/, cli/, bench/research.ts or bench/fit-answer-weights.ts. Same protocol as
draw-answers-heldout.py, except: seed 20261204 (the seed is simply the next one after set 8's
20261203), answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json,
answers-heldout-4.json, answers-heldout-5.json, answers-heldout-6.json, answers-heldout-7.json and
answers-heldout-8.json are also skip lists (their evidence pages and their synthesis pairs), set 8's
REJECTED_PAGES and REJECTED_PAIRS are kept (so this set skips everything the set-8 script skips),
and the `none` questions are on topics none of the earlier sets' `none` questions cover. Its
question ids start with J (J01.., JY1.., JN1..).

    python3 bench/questions/draw-answers-heldout-9.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261204, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json, answers-heldout-4.json,
   answers-heldout-5.json, answers-heldout-6.json, answers-heldout-7.json or answers-heldout-8.json,
   if it was drawn before, or if it is in REJECTED_PAGES (judged by reading the page: reference
   list, mostly a table / figure, table of contents, no prose sentence stating a fact). Draw until
   16 are kept.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json,
   answers-heldout-4.json, answers-heldout-5.json, answers-heldout-6.json, answers-heldout-7.json or
   answers-heldout-8.json (USED_PAIRS_FROM) or in REJECTED_PAIRS (no clear use / extension /
   comparison in the text, or no page left to choose) are skipped; the first 4 are kept. The
   evidence page in each paper was then chosen by hand: a page (not already evidence anywhere, nor
   a single page of this set) where the citing paper uses / compares to the other, and the other
   paper's page that states the fact the question joins to it. Two choices were forced by pages
   already being evidence: in JY1 the intrinsic-dimensionality fine-tuning paper's pages that name
   Li et al. (1-3) are all evidence, so its page 5 is used, where it measures d90 (Li et al.'s
   measure) over pre-training checkpoints and reads d as a description length; in JY2 the only
   page of DPR not yet evidence that is not references is page 13 (Table 7, passages returned by
   BM25 and by DPR, and the end of the joint-training appendix), so its quote is the table's caption.
   One pair in this set's REJECTED_PAIRS is skipped because no page could be chosen (its entry says
   so), as in set 8.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (skin cancer / melanoma classification from dermoscopic images, lip
   reading / visual speech recognition, jet tagging at the Large Hadron Collider, odor prediction
   from molecular structure) are not those of the earlier sets' `none` questions (nor those of
   heldout.json, heldout-2.json and dev-questions.json). Topics first considered and dropped
   because the corpus mentions them: sign language (PaSa), handwriting (ViT, Codex, ResNet),
   histopathology (ViT's VTAB includes Patch Camelyon), legal judgment prediction (FlashAttention's
   ECtHR) and earthquake prediction (SEAL's example query).
4. if answers-heldout-9.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 8's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-8 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set8 = base.load_script("draw-answers-heldout-8.py")

SEED = 20261204

# Pages drawn but not usable (read by hand on 2026-11-28); three of the earlier sets' (2010.11929 p11, 2005.11401 p11,
# 1706.03762 p11, all reference lists) came up in this draw too.
REJECTED_PAGES = {
    **set8.REJECTED_PAGES,
    ("2305.13048", 10): "reference list only",
    ("2004.13313", 12): "reference list only",
    ("acl2023-programfc", 12): "reference list only",
    ("2109.08668", 12): "acknowledgements and the start of the reference list; no prose sentence stating a fact",
    ("2210.11610", 11): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, and one whose only pages of use
# are already evidence, so that no page can be chosen for it (two earlier sets' rejections, Primer and BERT, RWKV and
# LoRA, came up in this draw too).
REJECTED_PAIRS = {
    **set8.REJECTED_PAIRS,
    ("1706.03762", "acl2023-programfc"): "ProgramFC names the Transformer only in its appendix on the pre-trained baselines (pretrained Transformers such as BERT and T5, page 14, already evidence), in Table 1's caption (page 6, already evidence) and in its references; the Transformer paper's pages not yet evidence are references and attention figures: no page can be chosen",
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "JN1": ["melanoma", "skin lesion", "skin cancer", "dermoscop", "dermatolog"],
    "JN2": ["lip reading", "lipreading", "lip-reading", "lrs3", "visual speech"],
    "JN3": ["jet tagging", "hadron", "collider", "calorimeter", "particle physics"],
    "JN4": ["olfactor", "odorant", "odour", "smell"],
}

# Set 8's skip lists, and set 8 itself.
EXISTING = [*set8.EXISTING, os.path.join(HERE, "answers-heldout-8.json")]
USED_PAIRS_FROM = [*set8.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-8.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-9.json")

if __name__ == "__main__":
    base.main()

#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-12.json and check the set.

answers-heldout-12.json is a twelfth held-out set for *offline answer quality*, written 2026-11-28
before the answer code was changed further. Its question writer did not read lib/, app/, components/, db/,
cli/, bench/research.ts or bench/fit-answer-weights.ts. Same protocol as draw-answers-heldout.py,
except: seed 20261207 (the seed is simply the next one after set 11's 20261206),
answers-heldout.json, answers-heldout-2.json .. answers-heldout-11.json are also skip lists (their
evidence pages and their synthesis pairs), set 11's REJECTED_PAGES and REJECTED_PAIRS are kept (so
this set skips everything the set-11 script skips), and the `none` questions are on topics none of
the earlier sets' `none` questions cover. Its question ids start with M (M01.., MN1..); no other set
uses M. It has NO synthesis questions (no MY..): the pair draw kept no pair (see 2).

    python3 bench/questions/draw-answers-heldout-12.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261207, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json or answers-heldout-2.json .. answers-heldout-11.json, if it was drawn
   before, or if it is in REJECTED_PAGES (judged by reading the page: reference list, mostly a
   table / figure, table of contents, no prose sentence stating a fact). Draw until 16 are kept.
   Six pages were rejected in this draw (five reference lists, among them the Transformer's page
   12 and BERT's page 11, and the RAG survey's page 6, its Table I only); nine of the earlier
   sets' rejections (all reference lists) came up too. The draw kept two pages each of QACheck
   (2, 5) and Step-Back Prompting (4, 8); they were kept as drawn.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json .. answers-heldout-11.json (USED_PAIRS_FROM) or
   in REJECTED_PAIRS (no clear use / extension / comparison in the text, or no page left to
   choose) are skipped; the first 4 are kept. With this draw the candidates ran out: of the 86
   candidate pairs, 44 are synthesis pairs of earlier sets and 40 are earlier sets' rejections,
   and the remaining two were rejected here (their entries below say why: LMSI and the
   distillation paper, whose only pages of use are already evidence, and ZeRO and Step-Back
   Prompting, a spurious title match on the idiom "take a step back"). So no pair was kept and
   this set has no synthesis questions, although set 11 had 4. The protocol, which skips every
   earlier set's pairs, cannot give a later set any synthesis pair unless new papers join the
   corpus or the protocol changes (e.g. allowing an earlier pair with pages not yet evidence);
   neither was done here, and the set was not padded.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (deep-learning reconstruction of accelerated MRI from undersampled
   k-space, person re-identification across cameras, crack detection for structural health
   monitoring of bridges and pavement, crowd counting) are not those of the earlier sets' `none`
   questions (nor those of heldout.json, heldout-2.json and dev-questions.json). Sign-language
   translation was first considered and dropped because the corpus mentions it (PaSa's example
   queries). "mri" is not among MN1's terms only because it occurs inside authors' names (Omri,
   Amrith, Rachatasumrit, Hamri); "concrete" is not among MN3's (it occurs as an adjective, "as a
   concrete example"), nor "crowd" among MN4's (crowdworkers, crowdsourced).
4. if answers-heldout-12.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 11's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-11 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set11 = base.load_script("draw-answers-heldout-11.py")

SEED = 20261207

# Pages drawn but not usable (read by hand on 2026-11-28); nine of the earlier sets' (2305.13048 p10 and p11, 2005.11401
# p11 and p12, 1906.04341 p10, acl2020-s2orc p10, 2210.11610 p12, 2104.08663 p10 and emnlp2023f-logic-lm p11, all
# reference lists) came up in this draw too.
REJECTED_PAGES = {
    **set11.REJECTED_PAGES,
    ("1706.03762", 12): "reference list only",
    ("1512.03385", 9): "reference list only",
    ("2312.10997", 6): "Table I only (the summary of RAG methods: retrieval source, data type, granularity, augmentation stage and retrieval process per method); no prose sentence stating a fact",
    ("2203.14465", 12): "reference list only",
    ("emnlp2023f-logic-lm", 12): "reference list only",
    ("1810.04805", 11): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, pairs whose only pages of use
# are already evidence, so that no page can be chosen for them, and title matches that are no citation (forty of the
# earlier sets' rejections came up in this draw too).
REJECTED_PAIRS = {
    **set11.REJECTED_PAIRS,
    ("1503.02531", "2210.11610"): "LMSI relates its method to Hinton et al.'s distillation and dark knowledge only on its page 3 (related work, already evidence: heldout-2 KY1) and distils its self-improved PaLM-540B into smaller models 'such as in distillation (Hinton et al., 2015)' only on its page 9 (already evidence: set 6, F12), otherwise it names the paper only in its references (page 11); the distillation paper does not cite LMSI: no page can be chosen",
    ("1910.02054", "2310.06117"): "not a citation: ZeRO's page 7 says \"let's take a step back to examine the memory consumption\", the idiom Step-Back Prompting's title begins with; neither paper cites the other",
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "MN1": ["magnetic resonance", "k-space", "fastmri", "undersampl", "compressed sensing"],
    "MN2": ["re-identification", "reidentification", "market-1501", "surveillance", "non-overlapping camera"],
    "MN3": ["crack", "pavement", "structural health", "bridge inspection"],
    "MN4": ["crowd counting", "density map", "shanghaitech", "ucf-qnrf"],
}

# Set 11's skip lists, and set 11 itself.
EXISTING = [*set11.EXISTING, os.path.join(HERE, "answers-heldout-11.json")]
USED_PAIRS_FROM = [*set11.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-11.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-12.json")

if __name__ == "__main__":
    base.main()

#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-14.json and check the set.

answers-heldout-14.json is a fourteenth held-out set for *offline answer quality*, written 2026-11-30
before the answer code was changed further. Its question writer did not read lib/, app/, components/, db/,
cli/, bench/research.ts or bench/fit-answer-weights.ts. Same protocol as draw-answers-heldout.py,
except: seed 20261209 (the seed is simply the next one after set 13's 20261208),
answers-heldout.json, answers-heldout-2.json .. answers-heldout-13.json and none-heldout.json are also
skip lists (their evidence pages and their synthesis pairs; none-heldout.json has only `none` questions,
so it adds neither pages nor pairs, and is listed only so that every earlier set is), set 13's
REJECTED_PAGES and REJECTED_PAIRS are kept (so this set skips everything the set-13 script skips), and
the `none` questions are on topics none of the earlier sets' `none` questions cover (including
none-heldout.json's O01..O12). Its question ids start with P (P01.., PN1..); no other set (nor
dev-questions.json) uses P. It has NO synthesis questions (no PY..): as for sets 12 and 13, the pair draw
keeps no pair (see 2).

    python3 bench/questions/draw-answers-heldout-14.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261209, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json, answers-heldout-2.json .. answers-heldout-13.json or none-heldout.json, if
   it was drawn before, or if it is in REJECTED_PAGES (judged by reading the page: reference list,
   mostly a table / figure, table of contents, no prose sentence stating a fact). Draw until 16 are
   kept. One page was rejected in this draw (ProgramFC's page 11, a reference list only); seventeen
   of the earlier sets' rejections came up too (fifteen reference lists, the RAG survey's page 6,
   its Table I only, and QACheck's page 10, prompt templates only). Two kept pages were read with
   care and kept: XLNet's page 12 (its conclusions, which state facts, then the acknowledgments and
   the start of the references) and Logic-LM's page 10 (its limitations and ethics statement, then
   references). The draw kept two pages each of DeepSeek-R1 (7, 5), XLNet (6, 12) and EARL (7, 8);
   they were kept as drawn. Where a drawn page's most obvious fact had already been asked by an
   earlier set from another page (DeepSeek-R1-Zero's AIME majority voting, set 1's A06; the
   width/depth invariance of the intrinsic dimension of FC nets, set 3's C15; XLNet dropping next
   sentence prediction, set 1's A02; RWKV's relation to AFT, set 12's M14), another fact of the page
   was asked instead.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json .. answers-heldout-13.json or none-heldout.json
   (USED_PAIRS_FROM) or in REJECTED_PAIRS (no clear use / extension / comparison in the text, or no
   page left to choose) are skipped; the first 4 are kept. The candidates are still exhausted, as
   sets 12 and 13 found (checked again with this seed): of the 86 candidate pairs, 44 are synthesis
   pairs of earlier sets and the other 42 are earlier sets' rejections, so no pair is kept, none was
   left to judge, and this set has no synthesis questions. Neither set 13 nor none-heldout.json
   added a pair or a paper, so the protocol, which skips every earlier set's pairs, cannot give a
   later set any synthesis pair unless new papers join the corpus or the protocol changes; neither
   was done here, and the set was not padded.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (non-intrusive load monitoring / energy disaggregation from smart
   meter data, surgical phase recognition in laparoscopic video, genomic variant calling from
   sequencing reads, plant disease detection from leaf images) are not those of the earlier sets'
   `none` questions (nor those of none-heldout.json, heldout.json, heldout-2.json and
   dev-questions.json). Topics first considered and dropped: gravitational-wave detection
   (Constitutional AI's example dialogue names gravitational waves) and underwater acoustic target
   recognition (too close to none-heldout.json's O10, acoustic scene classification; "sonar" occurs
   in Codex, SonarSource's vulnerability database). Words of the questions that occur in the corpus
   were kept out of the key terms: "nilm" (inside "MiniLM"), "redd" (Reddit, Reddy), "appliance"
   (a Constitutional AI red-team dialogue, a CiteSee reference) and "electricity" / "consumption"
   for PN1; "surgical" (a CiteSee reference, "medical-surgical nurses") for PN2; "genom" (a BEIR
   example, "genomic organization") and "indel" (inside a name in Step-Back Prompting's MuSiQue
   examples, "Šindel") for PN3; "leaf" / "leaves" (RAPTOR's leaf nodes, a maple-leafs claim in
   ProgramFC), "crop" (ResNet's image crops), "diagnos" and "photos" for PN4.
4. if answers-heldout-14.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 13's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-13 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set13 = base.load_script("draw-answers-heldout-13.py")

SEED = 20261209

# Pages drawn but not usable (read by hand on 2026-11-30); seventeen of the earlier sets' (2104.08663 p10 and p11,
# 2305.13048 p11, acl2023-programfc p10 and p12, 2210.11610 p11, 2010.11929 p10 and p12, emnlp2023f-logic-lm p12,
# 2405.16506 p9, 1802.05365 p11, acl2020-s2orc p10 and p12, 2004.04906 p11 and 2310.06117 p10, reference lists;
# 2312.10997 p6, Table I only; 2310.07609 p10, prompt templates only) came up in this draw too.
REJECTED_PAGES = {
    **set13.REJECTED_PAGES,
    ("acl2023-programfc", 11): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, pairs whose only pages of use
# are already evidence, and title matches that are no citation: set 13's, unchanged (no new pair came up to judge).
REJECTED_PAIRS = {
    **set13.REJECTED_PAIRS,
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "PN1": ["non-intrusive", "non intrusive", "load monitoring", "smart meter", "disaggregat", "uk-dale"],
    "PN2": ["laparoscop", "cholecystectomy", "cholec80", "phase recognition", "tcn"],
    "PN3": ["variant call", "deepvariant", "germline", "sequencing read", "snp", "gatk"],
    "PN4": ["plantvillage", "plant village", "plant disease", "field images"],
}

# Set 13's skip lists, set 13 itself, and none-heldout.json (no evidence pages, no pairs; listed for completeness).
EXISTING = [*set13.EXISTING, os.path.join(HERE, "answers-heldout-13.json"), os.path.join(HERE, "none-heldout.json")]
USED_PAIRS_FROM = [
    *set13.USED_PAIRS_FROM,
    os.path.join(HERE, "answers-heldout-13.json"),
    os.path.join(HERE, "none-heldout.json"),
]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-14.json")

if __name__ == "__main__":
    base.main()

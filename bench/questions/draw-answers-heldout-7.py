#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-7.json and check the set.

answers-heldout-7.json is a seventh held-out set for *offline answer quality*, written 2026-11-27/28
before the answer code was changed further. Its question writer did not read lib/, app/,
components/ or bench/research.ts. Same protocol as draw-answers-heldout.py, except: seed 20261202
(the seed is simply the next one after set 6's 20261201), answers-heldout.json,
answers-heldout-2.json, answers-heldout-3.json, answers-heldout-4.json, answers-heldout-5.json and
answers-heldout-6.json are also skip lists (their evidence pages and their synthesis pairs), set 6's
REJECTED_PAGES and REJECTED_PAIRS are kept (so this set skips everything the set-6 script skips),
and the `none` questions are on topics none of the earlier sets' `none` questions cover.

    python3 bench/questions/draw-answers-heldout-7.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261202, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json, answers-heldout-4.json,
   answers-heldout-5.json or answers-heldout-6.json, if it was drawn before, or if it is in
   REJECTED_PAGES (judged by reading the page: reference list, mostly a table / figure, table of
   contents, no prose sentence stating a fact). Draw until 16 are kept.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json,
   answers-heldout-4.json, answers-heldout-5.json or answers-heldout-6.json (USED_PAIRS_FROM) or in
   REJECTED_PAIRS (no clear use / extension / comparison in the text) are skipped; the first 4 are
   kept. The evidence page in each paper was then chosen by hand: a page (not already evidence
   anywhere, nor a single page of this set) where the citing paper uses / compares to the other,
   and the other paper's page that states the fact the question joins to it.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (air quality / PM2.5 forecasting, clinical sepsis prediction, wind and
   solar power forecasting, wildlife species identification from camera traps) are not those of
   the earlier sets' `none` questions.
4. if answers-heldout-7.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 6's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-6 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set6 = base.load_script("draw-answers-heldout-6.py")

SEED = 20261202

# Pages drawn but not usable (read by hand on 2026-11-28); none of the earlier sets' came up in this draw.
REJECTED_PAGES = {
    **set6.REJECTED_PAGES,
    ("2501.10120", 10): "Tables 8 and 9 (ablation, reward coefficient) and the start of the reference list; no prose sentence stating a fact",
    ("2010.11929", 10): "reference list only",
    ("2010.11929", 12): "reference list only",
    ("2204.10628", 12): "reference list only",
    ("2005.11401", 11): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other (one earlier set's, BERT and
# ZeRO, came up in this draw too).
REJECTED_PAIRS = {
    **set6.REJECTED_PAIRS,
    ("1906.08237", "2109.08668"): "Primer names XLNet only in citation lists (NLP advances and scaling in its introduction; encoder-only models it does not study, in its limitations); no use or comparison",
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "GN1": ["air quality", "pm2.5", "air pollution", "pollutant", "particulate"],
    "GN2": ["sepsis", "septic", "vital sign", "lactate", "electronic health record"],
    "GN3": ["wind power", "wind farm", "wind turbine", "photovoltaic", "solar irradiance"],
    "GN4": ["camera trap", "snapshot serengeti", "animal species", "species identification"],
}

# Set 6's skip lists, and set 6 itself.
EXISTING = [*set6.EXISTING, os.path.join(HERE, "answers-heldout-6.json")]
USED_PAIRS_FROM = [*set6.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-6.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-7.json")

if __name__ == "__main__":
    base.main()

#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-16.json and check the set.

answers-heldout-16.json is a sixteenth held-out set for *offline answer quality*, written 2026-11-29
before the answer code was changed further. Its question writer did not read lib/, app/, components/, db/,
cli/, bench/research.ts or bench/fit-answer-weights.ts. Same protocol as draw-answers-heldout.py,
except: seed 20261211 (the seed is simply the next one after set 15's 20261210),
answers-heldout.json, answers-heldout-2.json .. answers-heldout-15.json and none-heldout.json are also
skip lists (their evidence pages and their synthesis pairs), every earlier set's REJECTED_PAGES and
REJECTED_PAIRS are kept (set 15's, which hold set 1's and every later set's), the `none` questions are on
topics none of the earlier sets' `none` questions cover (including none-heldout.json's O01..O12), and the
page draw also stops when no page of its range is left (see 1). Its question ids start with R (R01..,
RN1..); no other set (nor dev-questions.json, nor the outline sets' T.. and U..) uses R. It has NO
synthesis questions (no RY..): as for sets 12 to 15, the pair draw keeps no pair (see 2). It has only
ELEVEN single questions, not sixteen: the page range of the protocol is used up (see 1).

    python3 bench/questions/draw-answers-heldout-16.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261211, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json, answers-heldout-2.json .. answers-heldout-15.json or none-heldout.json, if
   it was drawn before, or if it is in REJECTED_PAGES (judged by reading the page: reference list,
   mostly a table / figure, table of contents, no prose sentence stating a fact). Draw until 16 are
   kept, or until no page of the range is left that is not evidence, rejected or drawn before.
   That second stop is new in this set (draw_single below; the generator, the order of draws and the
   skips are the protocol's, so the pages kept are those the protocol's loop keeps first): before
   this draw only 15 pages of the 431 in the range were neither evidence in an earlier set nor an
   earlier rejection, so the protocol's loop, which draws until 16 are kept, never ended (a first run
   of it had to be stopped). All 15 were drawn; four were rejected on reading (BERT's page 10,
   In-Context RALM's page 12 and BEIR's page 12, reference lists only; What Does BERT Look At?'s page
   5, Figure 5 and its caption only, with no body prose: its caption does state facts, the heads'
   accuracies, but the protocol rejects a page that is mostly a figure, as earlier sets rejected the
   self-correction survey's table pages) and 11 kept, so this set has 11 single questions; it was not
   padded and the protocol was not widened (e.g. to page 1 or pages past 12) to reach 16. The draw
   made 1001 skips (842 pages that are evidence in an earlier set, 97 drawn before, and 62 rejected:
   the four above and 58 of the earlier sets' rejections, 53 of them reference lists, some after
   the acknowledgments, the others DeepSeek-R1's page 2, its table of contents, the RAG survey's page
   6, its Table I, the self-correction survey's page 6, its Table 2, PaSa's page 10, two tables and
   the start of the references, and QACheck's page 10, prompt templates). With this set every page
   of the range is evidence or rejected, so a later set drawn by this protocol would keep no page at
   all: it needs new papers or a changed protocol. The draw kept no two pages of one paper. Where a
   drawn page's most obvious fact had already been asked by an earlier set from another page,
   another fact of the page was asked instead: DeepSeek-R1's page 9 ends the 'aha moment' (set 15's
   Q03), so R03 asks about its cold-start data; the Vision Transformer's page 6 begins its
   pre-training data study (set 12's M16), so R02 asks what pre-training on ImageNet-21k costs;
   LMSI's page 7 gives its out-of-domain gains (in set 5's E05 answer), so R04 asks about its
   chain-of-thought formats; BEIR's page 2 states the benchmark's size, BM25's strength and the
   lexical bias of TREC-COVID (set 8's I10, set 9's J11 and JY2), so R06 asks about MultiReQA; ZeRO's
   page 7 uses GPT-2 1.5B as its memory example (set 12's M11 on that model's activations), so R09
   asks how ZeRO relates to memory-efficient optimizers. LoRA's page 11 explains why rank 1 suffices
   (R08), which set 4's DY4 asked only as a fact, from page 10; the explanation is this page's own.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json .. answers-heldout-15.json or none-heldout.json
   (USED_PAIRS_FROM) or in REJECTED_PAIRS (no clear use / extension / comparison in the text, or no
   page left to choose) are skipped; the first 4 are kept. The candidates are still exhausted, as
   sets 12 to 15 found (checked again with this seed): of the 86 candidate pairs, 44 are synthesis
   pairs of earlier sets and the other 42 are earlier sets' rejections, so no pair is kept, none was
   left to judge, and this set has no synthesis questions. Set 15 added no pair or paper, and the
   set was not padded.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (disruption prediction in tokamak fusion plasmas, defect detection
   in laser powder bed fusion additive manufacturing, varroa mite detection in honeybee colonies,
   bearing fault diagnosis from vibration signals) are not those of the earlier sets' `none`
   questions (nor those of none-heldout.json, heldout.json, heldout-2.json and dev-questions.json).
   Topics first considered and dropped: glacier calving-front detection (a BEIR example document
   names melting ice sheets and glaciers). Words of the questions that occur in the corpus were kept
   out of the key terms: "fusion" (FlashAttention's kernel fusion, Fusion-in-Decoder, RAG-Fusion,
   "confusion") for RN1 and RN2; "in-situ" (CiteSee's in-situ support), "monitoring" and "defects"
   for RN2; "mite" (inside "limited" and others, "mites" inside the name Mitesh in RAG's references)
   and "hive" (inside "archive") for RN3; "bearing" (BEIR's entity-bearing queries, opinion-bearing
   sentences), "load" and "diagnos" for RN4.
4. if answers-heldout-16.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above. Two
   quotes carry pdftotext's flattening of subscripts (R08's "Ar=8 and Ar=64 ," for A_{r=8} and
   A_{r=64}, R10's "dint100 = dint90 = 4"); R06's quote is a whole sentence whose subject, "It", is
   MultiReQA, named in the sentence before.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 15's rejected
# pages and pairs are kept (its script is loaded for them; they hold set 1's and every later set's), so that this set
# skips everything the set-15 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set15 = base.load_script("draw-answers-heldout-15.py")

SEED = 20261211

# Pages drawn but not usable (read by hand on 2026-11-29); fifty-eight of the earlier sets' came up in this draw too
# (see the docstring).
REJECTED_PAGES = {
    **set15.REJECTED_PAGES,
    ("1906.04341", 5): "Figure 5 only (the attention heads that track dependency relations and coreference, with their accuracies) and its caption; no body prose",
    ("1810.04805", 10): "reference list only",
    ("2302.00083", 12): "reference list only",
    ("2104.08663", 12): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, pairs whose only pages of use
# are already evidence, and title matches that are no citation: set 15's, unchanged (no new pair came up to judge).
REJECTED_PAIRS = {
    **set15.REJECTED_PAIRS,
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "RN1": ["tokamak", "plasma", "disruption", "diii-d", "fusion reactor"],
    "RN2": ["powder bed", "melt pool", "additive manufactur", "porosity", "laser"],
    "RN3": ["varroa", "honeybee", "honey bee", "beehive", "beekeep"],
    "RN4": ["bearing fault", "rolling-element", "rolling element", "vibration", "cwru", "case western"],
}

# Set 15's skip lists, and set 15 itself.
EXISTING = [*set15.EXISTING, os.path.join(HERE, "answers-heldout-15.json")]
USED_PAIRS_FROM = [*set15.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-15.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-16.json")


def draw_single(papers, used):
    """The protocol's page draw (same generator, same order of draws, same skips), except that it also stops when no
    page of the drawing range is left that is not evidence, rejected or drawn before: fewer than N_SINGLE pages were
    left for this set, and the protocol's loop would never end."""
    import random

    left = {
        (p["id"], n)
        for p in papers
        for n in range(2, min(12, p["pages"]) + 1)
        if (p["id"], n) not in used and (p["id"], n) not in base.REJECTED_PAGES
    }
    rng = random.Random(base.SEED)
    seen, kept, skipped = set(), [], []
    while len(kept) < base.N_SINGLE and left:
        p = rng.choice(papers)
        n = rng.randint(2, min(12, p["pages"]))
        k = (p["id"], n)
        if k in used:
            skipped.append((k, "evidence in an existing set"))
        elif k in seen:
            skipped.append((k, "drawn before"))
        elif k in base.REJECTED_PAGES:
            skipped.append((k, base.REJECTED_PAGES[k]))
        else:
            kept.append(k)
            left.discard(k)
        seen.add(k)
    return kept, skipped


base.draw_single = draw_single

if __name__ == "__main__":
    base.main()

#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-10.json and check the set.

answers-heldout-10.json is a tenth held-out set for *offline answer quality*, written 2026-11-28
before the answer code was changed further. Its question writer did not read lib/, app/,
components/, db/, cli/, bench/research.ts or bench/fit-answer-weights.ts. Same protocol as
draw-answers-heldout.py, except: seed 20261205 (the seed is simply the next one after set 9's
20261204), answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json,
answers-heldout-4.json, answers-heldout-5.json, answers-heldout-6.json, answers-heldout-7.json,
answers-heldout-8.json and answers-heldout-9.json are also skip lists (their evidence pages and
their synthesis pairs), set 9's REJECTED_PAGES and REJECTED_PAIRS are kept (so this set skips
everything the set-9 script skips), and the `none` questions are on topics none of the earlier
sets' `none` questions cover. Its question ids start with K (K01.., KY1.., KN1..), as asked; note
that heldout-2.json also uses K01..K11, KY1..KY3, KN1 and KN2, so a tool that merges sets must keep
each question's set with its qid.

    python3 bench/questions/draw-answers-heldout-10.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261205, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json, answers-heldout-2.json, answers-heldout-3.json, answers-heldout-4.json,
   answers-heldout-5.json, answers-heldout-6.json, answers-heldout-7.json, answers-heldout-8.json
   or answers-heldout-9.json, if it was drawn before, or if it is in REJECTED_PAGES (judged by
   reading the page: reference list, mostly a table / figure, table of contents, no prose sentence
   stating a fact). Draw until 16 are kept. Six pages were rejected in this draw (five reference
   lists, and the intrinsic-dimensionality paper's page 11, equations only, which set 1 had also
   rejected but which no later script carried). The draw kept three pages of the KaLMA benchmark
   paper (2310.05634: 3, 9, 10) and two each of CiteSee and Step-Back Prompting; they were kept
   as drawn.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json .. answers-heldout-9.json (USED_PAIRS_FROM) or
   in REJECTED_PAIRS (no clear use / extension / comparison in the text, or no page left to
   choose) are skipped; the first 4 are kept. The evidence page in each paper was then chosen by
   hand: a page (not already evidence anywhere, nor a single page of this set) where the citing
   paper uses / compares to the other, and the other paper's page that states the fact the
   question joins to it. Ten pairs were rejected in this draw (their entries below say why; one,
   LoRA and BERT, repeats set 1's rejection, which no later script carried); in most of them the
   citing paper names the other only on pages that are already evidence. Seven earlier sets'
   rejections came up too. Hand choices forced by pages already being evidence or taken by this
   set:
   - KY1 (ELMo, S2ORC): S2ORC compares its size with ELMo's training data only in its appendix
     (page 14, Table 9 and the sentence estimating S2ORC's tokens); ELMo's page on its own
     pre-training data (page 4, the 1B Word Benchmark) is evidence already, so its page 12 is
     used, where fine-tuning the biLM on a task's own text lowers perplexity.
   - KY2 (the Transformer, RWKV): RWKV's limitations (page 9) compare its single-vector recurrence
     with the Transformer's full attention; the Transformer paper's pages not yet evidence are
     references (11, 12) and attention figures (14, 15), so its quote is Figure 4's caption (page
     14: heads apparently involved in anaphora resolution), as set 9 used a caption for DPR.
   - KY3 (BERT, S2ORC): S2ORC's SciBERT model uses BERT's code and configuration on page 7, but
     that page is a single page of this set (K07), so its page 15 is used (which BERT layers give
     the embeddings it visualises); of BERT's pages not yet evidence (9, 10, 11, 15) only page 9
     (the feature-based NER experiment) says anything about its layers, and it is used.
   - KY4 (Logic-LM, the self-correction survey): the survey cites Logic-LM on pages 2, 9 and 11
     (evidence already) and lists it as a row of Table 2 (page 6, no sentence); page 3, where it
     cites it as Pan et al. (2023), its only Pan et al. 2023 reference, among works that verify
     reasoning and rectify errors against unfaithful reasoning, is used, with Logic-LM's page 7
     (its average gain over chain-of-thought and the faithfulness claim; Logic-LM's page 3 is
     K02's).
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (streamflow and flood forecasting, deepfake / face-forgery
   detection, keyword spotting on microcontrollers, autonomous drone navigation) are not those of
   the earlier sets' `none` questions (nor those of heldout.json, heldout-2.json and
   dev-questions.json). Topics first considered and dropped because the corpus mentions them:
   diabetic retinopathy (ViT's VTAB includes Retinopathy), poker (a STaR CommonsenseQA example),
   chess (DeepSeek-R1 contrasts its search with chess), malware (Codex's misuse analysis) and
   genomics (a BEIR example document); robotic grasping was dropped because "grasp" occurs
   (as a verb) and "robot" is frequent.
4. if answers-heldout-10.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 9's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-9 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set9 = base.load_script("draw-answers-heldout-9.py")

SEED = 20261205

# Pages drawn but not usable (read by hand on 2026-11-28); four of the earlier sets' (2305.13048 p10, 2004.13313 p12 and
# 2010.11929 p12, reference lists, and 1503.02531 p9, acknowledgments and references) came up in this draw too.
REJECTED_PAGES = {
    **set9.REJECTED_PAGES,
    ("1906.04341", 11): "reference list only",
    ("2012.13255", 11): "equations only (the appendix's generalization bound), no prose sentence stating a fact (also rejected in set 1)",
    ("1804.08838", 11): "reference list only",
    ("2401.18059", 12): "reference list only",
    ("2305.13048", 11): "reference list only",
    ("2310.05634", 11): "reference list only",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, and pairs whose only pages of
# use are already evidence, so that no page can be chosen for them (set 1's LoRA and BERT came up in this draw too, and
# seven of the rejections kept from sets 2-8).
REJECTED_PAIRS = {
    **set9.REJECTED_PAIRS,
    ("2205.14135", "2305.13048"): "RWKV names FlashAttention only on its page 2 (among recent works that share similarities with its chunked computation scheme, already evidence) and in its references; FlashAttention does not cite RWKV: no page can be chosen",
    ("2312.10997", "2405.16506"): "GRAG cites the RAG survey only in its introduction's citation list for RAG (page 1, already evidence) and in its references; the survey does not name GRAG (no use or comparison)",
    ("1810.04805", "2310.06117"): "Step-Back Prompting cites BERT only in its introduction's citation list of Transformer-based LLMs and in its references (no use or comparison)",
    ("1810.04805", "2205.01068"): "OPT names BERT only in a related-work sentence on the history of LLMs and in its references (no use or comparison; cf. the Transformer and OPT, rejected in set 6)",
    ("1804.08838", "2106.09685"): "LoRA takes its inspiration from Li et al.'s low intrinsic dimension only on its page 2, already evidence (its page 9's Li et al. 2018b is another paper): no page can be chosen",
    ("2005.11401", "2302.00083"): "In-Context RALM uses RAG only on its page 3 (related work) and page 10 (its reranker's loss follows RAG's), both already evidence; RAG does not cite it: no page can be chosen",
    ("1810.04805", "2106.09685"): "LoRA names BERT only as the recipe RoBERTa optimized and the model DeBERTa varies (page 7, already evidence), in related work (pages 8 and 9) and in its references; its experiments use RoBERTa, DeBERTa and GPT (no use or comparison; also rejected in set 1)",
    ("1706.03762", "2005.11401"): "RAG uses the Transformer only as the architecture of its BART generator (pages 2 and 3, already evidence) and in its references; the Transformer paper's pages not yet evidence are references and attention figures: no page can be chosen",
    ("2205.14135", "2401.18059"): "RAPTOR names FlashAttention only on its page 2 (among the advances that lengthen context windows, already evidence) and in its references; no use or comparison, and no page could be chosen",
    ("2107.03374", "2310.07609"): "QACheck compares with Codex only on its page 6 (a baseline in Table 1, already evidence) and in its references; Codex does not cite it: no page can be chosen",
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "KN1": ["streamflow", "rainfall", "runoff", "flood", "hydrolog"],
    "KN2": ["deepfake", "face forgery", "faceforensics", "face swap", "face-swap"],
    "KN3": ["keyword spotting", "wake word", "wake-word", "speech commands", "microcontroller"],
    "KN4": ["quadrotor", "drone", "uav", "unmanned aerial"],
}

# Set 9's skip lists, and set 9 itself.
EXISTING = [*set9.EXISTING, os.path.join(HERE, "answers-heldout-9.json")]
USED_PAIRS_FROM = [*set9.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-9.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-10.json")

if __name__ == "__main__":
    base.main()

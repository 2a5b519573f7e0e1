#!/usr/bin/env python3
"""Re-draw the evidence pages of bench/questions/answers-heldout-11.json and check the set.

answers-heldout-11.json is an eleventh held-out set for *offline answer quality*, written 2026-11-28
before the answer code was changed further. Its question writer did not read lib/, app/, components/, db/,
cli/, bench/research.ts or bench/fit-answer-weights.ts. Same protocol as draw-answers-heldout.py,
except: seed 20261206 (the seed is simply the next one after set 10's 20261205),
answers-heldout.json, answers-heldout-2.json .. answers-heldout-10.json are also skip lists (their
evidence pages and their synthesis pairs), set 10's REJECTED_PAGES and REJECTED_PAIRS are kept (so
this set skips everything the set-10 script skips), and the `none` questions are on topics none of
the earlier sets' `none` questions cover. Its question ids start with L (L01.., LY1.., LN1..); no
other set uses L.

    python3 bench/questions/draw-answers-heldout-11.py [--corpus ../shared/corpus]

needs `pdftotext` (poppler-utils). It prints

1. the single-question pages: seed 20261206, `random.Random(SEED)`; pick a paper uniformly from
   papers.json (file order), then a page uniformly in 2..min(12, pages). A draw is skipped if the
   (paper, page) is evidence in dev-questions.json, heldout.json, heldout-2.json,
   answers-heldout.json or answers-heldout-2.json .. answers-heldout-10.json, if it was drawn
   before, or if it is in REJECTED_PAGES (judged by reading the page: reference list, mostly a
   table / figure, table of contents, no prose sentence stating a fact). Draw until 16 are kept.
   Ten pages were rejected in this draw (eight reference lists, FlashAttention's page 11, the end of
   its acknowledgments and the start of its references, and QACheck's page 10, prompt templates
   only). The draw kept two pages each of ELMo (3, 6),
   PaSa (3, 7) and ResNet (3, 10); they were kept as drawn.
2. the synthesis pairs: candidate pairs are papers A, B where B's title (its part before ':' if
   that part is longer than 15 characters, first 8 words, lowercased, punctuation removed) occurs
   in A's text; unordered pairs are sorted and shuffled with a fresh `random.Random(SEED)`; pairs
   that are synthesis pairs of answers-heldout.json .. answers-heldout-10.json (USED_PAIRS_FROM) or
   in REJECTED_PAIRS (no clear use / extension / comparison in the text, or no page left to
   choose) are skipped; the first 4 are kept. The evidence page in each paper was then chosen by
   hand: a page (not already evidence anywhere, nor a single page of this set) where the citing
   paper uses / compares to the other, and the other paper's page that states the fact the
   question joins to it. Fifteen pairs were rejected in this draw (their entries below say why):
   in most the citing paper names the other only in an introduction's citation list, only in a
   table, or only on pages that are already evidence, and BERT's and the Transformer's pages not
   yet evidence are references and appendix figures, so that no pair with them could be given a
   page. Sixteen earlier sets' rejections came up too. Hand choices:
   - LY1 (LoRA, GRAG): GRAG names LoRA on pages 2 and 6 (already evidence), 7 (only as row labels
     of Table 2, no sentence) and 12 (a single page of this set, L02); its page 8 is used, whose
     conclusion states that a frozen LLM enhanced by GRAG outperforms fine-tuned LLMs (the
     LoRA-fine-tuned baselines of Table 2) at a reduced training cost, with LoRA's page 1 (its
     abstract: trainable parameters and GPU memory against full fine-tuning of GPT-3 175B).
   - LY2 (ResNet, OPT): OPT names ResNet only in the caption of Figure 11 (page 28, a paper-writing
     example whose prompt was inspired by the first sentence of the ResNet paper) and in its
     references, so its quote is the caption, as sets 9 and 10 used captions; ResNet's page 1 (the
     abstract's opening sentences) is the other page.
   - LY3 (ResNet, ViT): ViT's page naming He et al.'s ResNet as its baseline CNN (5) is already
     evidence; its page 8 (the scaling study: ViTs against ResNets at equal pre-training compute)
     is used, with ResNet's page 7 (the 152-layer ResNet's FLOPs against VGG's); ResNet's pages 3
     and 10 are single pages of this set and page 1 is LY2's.
   - LY4 (BEIR, In-Context RALM): In-Context RALM cites BEIR (Thakur et al., 2021) on its page 6,
     where BM25 beats off-the-shelf dense retrievers; BEIR's page 1 (its abstract's findings) is
     the other page.
3. for `none` questions: how often each key term occurs in the pdftotext text of all 40 PDFs
   (must be 0). Their topics (EEG motor-imagery decoding for brain-computer interfaces,
   reinforcement learning for chip macro placement, human activity recognition from wearable
   inertial sensors, neural text-to-speech) are not those of the earlier sets' `none` questions
   (nor those of heldout.json, heldout-2.json and dev-questions.json). Topics first considered and
   dropped because the corpus mentions them: gravitational-wave detection (Step-Back's physics
   examples mention gravitational waves), earthquake and seismic forecasting (SEAL's example
   queries) and poverty mapping from satellite imagery (ViT's VTAB includes satellite imagery).
   "eeg" is not among LN1's terms only because it occurs inside an author's name (Keegan).
4. if answers-heldout-11.json exists: every quote must be a substring of its page's pdftotext text
   after normalising whitespace and case, every page within the PDF, types and counts as above.
"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# The protocol and its checks are draw-answers-heldout.py's; this set differs only in what follows. Set 10's rejected
# pages and pairs are kept (its script is loaded for them), so that this set skips everything the set-10 script skips.
_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set10 = base.load_script("draw-answers-heldout-10.py")

SEED = 20261206

# Pages drawn but not usable (read by hand on 2026-11-28); three of the earlier sets' (2401.18059 p12, 2204.10628 p12 and 2005.11401
# p11, all reference lists) came up in this draw too.
REJECTED_PAGES = {
    **set10.REJECTED_PAGES,
    ("2310.06117", 10): "reference list only",
    ("2405.16506", 9): "reference list only",
    ("2005.11401", 12): "reference list only",
    ("acl2023-programfc", 10): "reference list only",
    ("2012.13255", 9): "reference list only",
    ("acl2020-s2orc", 10): "reference list only",
    ("2310.07609", 10): "prompt templates only (Appendix A, the claim verifier, question generator, validator and reasoner prompts); no prose sentence stating a fact",
    ("2204.10628", 11): "reference list only",
    ("2310.07609", 9): "reference list only",
    ("2205.14135", 11): "the end of the acknowledgments and the start of the reference list; no prose sentence stating a fact",
}

# Pairs that cite each other but where neither uses / extends / compares to the other, and pairs whose only pages of
# use are already evidence, so that no page can be chosen for them (sixteen of the earlier sets' rejections came up in
# this draw too).
REJECTED_PAIRS = {
    **set10.REJECTED_PAIRS,
    ("1706.03762", "2310.06117"): "Step-Back Prompting cites the Transformer only in its introduction's opening sentence on Transformer-based LLMs and in its references (no use or comparison; cf. BERT and Step-Back Prompting, rejected in set 10)",
    ("1906.04341", "2004.14255"): "PreTTR cites Clark et al. only in a footnote of its page 4 (the separator token acting as a no-op for self-attention, already evidence) and in its references; Clark et al. do not cite PreTTR: no page can be chosen",
    ("2109.08668", "2305.13048"): "RWKV adopts Primer's squared ReLU only on its page 5 (the channel-mixing block, already evidence) and in its references; Primer does not cite RWKV: no page can be chosen",
    ("1810.04805", "2104.08663"): "BEIR cites BERT only in its introduction (page 1: pre-trained Transformers like BERT have become popular in IR) and in its references (no use or comparison); BERT's pages not yet evidence are references and the GLUE appendix",
    ("1802.05365", "1906.04341"): "Clark et al. cite ELMo only in their introduction's citation list of pre-trained language models (page 1, already evidence) and in their references (no use or comparison); ELMo does not cite them",
    ("2302.00083", "2312.10997"): "the RAG survey names In-Context RALM only as a row of its Table I (page 6) and in the method lists of Table II (page 13), with no sentence about it (no use or comparison); In-Context RALM does not cite the survey",
    ("2004.04906", "2005.11401"): "RAG uses DPR as its retriever, but DPR's pages not yet evidence are references (10, 11): no page can be chosen",
    ("2302.00083", "2401.18059"): "RAPTOR cites In-Context RALM only in its introduction's citation list for retrieval augmentation (page 1) and in its references (no use or comparison; cf. RAG and RAPTOR, rejected in set 1); In-Context RALM does not cite RAPTOR",
    ("2312.10997", "2401.18059"): "the RAG survey names RAPTOR only as a row of its Table I (page 6, a recursive retrieval process) and in the method lists of Table II (page 13), with no sentence about it (no use or comparison); RAPTOR does not cite the survey",
    ("1810.04805", "2004.13313"): "EARL initialises its modules from BERT's weights (page 7) and uses BERT rankers as baselines (page 8), but BERT's pages not yet evidence are references (10, 11) and the GLUE appendix with its fine-tuning figure (15), none stating a fact that EARL's use joins to: no page can be chosen",
    ("1802.05365", "1810.04805"): "BERT compares with ELMo on many pages (1, 2, 6-9, 13, 14), all already evidence; its pages not yet evidence are references (10, 11) and the GLUE appendix (15), which does not name ELMo; ELMo does not cite BERT: no page can be chosen",
    ("1810.04805", "2302.00083"): "In-Context RALM uses a frozen BERT-base as a dense retriever (pages 5, 6 and 15), but BERT's pages not yet evidence are references (10, 11) and the GLUE appendix with its fine-tuning figure (15), none stating a fact that this use joins to: no page can be chosen",
    ("1802.05365", "1906.08237"): "XLNet compares with ELMo's shallow concatenation of forward and backward language models only on its page 7 (already evidence), otherwise it cites ELMo in citation lists (page 1) and its references; ELMo does not cite XLNet: no page can be chosen",
    ("1706.03762", "2205.14135"): "FlashAttention computes the Transformer's exact attention, but the Transformer paper's pages not yet evidence are references (11, 12) and an attention figure (15, heads related to sentence structure), none stating a fact that this use joins to: no page can be chosen (cf. the Transformer and RAG, rejected in set 10)",
    ("2302.00083", "2405.16506"): "GRAG cites In-Context RALM only in its introduction's citation list for RAG (page 1, already evidence) and in its references (no use or comparison; cf. the RAG survey and GRAG, rejected in set 10); In-Context RALM does not cite GRAG",
}

# Key terms of the `none` questions; none may occur in the corpus.
NONE_TERMS = {
    "LN1": ["electroencephalog", "brain-computer", "brain–computer", "motor imagery", "bci"],
    "LN2": ["chip placement", "macro placement", "netlist", "floorplan", "wirelength"],
    "LN3": ["activity recognition", "accelerometer", "gyroscope", "wearable", "inertial"],
    "LN4": ["text-to-speech", "speech synthesis", "vocoder", "tacotron", "mean opinion score", "spectrogram"],
}

# Set 10's skip lists, and set 10 itself.
EXISTING = [*set10.EXISTING, os.path.join(HERE, "answers-heldout-10.json")]
USED_PAIRS_FROM = [*set10.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-10.json")]

# this set's settings replace the protocol's
base.continue_with(globals(), "answers-heldout-11.json")

if __name__ == "__main__":
    base.main()

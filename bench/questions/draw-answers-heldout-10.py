#!/usr/bin/env python3
"""DRAFT"""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))

_spec = importlib.util.spec_from_file_location("draw_answers_heldout", os.path.join(HERE, "draw-answers-heldout.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
set9 = base.load_script("draw-answers-heldout-9.py")

SEED = 20261205

REJECTED_PAGES = {
    **set9.REJECTED_PAGES,
    ("1906.04341", 11): "reference list only",
    ("2012.13255", 11): "equations only (the appendix's generalization bound), no prose sentence stating a fact (also rejected in set 1)",
    ("1804.08838", 11): "reference list only",
    ("2401.18059", 12): "reference list only",
    ("2305.13048", 11): "reference list only",
    ("2310.05634", 11): "reference list only",
}

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
    ("emnlp2023f-logic-lm", "tacl2024-self-correction-survey"): "the survey describes Logic-LM only on its pages 2 and 9 (already evidence); its page 6 lists it only as a row of Table 2, with no sentence to quote, and Logic-LM does not cite the survey: no page can be chosen",
    ("1802.05365", "1810.04805"): "BERT compares with ELMo on pages 1, 2, 6, 7, 8, 13 and 14 (already evidence) and on page 9 (Table 7's feature-based NER results), which this set's BERT and S2ORC question (KY3, drawn before this pair) uses; ELMo does not cite BERT: no page can be chosen",
}

NONE_TERMS = {
}

EXISTING = [*set9.EXISTING, os.path.join(HERE, "answers-heldout-9.json")]
USED_PAIRS_FROM = [*set9.USED_PAIRS_FROM, os.path.join(HERE, "answers-heldout-9.json")]

base.continue_with(globals(), "answers-heldout-10.json")

if __name__ == "__main__":
    base.main()

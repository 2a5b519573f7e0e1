import { describe, expect, it } from "vitest";
import { notProse } from "./prose";

describe("notProse", () => {
  it("keeps prose: reasons, results with numbers, definitions, citations of other work", () => {
    for (const s of [
      "We suspect that for large values of the key dimension, the dot products grow large in magnitude, pushing the softmax function into regions where it has extremely small gradients.",
      "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task, improving over the existing best results by over 2 BLEU.",
      "Multi-head attention allows the model to jointly attend to information from different representation subspaces at different positions.",
      "Devlin et al. (2019) show that a bidirectional encoder pretrained on masked tokens transfers well to many tasks.",
      "LoRA freezes the pretrained weights and injects trainable rank decomposition matrices into each layer.",
      "Tide-aware scheduling cut packet loss from thirty percent to four percent across three seasons.",
    ]) {
      expect(notProse(s), s).toBeNull();
    }
  });

  it("drops figure and table label runs, axis ticks and formulas split into tokens", () => {
    expect(notProse("0 20 40 60 80 100 Accuracy ( % ) 0.2 0.4 0.6 0.8 1.0 Steps ( k )")).not.toBeNull();
    expect(notProse("BERT RoBERTa XLNet ALBERT ELECTRA DeBERTa GPT-2 T5 Params Accuracy Speed")).not.toBeNull();
    expect(notProse("Q K T √ d k V softmax ( ) = W O h i concat head 1 head h")).not.toBeNull();
    expect(notProse("The results improve steadily over training, as the plot shows. 0.1 0.2 0.3 0.4 0.5 0.6")).toBe(
      "label_run",
    );
  });

  it("keeps a sentence with a formula or symbols inline, or with citations in parentheses", () => {
    for (const s of [
      "When deployed in production, we can explicitly compute and store W = W0 + BA and perform inference as usual.",
      "In the Transformer architecture, there are four weight matrices in the self-attention module (Wq , Wk, Wv , Wo) and two in the MLP module.",
      "Various strategies of correction have been proposed, including self-training (Huang et al., 2022; Bai et al., 2022b), generate-then-rank (He et al., 2023; Weng et al., 2023), feedback-guided decoding (Yang et al., 2022a; Xie et al., 2023).",
    ]) {
      expect(notProse(s), s).toBeNull();
    }
    // two axes' ticks, each run too short alone, are labels; numbers listed with their commas are prose
    expect(
      notProse(
        "The greatest drop in recall occurred between the ground truth (57.1) and 80 accuracy gold 80 60 40 20 Retrieval Accuracy 20 40 60 80 Score",
      ),
    ).toBe("label_run");
    expect(
      notProse(
        "In particular four attention heads (in layers 2, 4, 7, and 8) on average put most of their attention on the previous token and five (in layers 1, 2, 2, 3, and 6) on the next.",
      ),
    ).toBeNull();
    // a run of numbers is ticks or cells, whatever prose is around it; a formula alone is not prose
    expect(notProse("The scores of the model are reported for each of the settings 0.1 0.2 0.3 0.4 0.5 here.")).toBe(
      "label_run",
    );
    expect(
      notProse("(Huang et al., 2022; Bai et al., 2022b) (He et al., 2023) (Yang et al., 2022a) 2023 data"),
    ).not.toBeNull();
  });

  it("drops author lists, affiliations, footnotes, reference entries and running heads", () => {
    expect(notProse("Ashish Vaswani Noam Shazeer Niki Parmar Jakob Uszkoreit Llion Jones Aidan Gomez")).not.toBeNull();
    expect(
      notProse("Google Brain avaswani@google.com Google Research noam@google.com University of Toronto"),
    ).not.toBeNull();
    expect(notProse("∗Equal contribution. Listing order is random and was decided by a coin flip.")).toBe("footnote");
    expect(notProse("1University of Washington, Seattle 2Allen Institute for Artificial Intelligence")).not.toBeNull();
    expect(
      notProse("J. Devlin, M. Chang, K. Lee, and K. Toutanova. BERT: Pre-training of deep bidirectional transformers."),
    ).toBe("reference_entry");
    expect(
      notProse("In Proceedings of the 2019 Conference of the North American Chapter, pages 4171–4186, 2019."),
    ).toBe("reference_entry");
    expect(notProse("[12] Some Author and Other Author. A study of things that matter a lot. 2020.")).toBe(
      "reference_entry",
    );
    expect(notProse("Published as a conference paper at ICLR 2021 and we show that it works")).toBe("running_head");
    expect(notProse("arXiv:2106.09685v2 [cs.CL] 16 Oct 2021 where the model is described in detail")).toBe(
      "running_head",
    );
  });

  it("drops fragments too short to stand alone, and word lists without a verb", () => {
    expect(notProse("See Table 2.")).toBe("too_short");
    expect(notProse("Training data and batching for the big models of the base configuration")).toBe("no_verb");
    expect(notProse("Results of the small models on the benchmark tasks for each of the datasets")).toBe("no_verb");
    expect(notProse("Accuracy of the Llama family models on the benchmark tasks in the study")).toBe("no_verb");
    expect(notProse("Results with a random seed of the base configuration on all the tasks")).toBe("no_verb");
  });

  it("finds a verb in -s by where it stands: before its object, after an adverb", () => {
    for (const s of [
      "However, RLHF typically uses tens of thousands of human preference labels.",
      "In one approach, RAG-Sequence, the model uses the same document to predict each target token.",
      "Notably, the average pass@1 score on AIME 2024 shows a significant increase over the first checkpoint.",
      "So with the right bias, the distilled model gets 98.6% of the test 3s correct.",
      "On the harder split our retriever consistently outperforms sparse retrieval on recall.",
      "In Table 5, we show that removing NSP hurts performance significantly on QNLI, MNLI, and SQuAD 1.1.",
      "For all our experiments we use float32 precision and the same random seed.",
    ]) {
      expect(notProse(s), s).toBeNull();
    }
  });
  it("forgives a run of symbols only inside prose: not at the sentence's edge, not in a caption, not in strict mode", () => {
    const inside =
      "When deployed in production, we can explicitly compute and store W = W0 + BA and perform inference as usual.";
    expect(notProse(inside)).toBeNull();
    expect(notProse(inside, { strictLabelRuns: true })).toBe("label_run");
    // the same kind of run ending the sentence, or opening it, is a table row or a legend, not an inline formula
    expect(notProse("The variants of the method compare as follows on the five tasks: ✓ ✓ ✗ ✓ ✓")).toBe("label_run");
    expect(notProse("✓ ✓ ✗ ✓ ✓ marks the variants of the method that we compare on the five tasks")).toBe("label_run");
    // a caption's run of symbols is its table's, whatever prose surrounds it
    expect(notProse("Table 3: Results where we compare W = W0 + BA and the other variants on the tasks.")).toBe(
      "label_run",
    );
    // a sentence that opens with a figure's name is no caption
    expect(notProse("Figure 2 shows that we can store W = W0 + BA and perform inference as usual.")).toBeNull();
    // few function words around the run (a fifth of the words): a line of labels and settings, not prose
    expect(
      notProse("Adapted weight W = W0 + BA of the frozen pretrained matrix and trainable low-rank factors in layers"),
    ).toBe("label_run");
  });

  it("counts numbers in every long run, not only in the first of the longest", () => {
    // the first run of five (symbols) has no numbers, the second (ticks) has five
    expect(
      notProse("We store W = W0 + BA and then plot how the loss falls over the steps 10 20 30 40 50 of the run."),
    ).toBe("label_run");
  });

  it("does not join cited names across their citations into a capitalised run", () => {
    expect(
      notProse(
        "We compare against BERT (Devlin et al., 2019), RoBERTa (Liu et al., 2019), XLNet (Yang et al., 2019), ALBERT (Lan et al., 2020), ELECTRA (Clark et al., 2020), DeBERTa (He et al., 2021), GPT-2 (Radford et al., 2019) as baselines.",
      ),
    ).toBeNull();
  });
});

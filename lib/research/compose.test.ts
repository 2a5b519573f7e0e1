import { describe, expect, it } from "vitest";
import { citedClaims, dropClaims, type EvidencePassage, quotableSentences, verifyCitations } from "./citations";
import {
  absentFromLibrary,
  absentSubjects,
  namedTerms,
  pickSentences,
  questionKind,
  questionParts,
  quotable,
  quotedIn,
  synthesizeExtractive,
} from "./compose";
import { lexicalRelevance } from "./relevance";
import { FEATURES, type ScoreWeights } from "./sentence-score";

function passage(paperId: string, page: number, text: string, title = `Paper ${paperId}`): EvidencePassage {
  return { chunkUid: `${paperId}-${page}`, paperId, title, page, charStart: 0, charEnd: text.length, text };
}

/** Each sentence is quoted whole: no heading taken off it, no sentence end found inside it. */
function staysWhole(sentences: string[]): void {
  for (const sentence of sentences) expect(quotableSentences(sentence).map((x) => x.text)).toEqual([sentence]);
}

// ten sentences of one paper that all bear on "how accurate are low-rank adapters at inference?"
const ACCURACY = [
  "Low-rank adapters keep inference accuracy on translation within a point of full tuning.",
  "On summarisation, adapters lose some accuracy at inference when the rank is very small.",
  "Accuracy at inference grows with the adapters' rank until about eight.",
  "Question answering shows the adapters matching the accuracy of the full model at inference.",
  "Code generation is where low-rank adapters trail most in accuracy.",
  "Dialogue benchmarks place the adapters' inference accuracy above the prompt-tuned baseline.",
  "Low-rank adapters reach their inference accuracy with a tenth of the trainable parameters.",
  "Vision tasks show the adapters' accuracy at inference close to full tuning too.",
  "With adapters of rank one, inference accuracy drops on every task.",
  "Adapters trained longer gain little inference accuracy.",
];

// the reason for the scaling is stated by a sentence that shares no word with "scaled": it follows the finding
const ATTENTION = passage(
  "1706.03762v5",
  4,
  "While for small values of the key dimension the two mechanisms perform similarly, additive attention outperforms " +
    "dot product attention without scaling for larger values. We suspect that for large values of the key " +
    "dimension, the dot products grow large in magnitude, pushing the softmax function into regions where it has " +
    "extremely small gradients. Multi-head attention allows the model to jointly attend to information from " +
    "different representation subspaces at different positions.",
);
// a contributions footnote that repeats the question's words, and figure labels run into a sentence
const FRONT = passage(
  "1706.03762v5",
  1,
  "We propose a new network architecture based solely on attention mechanisms. ∗Equal contribution. Noam proposed " +
    "scaled dot-product attention, multi-head attention and the parameter-free position representation. Niki " +
    "designed and evaluated countless model variants of multi-head attention.",
);
const LABELS = passage(
  "2109.08668v1",
  6,
  "Scaled Multi Head Attention 0.2 0.4 0.6 0.8 1.0 Steps BLEU Multi-head scaled attention results across steps.",
);

describe("questionKind and questionParts", () => {
  it("reads what a question asks for", () => {
    expect(questionKind("Why is attention scaled?")).toBe("reason");
    expect(questionKind("How much does LoRA reduce the trainable parameters?")).toBe("quantity");
    expect(questionKind("Which score did the model reach on GLUE?", "performance")).toBe("quantity");
    expect(questionKind("How does BERT compare with GPT on SQuAD?")).toBe("comparison");
    expect(questionKind("How does multi-head attention work?")).toBe("mechanism");
    // "improve on" asks for a comparison, even when the analysis reads the question's intent as performance
    expect(questionKind("Which methods in my library improve on BERT?", "performance")).toBe("comparison");
  });

  it("does not take a citation's year or a table's number for the number a 'how much' question asks", () => {
    const evidence = [
      passage(
        "A",
        3,
        "We implemented the adapters in the Widget library (Wolf et al., 2019), as described in Table 2. " +
          "The adapters cut the trainable parameters by a factor of ten thousand.",
      ),
    ];
    const lead = pickSentences("How much do the adapters cut the trainable parameters?", evidence, {
      intent: "performance",
      keywords: [],
      answerKindOnly: true,
      maxSentences: 1,
    });
    expect(lead[0]?.text).toContain("The adapters cut");
    const counted = pickSentences(
      "How much do the adapters cut the trainable parameters by, in percent?",
      [
        passage(
          "A",
          3,
          "We implemented the adapters in the Widget library (Wolf et al., 2019), as Table 2 shows. " +
            "The adapters cut the trainable parameters by 99.9% on every task.",
        ),
      ],
      { intent: "performance", keywords: [], answerKindOnly: true, maxSentences: 1 },
    );
    expect(counted[0]?.text).toContain("99.9%");
  });

  it("splits a two-part question, the second keeping the first as its context", () => {
    expect(questionParts("How does the Transformer's multi-head attention work and why is it scaled?")).toEqual([
      { part: "How does the Transformer's multi-head attention work", context: "" },
      { part: "why is it scaled?", context: "How does the Transformer's multi-head attention work" },
    ]);
    expect(questionParts("What is LoRA?")).toHaveLength(1);
  });
});

describe("synthesizeExtractive", () => {
  const question = "How does the Transformer's multi-head attention work and why is it scaled?";
  const md = synthesizeExtractive(question, [FRONT, LABELS, ATTENTION], {
    intent: "technical",
    keywords: ["Transformer's", "multi-head", "attention", "scaled"],
  });
  const answer = md.split("## Supporting evidence")[0] ?? "";

  it("answers each part, the 'why' with the sentence that gives the reason, cited to its page", () => {
    expect(answer).toContain("Multi-head attention allows the model to jointly attend");
    expect(answer).toContain("pushing the softmax function into regions where it has extremely small gradients.");
    expect(answer).toMatch(/extremely small gradients\. \[1706\.03762v5, page 4\]/);
  });

  it("never quotes a footnote or a run of figure labels", () => {
    expect(md).not.toContain("Noam proposed");
    expect(md).not.toContain("Niki designed");
    expect(md).not.toContain("0.2 0.4");
  });

  it("cites every quoted sentence, and every citation is supported by its passage", () => {
    // (the italic note on what the library lacks is the app's, not a claim of a paper)
    for (const claim of citedClaims(md).filter((c) => !c.claim.startsWith("_"))) {
      expect(claim.citations.length, claim.claim).toBeGreaterThan(0);
    }
    const cs = verifyCitations(md, [FRONT, LABELS, ATTENTION]);
    expect(cs.length).toBeGreaterThan(0);
    expect(cs.every((c) => c.supported)).toBe(true);
  });

  it("says which named terms of the question the library never mentions", () => {
    const partial = synthesizeExtractive("Does multi-head attention help BERT on GLUE?", [ATTENTION], {
      intent: "technical",
      keywords: ["multi-head", "attention", "BERT", "GLUE"],
    });
    expect(partial).toContain("none mentions BERT and GLUE");
    expect(namedTerms("How does LoRA compare with prefix tuning on GLUE?")).toEqual(["LoRA", "GLUE"]);
  });

  it("leads a 'how much' question with a sentence that has the number", () => {
    const evidence = [
      passage(
        "2106.09685v2",
        2,
        "LoRA reduces the number of trainable parameters considerably compared to full fine-tuning of the model.",
      ),
      passage(
        "2106.09685v2",
        5,
        "Compared to GPT-3 175B fine-tuned with Adam, LoRA reduces the number of trainable parameters by 10,000 times.",
      ),
    ];
    const out = synthesizeExtractive("How much does LoRA reduce the number of trainable parameters?", evidence, {
      intent: "performance",
      keywords: ["LoRA", "trainable", "parameters"],
    });
    const lead = out.split("\n\n")[1] ?? "";
    expect(lead).toContain("10,000 times");
  });

  it("merges a near-duplicate statement from another paper into one sentence with both citations", () => {
    const a = passage(
      "A",
      3,
      "Low-rank adapters add no inference latency because the update is merged into the weights.",
    );
    const b = passage(
      "B",
      7,
      "Low-rank adapters add no inference latency because the update is merged into the weights.",
    );
    const picked = pickSentences("Do low-rank adapters add inference latency?", [a, b], {
      intent: "technical",
      keywords: ["low-rank", "adapters", "inference", "latency"],
    });
    expect(picked).toHaveLength(1);
    expect(picked[0]?.alsoIn?.map((p) => p.paperId)).toEqual(["B"]);
  });

  it("gives each of the retrieval's top passages its best sentence, even one that shares fewer of the question's words", () => {
    // the search ranked B's passage first; its sentence scores under half of A's, but not much under
    const evidence = [
      passage("B", 5, "Once deployed, adapters are folded into the weights before serving."),
      passage(
        "A",
        2,
        "Low-rank adapters merge the update into the frozen weights and add no inference latency once deployed.",
      ),
      passage("F1", 1, "Adapters with a low rank show no added inference latency in our measurements."),
      passage("F2", 1, "Inference latency of the adapters stays flat as the rank grows."),
      passage("F3", 1, "Adding adapters changes inference latency by less than a millisecond."),
    ];
    const picked = pickSentences("Do low-rank adapters add inference latency once deployed?", evidence, {
      intent: "technical",
      keywords: [],
      maxSentences: 3,
    });
    expect(picked.map((p) => p.passage.paperId)).toEqual(["A", "F1", "B"]);
  });

  it("quotes up to five sentences of one paper", () => {
    const text = ACCURACY.slice(0, 6).join(" ");
    const picked = pickSentences("How accurate are low-rank adapters at inference?", [passage("A", 1, text)], {
      intent: "technical",
      keywords: [],
    });
    expect(picked).toHaveLength(5);
  });

  it("takes the best sentences overall before the other top passages' when asked (bestFirst)", () => {
    const evidence = [
      passage(
        "A",
        1,
        "Low-rank adapters add no inference latency once merged into the weights. " +
          "Merged low-rank adapters keep inference latency equal to the base model.",
      ),
      passage("B", 2, "Merged low-rank adapters had some inference latency in early work."),
      passage("C", 3, "Inference latency of low-rank adapters depends on the batch size once merged."),
    ];
    const ask = (bestFirst: number) =>
      pickSentences("Do low-rank adapters add inference latency once merged?", evidence, {
        intent: "technical",
        keywords: [],
        maxSentences: 3,
        bestFirst,
      }).map((p) => p.passage.paperId);
    expect(ask(0)).toEqual(["A", "B", "C"]);
    expect(ask(2)).toEqual(["A", "A", "B"]);
  });

  describe("with the scorer's weights given", () => {
    // with only the sentence's length weighed, scores are ±log(1 + words) / 4: the order is known without the fit
    const noWeights = Object.fromEntries(FEATURES.map((k) => [k, 0])) as unknown as ScoreWeights;
    const W = (
      "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec " +
      "romeo sierra tango uniform victor whiskey xray yankee zulu amber basalt cobalt dune ember fjord granite " +
      "harbor iris jasper kelp lagoon marble nectar onyx pebble quartz reef slate tundra umber vale willow yarrow"
    ).split(" ");
    /** A sentence of n + 2 words ("latency", "measured" and n of W's from `from` on). */
    const on = (from: number, n: number) =>
      `The latency was measured on ${W.slice(from, from + n).join(", ")} and the others.`;
    const ids = (evidence: EvidencePassage[], weights: ScoreWeights, maxSentences: number, bestFirst = 0) =>
      pickSentences("How was latency measured?", evidence, {
        intent: "technical",
        keywords: [],
        weights,
        maxSentences,
        bestFirst,
      }).map((p) => p.passage.paperId);

    it("orders the candidates by those weights", () => {
      const evidence = [passage("S", 1, on(0, 2)), passage("L", 2, on(10, 13))];
      expect(ids(evidence, { ...noWeights, length: 1 }, 2)).toEqual(["L", "S"]);
      expect(ids(evidence, { ...noWeights, length: -1 }, 2)).toEqual(["S", "L"]);
    });

    it("lets a top passage speak only when its sentence scores at least 0.6 of the best", () => {
      // the best is L (29 words, 0.85); the first passage's sentence scores 0.45 (0.53 of it), the second's 0.55 (0.65)
      const evidence = [passage("R0", 1, on(0, 3)), passage("R1", 1, on(3, 6)), passage("L", 1, on(20, 27))];
      expect(ids(evidence, { ...noWeights, length: 1 }, 2, 1)).toEqual(["L", "R1"]);
    });

    it("measures that share below a best score that is negative", () => {
      // scores −log(1 + words) / 4: the best is −0.40 (4 words); the first passage's −0.49 (6 words) is within 0.4 of
      // it in proportion, the second's −0.85 (29 words) is not
      const evidence = [
        passage("P0", 1, on(0, 4)),
        passage("L", 1, on(20, 27)),
        passage("D", 1, on(4, 2)),
        passage("H", 1, on(6, 2)),
        passage("R", 1, on(8, 3)),
      ];
      expect(ids(evidence, { ...noWeights, length: -1 }, 3)).toEqual(["D", "H", "P0"]);
    });

    it("leads the answer with the best sentence overall and quotes the four best before the top passages", () => {
      // eight top passages with a shorter sentence each (of words of their own), then one with the four longest and
      // another with a fifth as long: exactly four lead, at 3 or 5 this fails
      const X = (
        "north south east west spring summer autumn winter red green blue black white gold silver copper iron tin " +
        "lead zinc oak pine elm ash"
      ).split(" ");
      const top = Array.from({ length: 8 }, (_, r) =>
        passage(`T${r}`, 1, `The latency was measured with ${X.slice(r * 3, r * 3 + 3).join(", ")} timers.`),
      );
      const five = [0, 10, 20, 30, 40].map((from) => on(from, 10));
      const longest = five.slice(0, 4);
      const evidence = [...top, passage("Z", 3, longest.join(" ")), passage("Y", 5, five[4] as string)];
      const answer = synthesizeExtractive("How was latency measured?", evidence, {
        intent: "technical",
        keywords: [],
        weights: { ...noWeights, length: 1 },
      });
      const [lead, ...rest] = answer.split("\n\n").slice(1);
      expect(lead).toContain(longest[0]);
      for (const s of longest.slice(1)) expect(rest.join("\n")).toContain(s);
      // eight sentences: four of the five longest (the fifth, as long, is another paper's) and the first four top
      // passages'
      expect(answer).not.toContain("[Y, page 5]");
      expect(answer.match(/\[T\d, page 1\]/g)).toEqual([
        "[T0, page 1]",
        "[T1, page 1]",
        "[T2, page 1]",
        "[T3, page 1]",
      ]);
    });
  });

  it("lets the quick answer quote more than five sentences of the one paper that answers, eight at most", () => {
    const text = ACCURACY.join(" ");
    const answer = synthesizeExtractive(
      "How accurate are low-rank adapters at inference?",
      [passage("A", 1, text), passage("B", 4, "Prompt tuning reaches lower accuracy at inference than adapters.")],
      { intent: "technical", keywords: [] },
    );
    const cites = answer.match(/\[A, page 1\]/g) ?? [];
    expect(cites.length).toBeGreaterThan(5);
    expect((answer.match(/\[[AB], page \d+\]/g) ?? []).length).toBeLessThanOrEqual(8);
  });

  it("does not bring along a next sentence that opens a paragraph of its own", () => {
    const p = passage(
      "A",
      16,
      "The model does not use the branching capability in any way. Resolving Dimension Mismatches: We do not constrain " +
        "the shapes because programs may be invalid.",
    );
    const picked = pickSentences("Why does the model not use the branching capability?", [p], {
      intent: "technical",
      keywords: [],
    });
    expect(picked[0]?.text).toContain("branching capability");
    expect(picked[0]?.next).toBeUndefined();
  });

  it("ends a sentence where a numbered section heading's line follows it, though no capital comes after the stop", () => {
    const p = passage(
      "A",
      4,
      "To counteract the softmax saturation, the dot products " +
        "are scaled by 1 √dk\n.\n3.2.2 Multi-Head Attention\nInstead of performing a single attention " +
        "function, we project the queries, keys and values h times with learned projections.",
    );
    const opts = { intent: "unknown" as const, keywords: [], maxSentences: 5 };
    const texts = pickSentences("How are the dot products scaled, and how are queries projected?", [p], opts).map(
      (x) => x.text,
    );
    expect(texts).toContain("To counteract the softmax saturation, the dot products are scaled by 1 √dk.");
    expect(texts).toContain(
      "Instead of performing a single attention function, we project the queries, keys and values h times with learned projections.",
    );
    expect(texts.some((t) => t.includes("3.2.2"))).toBe(false);
  });

  it("quotes a sentence without a run-in heading of capitalised words before it", () => {
    const text =
      "We start with an overview of the widget algorithm.\n2.2.1. Widget Learning Algorithm\nGroup Relative Widget " +
      "Optimization In order to save the training costs of widgets, we adopt group scores as the baseline. " +
      "Controlled Baseline Comparisons We first compare widgets with gadgets. Our Widget\nOptimizer keeps one copy.";
    const texts = quotableSentences(text).map((x) => x.text);
    expect(texts).toContain("In order to save the training costs of widgets, we adopt group scores as the baseline.");
    expect(texts).toContain("We first compare widgets with gadgets.");
    // capitalised words not followed by a word that opens a sentence are the sentence's own, and a sentence that
    // opens with such a word, or names "A" after a label, keeps its words
    expect(texts).toContain("Our Widget Optimizer keeps one copy.");
    staysWhole([
      "See Appendix A for the full derivation of the widget bound.",
      "In Appendix A we derive the full widget bound.",
      "Then Group A received the widget and Group B did not.",
      "Both Matrices A and B are initialized randomly in our widget.",
    ]);
    const picked = pickSentences("How does the widget algorithm save training costs?", [passage("A", 5, text)], {
      intent: "unknown",
      keywords: [],
    });
    expect(picked[0]?.text).toBe(
      "In order to save the training costs of widgets, we adopt group scores as the baseline.",
    );
  });

  it("quotes a sentence without a run-in heading in sentence case, with a section letter, or of one word", () => {
    const cases: [string, string][] = [
      ["A. Widget Detection Baselines In this section we introduce our widget detector.", "In this section"],
      ["C Widget setup Details We train all widget models.", "We train"],
      ["S5.3 WIDGET STABILITY An interesting observation is that widgets converge.", "An interesting"],
      ["Spark of the Widget Model A particularly intriguing phenomenon is observed.", "A particularly"],
      ["Widget hot-swapping An advantage of widget memory is that it can be replaced.", "An advantage"],
      ["Conclusion, Limitation, and Future Work In this work, we share our widget journey.", "In this work"],
      ["Widgets vs. Gadgets We test widgets and compare them to gadgets.", "We test"],
      ["Design \\& Evaluation The complete set of widget optimisations helps.", "The complete"],
      ["WIDGETS We report widget results at the passage level.", "We report"],
      ["Max Cached Widgets Figure 7 shows the widgets cached in each iteration.", "Figure 7"],
      ["Number of Widgets In Figure 5 we show widget scores for each revision.", "In Figure 5"],
      ["D WIDGET PROMPTS D.1 WIDGET SETS We prompt the widget model first.", "We prompt"],
    ];
    for (const [text, start] of cases) {
      const [s] = quotableSentences(text);
      expect(s?.text.startsWith(start), text).toBe(true);
      expect(s?.afterHeading).toBe(true);
    }
    // a colon, a parenthesis, a verb's past form or a small word after "A", one word before "A", a figure named
    // after words in lower case, a capitalised name before a word in capitals: the sentence keeps its words
    staysWhole([
      "WidgetEval: Hand-Written Widget Set We evaluate widgets on 164 problems.",
      "WidgetSwag (Smith et al., 2019) A novel benchmark for widget inference.",
      "Control Group A received the widget and Group B did not.",
      "Type A and type B widgets are counted.",
      "WPR A dense widget retriever is used.",
      "Detailed results per widget are provided in Table 6 in the appendix.",
      "Error bars are visible in Figure 3 but are suppressed here for clarity.",
      "Algorithm 2 describes the widget loop, while Figure 1 provides an overview diagram.",
      "Widgets trained on The Pile are strong.",
      "Results in Table 2 show widget gains.",
    ]);
    // the shortest heading: a capitalised opener later in the sentence does not make its start a heading
    expect(quotableSentences("Widget Sets We show that The Pile helps widgets.")[0]?.text).toBe(
      "We show that The Pile helps widgets.",
    );
  });

  it("does not lead with a sibling of what the question names (English-to-French for English-to-German)", () => {
    const evidence = [
      passage(
        "W",
        1,
        "The widget translator achieves 28.4 BLEU on the WMT 2014 English-to-German translation task, improving over the best results by over 2 BLEU. On the WMT 2014 English-to-French translation task, our widget establishes a new single-model state-of-the-art BLEU score of 41.8 after training for 3.5 days.",
      ),
      passage(
        "W",
        8,
        "On the WMT 2014 English-to-German translation task, the big widget translator outperforms the best previously reported models, establishing a new state-of-the-art BLEU score of 28.4. On the WMT 2014 English-to-French translation task, our big widget achieves a BLEU score of 41.0.",
      ),
    ];
    const q = "What is the BLEU score of the widget translator on WMT 2014 English-to-German?";
    const md = synthesizeExtractive(q, evidence, { intent: "performance", keywords: [] });
    const lead = md.split("## Supporting evidence")[0] ?? "";
    expect(lead).toContain("English-to-German");
    expect(lead).not.toMatch(/^## Answer\n\nOn the WMT 2014 English-to-French/);
  });

  it("ends a sentence at the full stop after a lettered appendix, table or figure", () => {
    expect(
      quotableSentences("The widget prompts are given in Appendix E. Our results show that widgets help.").map(
        (x) => x.text,
      ),
    ).toEqual(["The widget prompts are given in Appendix E.", "Our results show that widgets help."]);
    expect(
      quotableSentences("We present an analysis in appendix G. To understand widgets, we count them.").map(
        (x) => x.text,
      ),
    ).toEqual(["We present an analysis in appendix G.", "To understand widgets, we count them."]);
    staysWhole(["Widgets were first described by John A. Smith and later refined.", "See Table A.2 for widgets."]);
  });

  it("quotes a sentence without the section and subsection headings above it", () => {
    const p = passage(
      "A",
      4,
      "The widget search runs over fifty instances only.\n4 Methodology\n4.1 Overview\nAs illustrated in Figure 1, " +
        "the widget system consists of two agents: a crawler and a selector.",
    );
    const texts = pickSentences("What agents does the widget system consist of?", [p], {
      intent: "unknown",
      keywords: [],
    }).map((x) => x.text);
    expect(texts[0]).toBe(
      "As illustrated in Figure 1, the widget system consists of two agents: a crawler and a selector.",
    );
  });

  it("does not quote a passage's last sentence when the passage ends before it does", () => {
    const p = passage(
      "A",
      5,
      "We evaluate the widget checker on two datasets. We use HOVER and FEVEROUS as the widget checker's test data, following the same experimental set-",
    );
    const picked = pickSentences("Which datasets test the widget checker?", [p], { intent: "unknown", keywords: [] });
    expect(picked.map((x) => x.text)).toEqual(["We evaluate the widget checker on two datasets."]);
  });

  it("quotes a list's items that run into the sentence announcing them as sentences of their own", () => {
    const p = passage(
      "A",
      5,
      "The widget ranker uses attention in three different ways: • In cross-attention layers, the queries come from the widget decoder. • The encoder holds self-attention layers.",
    );
    const texts = pickSentences("Where do the queries of the widget ranker's cross-attention layers come from?", [p], {
      intent: "unknown",
      keywords: [],
    }).map((x) => x.text);
    expect(texts).toContain("In cross-attention layers, the queries come from the widget decoder.");
    expect(texts.some((t) => t.includes("•"))).toBe(false);
  });

  it("quotes a list item without its bullet", () => {
    const p = passage(
      "A",
      2,
      "Our contributions are as follows.\n• BERT advances the state of the art for eleven NLP tasks.\n• The code is public.",
    );
    const picked = pickSentences("On how many NLP tasks does BERT advance the state of the art?", [p], {
      intent: "unknown",
      keywords: [],
    });
    expect(picked[0]?.text).toBe("BERT advances the state of the art for eleven NLP tasks.");
  });

  it("quotes a sentence that leans on one already quoted after it, rather than leaving it out", () => {
    const first = "The widget reader's F-1 scores are 53.1%, 55.7% and 36.6% with three readers.";
    const leaning =
      "These scores surpass the gadget retriever by margins of 1.8, 2.7 and 4.5 points across the respective readers.";
    // two overlapping chunks of one page: the top one ends after the first sentence, which it quotes on its own
    const top = { ...passage("A", 7, `The widget reader is evaluated on long papers. ${first}`), rank: 0 };
    const next = { ...passage("A", 7, `${first} ${leaning}`), chunkUid: "A-7-b", rank: 1 };
    const question = "How much better than the gadget retriever is the widget reader with three readers?";
    const picked = pickSentences(question, [top, next], { intent: "technical", keywords: [] });
    const quoted = picked.flatMap((x) => [x.previous, x.text, x.next].filter(Boolean));
    expect(quoted.filter((t) => t === leaning)).toHaveLength(1);
    expect(quoted.filter((t) => t === first)).toHaveLength(1);
    const host = picked.find((x) => x.text === first);
    expect(host?.next).toBe(leaning);
  });

  it("quotes the sentence two back when the one before leans on it in turn", () => {
    const p = passage(
      "A",
      12,
      "The gadget network is fine-tuned on the training set. Using an ensemble of gadget networks, we achieve a " +
        "localization error of 9.0% on the test set. This number significantly outperforms last year's results. " +
        "This result won the first place in the gadget localization task.",
    );
    const picked = pickSentences("Which place did the gadget localization result win?", [p], {
      intent: "unknown",
      keywords: [],
      maxSentences: 1,
    });
    expect(picked[0]?.text).toBe("This result won the first place in the gadget localization task.");
    expect(picked[0]?.previous).toBe("This number significantly outperforms last year's results.");
    expect(picked[0]?.earlier).toBe(
      "Using an ensemble of gadget networks, we achieve a localization error of 9.0% on the test set.",
    );
    const answer = synthesizeExtractive("Which place did the gadget localization result win?", [p], {
      intent: "unknown",
      keywords: [],
    });
    expect(answer).toContain("9.0% on the test set. [A, page 12] This number significantly outperforms");
  });

  it("keeps a sentence whose sentence two back is quoted on its own, without quoting that one twice", () => {
    const p = passage(
      "A",
      12,
      "The gadget network is fine-tuned on the training set. Using an ensemble of gadget networks, we achieve a " +
        "localization error of 9.0% on the test set. This number significantly outperforms last year's results. " +
        "This result won the first place in the gadget localization task.",
    );
    const question =
      "What localization error does the ensemble of gadget networks achieve on the test set, and what place did it win in the localization task?";
    const answer = synthesizeExtractive(question, [p], { intent: "unknown", keywords: [] });
    expect(answer).toContain("This result won the first place in the gadget localization task.");
    expect(answer.match(/we achieve a localization error of 9\.0%/g)).toHaveLength(1);
    const picked = pickSentences(question, [p], { intent: "unknown", keywords: [] });
    const quoted = picked.flatMap(quotedIn);
    expect(quoted).toContain("This result won the first place in the gadget localization task.");
    expect(new Set(quoted).size).toBe(quoted.length);
  });

  it("quotes nothing again that an earlier pick quoted beside its sentence (a deep review's later section)", () => {
    const first = "The widget reader's F-1 scores are 53.1%, 55.7% and 36.6% with three readers.";
    const leaning =
      "These scores surpass the gadget retriever by margins of 1.8, 2.7 and 4.5 points across the respective readers.";
    const top = { ...passage("A", 7, `The widget reader is evaluated on long papers. ${first}`), rank: 0 };
    const next = { ...passage("A", 7, `${first} ${leaning}`), chunkUid: "A-7-b", rank: 1 };
    const opts = { intent: "technical" as const, keywords: [], maxSentences: 2 };
    const one = pickSentences("How much better than the gadget retriever is the widget reader?", [top, next], opts);
    expect(one.flatMap(quotedIn)).toEqual(expect.arrayContaining([first, leaning]));
    const two = pickSentences("widget reader gadget retriever margins", [top, next], {
      ...opts,
      exclude: one.flatMap(quotedIn),
    });
    expect(two.flatMap(quotedIn)).not.toContain(first);
    expect(two.flatMap(quotedIn)).not.toContain(leaning);
  });

  it("ends a sentence at a lower-case variable's full stop and at a stop standing alone after a formula", () => {
    const p = passage(
      "A",
      6,
      "Weight Type r = 1 r = 2 Wq 68.8 69.6 Wq, Wv 73.4 73.3 Table 6: Validation accuracy with different rank r. To our " +
        "surprise, a rank as small as one suffices for adapting the gadget weights. We initialize θ to zeros, so " +
        "initially θ(D) = θ(D) 0 . This convention lets the gadget start from a well-conditioned point.",
    );
    const texts = pickSentences(
      "Which rank suffices for adapting the gadget weights, and where does the gadget start?",
      [p],
      {
        intent: "unknown",
        keywords: [],
        maxSentences: 5,
      },
    ).map((x) => x.text);
    expect(texts).toContain("To our surprise, a rank as small as one suffices for adapting the gadget weights.");
    expect(texts).toContain("This convention lets the gadget start from a well-conditioned point.");
    // not at an abbreviation written with spaces, nor at the "v." of a case
    staysWhole([
      "We regularize the weights with weight decay, i. e. Adam with decoupled weight decay is never used.",
      "We minimize the cost s. t. Ax = b holds for every widget.",
      "The ruling in Roe v. Wade is cited by the widget corpus.",
    ]);
  });

  it("cites each of two quoted sentences when the first ends on a one-letter word, and both are supported", () => {
    const a = passage("A", 6, "We scale the widget update by a constant divided by the rank r. It trains fast.");
    const b = passage("B", 3, "Prefix tuning is a method that prepends trainable vectors to every layer of the model.");
    const markdown =
      "We scale the widget update by a constant divided by the rank r. [A, page 6] Prefix tuning is a method that prepends trainable vectors to every layer of the model. [B, page 3]";
    expect(citedClaims(markdown).map((c) => [c.claim, c.citations.map((x) => x.marker)])).toEqual([
      ["We scale the widget update by a constant divided by the rank r.", ["[A, page 6]"]],
      ["Prefix tuning is a method that prepends trainable vectors to every layer of the model.", ["[B, page 3]"]],
    ]);
    expect(verifyCitations(markdown, [a, b]).every((c) => c.supported)).toBe(true);
  });

  it("ranks a passage of a top passage's page with it, not by its place in the evidence", () => {
    const filler = (i: number) =>
      passage(`F${i}`, 1, `Widget caches of size ${i} are studied in this paper at length.`);
    const other = passage("B", 3, "The widget cache holds 4096 entries because larger caches thrash the bus.");
    const evidence = [passage("A", 2, "Widgets are ranked by the ranker."), ...[1, 2, 3, 4, 5, 6, 7, 8].map(filler)];
    const question = "Why does the widget cache hold 4096 entries?";
    const opts = { intent: "unknown" as const, keywords: [], maxSentences: 1 };
    const asRetrieved = pickSentences(question, [...evidence, other], opts);
    const ranked = pickSentences(question, [...evidence, { ...other, rank: 0, pageContext: true }], opts);
    expect(ranked[0]?.score).toBeGreaterThan(asRetrieved[0]?.score ?? 0);
    expect(ranked[0]?.text).toContain("4096 entries");
  });
});

describe("what the answer quotes", () => {
  const question = "What rank do low-rank adapters need?";
  const opts = { intent: "technical" as const, keywords: ["rank", "low-rank", "adapters"] };

  it("never quotes a sentence that asks: the paper's own question is not an answer to the reader's", () => {
    const asks = passage(
      "2106.09685v2",
      10,
      "If so, what is a good rank for low-rank adapters in practice? Low-rank adapters need a rank of only four to " +
        "match full fine-tuning on the tasks we tried.",
    );
    const md = synthesizeExtractive(question, [asks], opts);
    expect(md).toContain("Low-rank adapters need a rank of only four");
    expect(md).not.toContain("what is a good rank");
  });

  it("leaves out the paper's reference and footnote markers, and only those", () => {
    const p = { footnoteNumbers: ["4"] };
    expect(quotable("It has extremely small gradients 4. To counteract this, we scale.", p)).toBe(
      "It has extremely small gradients. To counteract this, we scale.",
    );
    expect(quotable("Additive attention outperforms it for larger values of dk [3 ].", {})).toBe(
      "Additive attention outperforms it for larger values of dk.",
    );
    expect(quotable("Prior work [12, 15] and [4–6] used adapters.", {})).toBe("Prior work and used adapters.");
    // numbers that are quantities or labels stay, as do numbers that are not one of the page's footnotes
    expect(quotable("We use a batch size of 4.", p)).toBe("We use a batch size of 4.");
    expect(quotable("Results are in Table 4.", p)).toBe("Results are in Table 4.");
    expect(quotable("It has extremely small gradients 5.", p)).toBe("It has extremely small gradients 5.");
    // a marker run into its word, and a heading in capitals run into the sentence
    expect(
      quotable("It is pretrained using the original BERT code15 and its configurations.", {
        footnoteNumbers: ["15"],
        footnoteGlued: [{ word: "code", number: "15" }],
      }),
    ).toBe("It is pretrained using the original BERT code and its configurations.");
    // a number run into a word that is no marker of the page stays ("resnet50", "llama2")
    expect(quotable("We compare with resnet50 and llama2 models.", { footnoteNumbers: ["2", "50"] })).toBe(
      "We compare with resnet50 and llama2 models.",
    );
    // numbers inside a sentence are words of the paper, even the numbers of its footnotes
    const two = { footnoteNumbers: ["1", "2"] };
    expect(quotable("We fine-tune Llama 2 on it and used 2 GPUs.", two)).toBe(
      "We fine-tune Llama 2 on it and used 2 GPUs.",
    );
    expect(quotable("Algorithm 1 shows the loop.", two)).toBe("Algorithm 1 shows the loop.");
    // an interval or a vector is no reference
    expect(quotable("Scores are normalised to [0, 1].", {})).toBe("Scores are normalised to [0, 1].");
    expect(quotable("The rank lies within [1, 8].", {})).toBe("The rank lies within [1, 8].");
    expect(quotable("V. AUGMENTATION PROCESS IN RAG In the domain of RAG, one retrieval step is usual.", {})).toBe(
      "In the domain of RAG, one retrieval step is usual.",
    );
    expect(quotable("BERT and GPT are pretrained.", {})).toBe("BERT and GPT are pretrained.");
    // an author-year citation is words, and stays
    expect(quotable("Adapters (Houlsby et al., 2019) add layers.", {})).toBe(
      "Adapters (Houlsby et al., 2019) add layers.",
    );
  });

  it("quotes a sentence without its markers, and the claim the reader sees has no markdown escapes", () => {
    const p = {
      ...passage(
        "1706.03762v5",
        4,
        "Low-rank adapters need a small rank for larger models [3 ]. Beyond it, the adapters' rank barely changes " +
          "their accuracy on every task we tried 4. Other text follows.",
      ),
      footnoteNumbers: ["4"],
    };
    const md = synthesizeExtractive(question, [p], opts);
    expect(md).toContain("Low-rank adapters need a small rank for larger models. [1706.03762v5, page 4]");
    expect(md).toContain("barely changes their accuracy on every task we tried. [1706.03762v5, page 4]");
    expect(md).not.toContain("[3");
    const escaped = citedClaims("Values of dk \\[3 \\] matter. [1706.03762v5, page 4]");
    expect(escaped[0]?.claim).toBe("Values of dk [3 ] matter.");
  });
});

describe("absentFromLibrary", () => {
  const about = passage("A", 4, "Spiking networks on neuromorphic Loihi chips are trained with surrogate gradients.");
  const attention = passage("B", 4, "The dot products are scaled by the square root of the key dimension.");
  const library = { passages: 2_000 };

  it("takes two unknown words as an absent topic when the passages found cover little of the rest", () => {
    const q = "How much energy do spiking networks save on neuromorphic Loihi chips?";
    const words = { absent: ["neuromorphic", "Loihi"], terms: 9, ...library };
    expect(absentFromLibrary(q, [attention], words)).toEqual(["neuromorphic", "Loihi"]);
    // one unknown word is a typo or a paraphrase
    expect(absentFromLibrary(q, [attention], { ...words, absent: ["Loihi"] })).toBeNull();
    // …and two are too when the passages found hold the rest of the question
    const typos = "Why are dot prodcuts scaled by the sqaure root of the key dimension?";
    expect(absentFromLibrary(typos, [attention], { absent: ["prodcuts", "sqaure"], terms: 8, ...library })).toBeNull();
    expect(absentFromLibrary(q, [about], { ...words, absent: ["energy", "save"] })).toBeNull();
  });

  it("takes three unknown words that are a third of the question as an absent topic, whatever the passages cover", () => {
    const q = "How accurately do convolutional networks classify skin lesions as melanoma from dermoscopic images?";
    const found = passage("C", 7, "Convolutional networks classify images accurately, as the comparison shows.");
    const words = { absent: ["lesions", "melanoma", "dermoscopic"], terms: 9, ...library };
    expect(absentFromLibrary(q, [found], words)).toEqual(["lesions", "melanoma", "dermoscopic"]);
    // two are not enough when the passages hold the rest, nor three among many more known terms
    expect(absentFromLibrary(q, [found], { ...words, absent: ["lesions", "melanoma"] })).toBeNull();
    expect(absentFromLibrary(q, [found], { ...words, terms: 10 })).toBeNull();
  });

  it("counts a word the library barely holds, and none of the passages found holds, where their coverage decides", () => {
    const q =
      "Can a learned cardinality estimator give a relational query optimizer better join orders than a histogram, " +
      "and how does it cope with workload drift?";
    const found = passage("F", 4, "A learned model gives better orders than the optimizer's default on the benchmark.");
    const words = { absent: ["cardinality", "cope"], rare: ["estimator", "histogram", "workload", "drift"], terms: 24 };
    // two words in no paper are too few among 24 terms; with the four rare ones the passages found cover little
    expect(absentFromLibrary(q, [found], { ...words, ...library, rare: [] })).toBeNull();
    expect(absentFromLibrary(q, [found], { ...words, ...library })).toEqual([
      "cardinality",
      "cope",
      "estimator",
      "histogram",
      "workload",
      "drift",
    ]);
    // a rare word the passages found hold (in the American spelling too) is not missing from them
    const behaviour = passage("G", 5, "The estimator and the histogram are compared under workload drift.");
    expect(absentFromLibrary(q, [found, behaviour], { ...words, ...library })).toBeNull();
    const british = absentFromLibrary("How do colour histograms behave?", [passage("H", 2, "The color of a page.")], {
      absent: ["qq1", "qq2"],
      rare: ["colour"],
      terms: 4,
      ...library,
    });
    expect(british).not.toContain("colour");
  });

  it("never ends a question the passages answer by rare words alone, however many (chatty words are rare too)", () => {
    const q =
      "As an undergraduate newcomer, can you explain in layman's terms, without jargon, why the Transformer scales " +
      "the dot products by the square root of the key dimension?";
    const page4 = passage(
      "B",
      4,
      "The Transformer scales the dot products by the square root of the key dimension, so the terms stay small: " +
        "why it does so, explained plainly, is that large dot products push the softmax into flat regions.",
    );
    const words = { absent: ["undergraduate", "newcomer"], rare: ["layman", "jargon"], terms: 16, ...library };
    expect(absentFromLibrary(q, [page4], { ...words, rare: [] })).toBeNull();
    expect(absentFromLibrary(q, [page4], words)).toBeNull();
    expect(absentFromLibrary(q, [page4], { ...words, rare: ["layman", "jargon", "plainspoken", "lingo"] })).toBeNull();
    // one word in no paper and rare ones: the one is a typo or a paraphrase
    expect(absentFromLibrary(q, [about], { absent: ["pupil"], rare: ["imitate"], terms: 8, ...library })).toBeNull();
  });

  it("does not take typos of the passages' words for an absent subject", () => {
    const q = "What is the diffrence betwen dense retreival and sparse retrieval of passages?";
    const found = passage(
      "D",
      3,
      "The difference between dense retrieval and sparse retrieval of passages is the index.",
    );
    const typos = { absent: ["diffrence", "betwen", "retreival"], terms: 8, ...library };
    expect(absentFromLibrary(q, [found], typos)).toBeNull();
    // short words, names and acronyms are no typos of the passages' words ("gans" is not "an"s, "tpu" not "gpu")
    const short = passage("E", 2, "It is an index that a gpu can search, and the dense one is faster on it.");
    const names = { absent: ["GANs", "ViT", "tpu"], terms: 8, ...library };
    expect(absentFromLibrary("How do GANs and ViT train on a tpu pod?", [short], names)).toEqual([
      "GANs",
      "ViT",
      "tpu",
    ]);
    // three words that are no slip of the passages' words still decline it
    const far = { absent: ["melanoma", "dermoscopic", "lesions"], terms: 8, ...library };
    expect(absentFromLibrary(q, [found], far)).toEqual(["melanoma", "dermoscopic", "lesions"]);
  });

  it("needs them to be a tenth of the question, and a library of some size", () => {
    const q = "How much energy do spiking networks save on neuromorphic Loihi chips?";
    expect(absentFromLibrary(q, [attention], { absent: ["a", "b"], terms: 21, ...library })).toBeNull();
    expect(absentFromLibrary(q, [attention], { absent: [], terms: 0, ...library })).toBeNull();
    // a library of a few papers lacks plain words: its vocabulary says nothing, unless told otherwise
    const small = { absent: ["neuromorphic", "Loihi"], terms: 9, passages: 40 };
    expect(absentFromLibrary(q, [attention], small)).toBeNull();
    expect(absentFromLibrary(q, [attention], small, 10)).toEqual(["neuromorphic", "Loihi"]);
  });
});

describe("absentSubjects", () => {
  it("declines a question whose specific subjects and topic are both absent from the passages", () => {
    const q = "How does a graph network trained on ERA5 reanalysis compare with ECMWF forecasts of the weather?";
    expect(absentSubjects(q, [ATTENTION, FRONT])).toEqual(["ERA5", "ECMWF"]);
  });

  it("answers when one subject is there, or when only a named benchmark is missing from an on-topic library", () => {
    expect(absentSubjects("Does multi-head attention in BERT use the softmax function?", [ATTENTION])).toBeNull();
    // on topic (scaling, dot products, softmax, gradients): the missing benchmark name alone does not decline it
    const onTopic = "Why are the dot products scaled before the softmax on WMT14?";
    expect(absentSubjects(onTopic, [ATTENTION])).toBeNull();
    // compounds name their capitalised half only: "LLM-written" is about "LLM"
    expect(namedTerms("Do LLM-written critiques help GPT-3?")).toEqual(["LLM", "GPT-3"]);
  });
});

describe("relevance", () => {
  const topic = { text: "How do multi-agent debate methods improve factuality?" };
  it("is relevant when the sentence names the topic, partly when it touches it, off-topic when neither it nor its passage does", () => {
    expect(lexicalRelevance("Multi-agent debate improves factuality of the answers.", "", topic).relevance).toBe(
      "relevant",
    );
    expect(lexicalRelevance("Several agents answer in turn.", "", topic).relevance).toBe("partly");
    const choices = "Where would you find a ticket booth? (A) train station (B) cinema (C) fairground";
    const verdict = lexicalRelevance("The answer choices are train station, cinema and fairground.", choices, topic);
    expect(verdict.relevance).toBe("off_topic");
    expect(verdict.reason).toContain("“multi”");
  });

  it("drops claims from the markdown with their citations, and headings left empty", () => {
    const md = [
      "## Answer",
      "",
      "Debate improves factuality. [A, page 1] The choices are a cinema and a fairground. [B, page 2]",
      "",
      "## Supporting evidence",
      "",
      "### Paper B",
      "",
      "- The booth is at the station. [B, page 3]",
    ].join("\n");
    const out = dropClaims(md, (claim) => /cinema|booth/.test(claim));
    expect(out).toBe("## Answer\n\nDebate improves factuality. [A, page 1]");
    // a table keeps its shape: the row with the claim goes whole
    const table =
      "| Method | Finding |\n|---|---|\n| A | Debate helps. [A, page 1] |\n| B | The booth is red. [B, page 3] |";
    expect(dropClaims(table, (claim) => /booth/.test(claim))).toBe(
      "| Method | Finding |\n|---|---|\n| A | Debate helps. [A, page 1] |",
    );
    expect(citedClaims(out).map((c) => c.claim)).toEqual(["Debate improves factuality."]);
  });

  it("reads a question's British spellings as the passages' American ones", () => {
    const evidence = [
      passage("p1", 2, "The random labels of the network were drawn once, before training."),
      passage("p1", 8, "The random labels were memorized by the network within ten epochs."),
    ];
    const picked = pickSentences("When were the random labels memorised?", evidence, {
      intent: "unknown",
      keywords: [],
      maxSentences: 2,
    });
    expect(picked[0]?.text).toContain("memorized");
    expect(
      lexicalRelevance("Labels are memorized quickly.", "", { text: "How quickly are labels memorised?" }).reason,
    ).toBe("Mentions 3 of the 3 key terms.");
  });

  it("never quotes thanks or an announcement of what the paper does next", () => {
    const evidence = [
      passage(
        "p1",
        9,
        "We thank Yi Tay for the guidance on UL2 fine-tuning. We now explain how fine-tuning on UL2 is set up. " +
          "We acknowledge EleutherAI and StabilityAI for compute access for UL2 fine-tuning. " +
          "This work has been supported by a grant for UL2 fine-tuning. " +
          "We acknowledge this is not a perfect metric for UL2 fine-tuning. Fine-tuning UL2 on the mixture takes two days. " +
          "Finally, we thank Stella Biderman for feedback on UL2 fine-tuning.\nAcknowledgments The authors would like " +
          "to thank the reviewers for their feedback on UL2 fine-tuning. Finally, we are grateful to the UL2 " +
          "fine-tuning team. Finally, this work was supported by UL2 fine-tuning grants.\nACKNOWLEDGMENTS We thank the " +
          "UL2 fine-tuning reviewers.",
      ),
    ];
    const picked = pickSentences("How is UL2 fine-tuning set up and how long does it take?", evidence, {
      intent: "unknown",
      keywords: [],
      maxSentences: 5,
    }).map((p) => p.text);
    expect(picked).toEqual(
      expect.arrayContaining([
        "We acknowledge this is not a perfect metric for UL2 fine-tuning.",
        "Fine-tuning UL2 on the mixture takes two days.",
      ]),
    );
    expect(picked.join(" ")).not.toMatch(/thank|grateful|We now explain|EleutherAI|supported by/);
  });
});

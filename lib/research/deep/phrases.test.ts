import { describe, expect, it } from "vitest";
import {
  acronymExpansion,
  acronymOf,
  cleanKeywords,
  genericityFrom,
  isGenericTopic,
  isNamedToken,
  keyPhraseIndex,
  keyPhrases,
  mentionsTopic,
  type PhraseSource,
  questionTopics,
  sentenceCase,
  titleCase,
  titleLead,
  topicKeywords,
  topicTerms,
} from "./phrases";
import { validatePoints } from "./plan";
import { feedbackKeywords, feedbackRequests, feedbackSubject, outlineForFeedback } from "./versions";

describe("named tokens and generic topics", () => {
  it("tells names and acronyms from ordinary words by how they are written", () => {
    for (const w of ["LoRA", "BERT", "RLHF", "LLMs", "XLNet", "DeepSeek-R1", "GPT-3", "T5", "Logic-LM"]) {
      expect(isNamedToken(w), w).toBe(true);
    }
    for (const w of ["Data", "Correct", "Layers", "Llms", "Lora", "Low-Rank", "Self-Correction", "II", "42"]) {
      expect(isNamedToken(w), w).toBe(false);
    }
  });

  it("refuses one ordinary word and filler as a topic; keeps phrases, names and noun compounds", () => {
    for (const t of [
      "Correct",
      "Data",
      "Set",
      "Layers",
      "Way",
      "Results",
      "Experimental results",
      "Few-shot",
      "Post-hoc",
    ]) {
      expect(isGenericTopic(t), t).toBe(true);
    }
    for (const t of ["LoRA", "Multi-agent debate", "Self-correction", "Scaled dot-product attention", "BERT"]) {
      expect(isGenericTopic(t), t).toBe(false);
    }
  });

  it("counts a library's own common words as generic only when the library is large enough to tell", () => {
    const big = genericityFrom(
      new Map([
        ["languag", 60],
        ["model", 90],
        ["debat", 2],
      ]),
      100,
    );
    expect(isGenericTopic("Language models", big)).toBe(true);
    expect(isGenericTopic("Multi-agent debate", big)).toBe(false);
    // two papers: every word of both is in half the summaries, which says nothing
    const small = genericityFrom(new Map([["languag", 2]]), 4);
    expect(isGenericTopic("Language models", small)).toBe(false);
  });

  it("drops filler keywords, keeps names and specific phrases", () => {
    expect(
      cleanKeywords(["way", "correct", "set", "LoRA", "low-rank adaptation", "Low-rank adaptations", "data"]),
    ).toEqual(["LoRA", "low-rank adaptation"]);
  });
});

describe("key phrases", () => {
  const sources: PhraseSource[] = [
    {
      text: "Self-Correcting LLMs with Automated Feedback: A Survey",
      kind: "title",
      paperId: "a",
    },
    {
      text: "Self-correction lets LLMs revise their outputs with automated feedback. In a correct way, a set of critics scores each draft.",
      kind: "passage",
      paperId: "a",
    },
    {
      text: "We study self-correction in LLMs: automated feedback from external tools fixes reasoning errors, a way that scales.",
      kind: "passage",
      paperId: "b",
    },
    {
      text: "Multi-agent debate is another form of self-correction for LLMs, where several agents argue until they agree.",
      kind: "passage",
      paperId: "c",
    },
    {
      text: "Correct answers to the data set improve when LLMs debate in a multi-agent debate.",
      kind: "passage",
      paperId: "c",
    },
  ];

  it("finds multi-word phrases and compounds, writes acronyms as the text does, and leaves filler out", () => {
    const { phrases } = keyPhraseIndex(sources, { max: 20 });
    const texts = phrases.map((p) => p.text);
    expect(texts).toContain("automated feedback");
    expect(texts).toContain("self-correction");
    expect(texts).toContain("multi-agent debate");
    // "LLMs" as written, never "llms" or "Llms"
    expect(texts.some((t) => /\bllms\b/i.test(t))).toBe(true);
    expect(texts.filter((t) => /\bllms\b/i.test(t)).every((t) => t.includes("LLMs"))).toBe(true);
    for (const t of texts) expect(isGenericTopic(t), t).toBe(false);
    for (const filler of ["correct", "way", "set", "data set", "correct way"]) expect(texts).not.toContain(filler);
  });

  it("leaves out the question's own words", () => {
    const texts = keyPhrases(
      ["Sensor networks drift over time. Biofouling raises the error.", "Sensor networks need biofouling guards."],
      { excludeStems: ["sensor", "network"] },
    ).map((p) => p.text);
    expect(texts).not.toContain("sensor networks");
  });
});

describe("acronyms, titles and questions", () => {
  it("finds an acronym's expansion in the text that defines it", () => {
    expect(acronymExpansion("LoRA", ["We propose Low-Rank Adaptation, or LoRA, which freezes the weights."])).toBe(
      "low-rank adaptation",
    );
    expect(acronymExpansion("STaR", ["We call it the Self-Taught Reasoner (STaR)."])).toBe("self-taught reasoner");
    expect(acronymExpansion("RAPTOR", ["RAPTOR: Recursive Abstractive Processing for Tree-Organized Retrieval"])).toBe(
      "recursive abstractive processing for tree-organized retrieval",
    );
    expect(acronymExpansion("LoRA", ["LoRA is fast."])).toBeNull();
    expect(
      acronymExpansion("FlashAttention", ["FlashAttention: Fast and Memory-Efficient Exact Attention"]),
    ).toBeNull();
    expect(acronymOf("multi-agent debate")).toBe("MAD");
  });

  it("reads the name a title leads with", () => {
    expect(titleLead("LoRA: Low-Rank Adaptation of Large Language Models")).toBe("LoRA");
    expect(titleLead("Constitutional AI: Harmlessness from AI Feedback")).toBe("Constitutional AI");
    expect(titleLead("Take a Step Back: Evoking Reasoning via Abstraction")).toBeNull();
    expect(titleLead("Attention Is All You Need")).toBeNull();
  });

  it("reads the topics a question lists", () => {
    expect(
      questionTopics(
        "How do large language models improve their own reasoning through self-correction, self-training and verification?",
      ),
    ).toEqual(["self-correction", "self-training", "verification"]);
    expect(questionTopics("What are the main approaches to parameter-efficient fine-tuning?")).toEqual([]);
  });

  it("writes topics in sentence case, names kept", () => {
    expect(sentenceCase("multi-agent debate")).toBe("Multi-agent debate");
    expect(sentenceCase("LoRA (low-rank adaptation)")).toBe("LoRA (low-rank adaptation)");
  });
});

describe("does a passage mention a topic", () => {
  it("by the stems of one of its parts, or by an acronym as written", () => {
    const debate = topicTerms("Multi-agent debate");
    expect(mentionsTopic(debate, "Several agents debate in a multi-agent setting.")).toBe(true);
    expect(mentionsTopic(debate, "We run MAD with three agents.")).toBe(true);
    expect(mentionsTopic(debate, "Which is the best answer? (A) bank (B) library (C) river")).toBe(false);
    expect(mentionsTopic(debate, "An agent answers questions.")).toBe(false);
    const lora = topicTerms("LoRA (low-rank adaptation)");
    expect(mentionsTopic(lora, "LoRA freezes the pretrained weights.")).toBe(true);
    expect(mentionsTopic(lora, "Low-rank adaptations of the weights are merged.")).toBe(true);
    expect(mentionsTopic(lora, "Lora is a name in this text.")).toBe(false);
    // a long part: two thirds of its words with its head
    expect(mentionsTopic(topicTerms("Tide-aware radio scheduling"), "Tide-aware scheduling cut packet loss.")).toBe(
      true,
    );
  });
});

describe("points from elsewhere held to the same rules", () => {
  const point = (topic: string, search_keywords: string[]) => ({
    id: topic.toLowerCase().replace(/\W+/g, "-"),
    category: "Methods",
    topic,
    search_keywords,
    importance: "high" as const,
  });

  it("renames a one-word generic point by its first specific keyword, drops one with none, cleans keywords", () => {
    const checked = validatePoints([
      point("Data", ["data", "training data mixtures", "way"]),
      point("Set", ["set", "correct"]),
      point("LoRA", ["LoRA", "low-rank adaptation", "way"]),
      point("Multi-agent debate", ["debate", "multi-agent debate", "correct"]),
    ]);
    expect(checked.points.map((p) => p.topic)).toEqual(["Training data mixtures", "LoRA", "Multi-agent debate"]);
    expect(checked.renamed).toEqual([["Data", "Training data mixtures"]]);
    expect(checked.dropped).toEqual(["Set"]);
    expect(checked.points[1]?.search_keywords).toEqual(["LoRA", "low-rank adaptation"]);
    expect(checked.points.flatMap((p) => p.search_keywords)).not.toContain("way");
  });
});

describe("improve: the feedback's own key phrases", () => {
  const outline = {
    title: "Self-correction",
    knowledge_points: [
      {
        id: "kp1",
        category: "Methods",
        topic: "Self-correction",
        search_keywords: ["self-correction", "automated feedback"],
        importance: "high" as const,
      },
    ],
    search_strategy: "",
  };

  it("names an added point by the phrase the feedback asks for", () => {
    expect(feedbackSubject("improve: add more on multi-agent debate")).toBe("multi-agent debate");
    expect(feedbackKeywords("multi-agent debate")).toEqual(["multi-agent debate"]);
    expect(feedbackKeywords("tide-aware radio scheduling and packet loss")).toEqual([
      "tide-aware radio scheduling",
      "packet loss",
    ]);
    expect(feedbackKeywords("a better way to set the correct data")).toEqual([]);
    const r = outlineForFeedback(outline, "improve: add more on multi-agent debate");
    expect(r.addedPoint?.topic).toBe("Multi-agent debate");
    expect(r.addedPoint?.search_keywords).toContain("multi-agent debate");
    expect(r.outline.knowledge_points).toHaveLength(2);
  });

  it("reshapes the point that already covers the feedback instead of adding one", () => {
    const r = outlineForFeedback(outline, "improve: more about automated feedback for self-correction");
    expect(r.addedPoint).toBeNull();
    expect(r.outline.knowledge_points).toHaveLength(1);
    expect(r.outline.knowledge_points[0]?.search_keywords[0]).toBe("automated feedback for self-correction");
  });

  it("takes each request of the feedback on its own: a section asked for and a comparison", () => {
    expect(
      feedbackRequests("Add a section on whether debate helps without feedback and compare STaR with LMSI."),
    ).toEqual(["Add a section on whether debate helps without feedback", "compare STaR with LMSI."]);
    expect(feedbackSubject("Add a section on multi-agent debate")).toBe("multi-agent debate");
    expect(feedbackSubject("compare STaR with LMSI.")).toBe("STaR and LMSI");
    const r = outlineForFeedback(outline, "improve: add a section on multi-agent debate and compare STaR with LMSI");
    expect(r.added.map((p) => p.topic)).toEqual(["Multi-agent debate", "STaR and LMSI"]);
    expect(r.added[1]?.search_keywords).toEqual(expect.arrayContaining(["STaR", "LMSI"]));
    expect(r.addedPoint?.topic).toBe("Multi-agent debate");
    expect(r.outline.knowledge_points).toHaveLength(3);
    // one request the outline covers, one it does not: a point reshaped, a point added
    const both = outlineForFeedback(
      outline,
      "more about automated feedback for self-correction; add more on multi-agent debate",
    );
    expect(both.reshaped.map((p) => p.id)).toEqual([outline.knowledge_points[0]?.id]);
    expect(both.added.map((p) => p.topic)).toEqual(["Multi-agent debate"]);
  });

  it("leaves out sentences that ask nothing, and cuts no sentence at an abbreviation", () => {
    expect(feedbackRequests("Great work, thanks! Please add more on multi-agent debate.")).toEqual([
      "add more on multi-agent debate.",
    ]);
    expect(feedbackRequests("Compare STaR vs. LMSI")).toEqual(["Compare STaR vs. LMSI"]);
    expect(feedbackRequests("add more on GPT-3.5 vs. GPT-4 and discuss costs")).toEqual([
      "add more on GPT-3.5 vs. GPT-4",
      "discuss costs",
    ]);
    expect(feedbackRequests("Add more on the work of Huang et al. on self-correction")).toHaveLength(1);
    // ", and also …" leaves no tail on the request before it
    expect(feedbackRequests("Please add a section on safety, and also discuss cost").map(feedbackSubject)).toEqual([
      "safety",
      "cost",
    ]);
    // feedback that asks nothing in so many words is one request, as written
    expect(feedbackRequests("The outline misses tool use")).toEqual(["The outline misses tool use"]);
    expect(feedbackSubject("Add a short section on multi-agent debate")).toBe("multi-agent debate");
    expect(feedbackSubject("also mention tool use")).toBe("tool use");
    expect(feedbackSubject("compare models trained to reason with those that are not")).toBe(
      "models trained to reason and those that are not",
    );
  });

  it("says a point added for one request and reshaped by the next once, as added", () => {
    const r = outlineForFeedback(
      outline,
      "Add more on multi-agent debate. Also cover multi-agent debate failure modes",
    );
    expect(r.added.map((p) => p.topic)).toEqual(["Multi-agent debate"]);
    expect(r.reshaped).toEqual([]);
    // …with the keywords it ended with
    expect(r.added[0]?.search_keywords).toEqual(r.outline.knowledge_points.at(-1)?.search_keywords);
  });

  it("feedback of filler only adds nothing", () => {
    const r = outlineForFeedback(outline, "improve: add more details please");
    expect(r.addedPoint).toBeNull();
    expect(r.outline).toBe(outline);
  });
});

describe("keywords of a topic written by hand", () => {
  it("takes its phrases, then its content words, names as written", () => {
    expect(topicKeywords("Dense retrieval")).toEqual(["dense retrieval", "dense", "retrieval"]);
    expect(topicKeywords("Mixture of experts")).toEqual(["mixture of experts", "mixture", "experts"]);
    expect(topicKeywords("Hallucination in large language models")).toEqual([
      "language models",
      "hallucination",
      "language",
    ]);
    expect(topicKeywords("RLHF vs. DPO: reward hacking")).toEqual([
      "reward hacking",
      "RLHF",
      "DPO",
      "reward",
      "hacking",
    ]);
    expect(topicKeywords("GPT-4")).toEqual(["GPT-4"]);
  });

  it("leaves filler and stop words out, and keeps to six keywords", () => {
    expect(topicKeywords("Limitations of dense retrieval")).toEqual(["dense retrieval", "dense", "retrieval"]);
    expect(topicKeywords("Evaluation benchmarks")).toEqual(["benchmarks"]);
    // phrases first: they are what a long topic is about
    expect(topicKeywords("Sparse retrieval, dense retrieval and query expansion with BM25")).toEqual([
      "sparse retrieval",
      "dense retrieval",
      "query expansion",
      "sparse",
      "retrieval",
      "dense",
    ]);
  });

  it("gives nothing for a topic of filler only, or none", () => {
    expect(topicKeywords("Limitations of current approaches")).toEqual([]);
    expect(topicKeywords("The main results")).toEqual([]);
    expect(topicKeywords("  ")).toEqual([]);
  });
});

describe("titleCase", () => {
  it("capitalises the words of a title but its short function words, names as written", () => {
    expect(titleCase("how do models improve through self-correction, self-training and verification")).toBe(
      "How Do Models Improve Through Self-Correction, Self-Training and Verification",
    );
    expect(titleCase("the role of the KV-cache in GPT-3's inference")).toBe(
      "The Role of the KV-Cache in GPT-3's Inference",
    );
    expect(titleCase("don't stop pretraining")).toBe("Don't Stop Pretraining");
    expect(titleCase("what is in-context learning")).toBe("What Is In-Context Learning");
    expect(titleCase("“the pile”: a corpus of text")).toBe("“The Pile”: A Corpus of Text");
  });
});

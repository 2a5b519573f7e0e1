import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { createTestLibrary, type TestLibrary } from "@/lib/testing/library";
import type { ResearchDeps } from "../deps";
import { mockModel } from "../testing";
import { isGenericTopic, isNamedToken } from "./phrases";
import { generateOutline } from "./plan";
import type { Outline } from "./types";

/**
 * Outlines over a small library of four papers written with the filler that used to become topics ("a correct way",
 * "the data set", "layers") and with acronyms defined as papers define them.
 */
const LORA = [
  "arXiv:2106.09685v2 [cs.CL] 16 Oct 2021\nLoRA: Low-Rank Adaptation of Large Language Models\nEdward Hu\nAbstract\nAs we pre-train larger models, full fine-tuning, which retrains all model parameters, becomes less feasible. We propose Low-Rank Adaptation, or LoRA, which freezes the pretrained model weights and injects trainable rank decomposition matrices into each layer of the Transformer. LoRA reduces the number of trainable parameters by 10,000 times and is a correct way to adapt LLMs with a small data set.",
  "4 Our Method\nLoRA represents the weight update of a dense layer with low-rank decomposition matrices. The low-rank update is merged into the frozen weights, so LoRA adds no inference latency. Trainable parameters are a small set of the layers.",
  "5 Experiments\nLoRA matches full fine-tuning on GLUE while training far fewer trainable parameters. Compared with adapter layers, LoRA keeps the inference latency of the original model. The data set and the layers are the same in every way.",
];
const ADAPTERS = [
  "arXiv:2101.00190v1 [cs.CL] 1 Jan 2021\nPrefix-Tuning: Optimizing Continuous Prompts for Generation\nXiang Li\nAbstract\nFine-tuning modifies all the language model parameters and therefore necessitates storing a full copy for each task. We propose prefix-tuning, a lightweight alternative to fine-tuning that keeps the language model parameters frozen and optimizes a small continuous prefix. Prefix-tuning is a parameter-efficient way to adapt LLMs.",
  "2 Related Work\nAdapter layers insert small bottleneck modules between the layers of a pretrained model. Adapter layers and prefix-tuning both train a small set of parameters, and both are correct in the data they see.",
];
const DEBATE = [
  "arXiv:2305.14325v1 [cs.CL] 23 May 2023\nImproving Factuality of LLMs through Multi-Agent Debate\nYilun Du\nAbstract\nWe let several instances of LLMs propose and debate their answers over several rounds. Multi-agent debate improves reasoning and factual accuracy, and self-correction emerges in a way no single model reaches.",
  "3 Multi-Agent Debate\nIn multi-agent debate each agent reads the answers of the others and updates its own. Self-correction happens when an agent sees that its answer is not correct.",
];
const ATTENTION = [
  "arXiv:1706.03762v5 [cs.CL] 6 Dec 2017\nAttention Is All You Need\nAshish Vaswani\nAbstract\nWe propose the Transformer, based solely on attention mechanisms. Multi-head attention lets the model attend to information from different representation subspaces.",
  "3.2 Scaled Dot-Product Attention\nWe divide the dot products by the square root of the key dimension. Scaled dot-product attention keeps the softmax out of regions with small gradients, a correct way to train the layers.",
];

let handle: DbHandle;
let lib: TestLibrary;
let embedder: EmbeddingProvider;
let deps: ResearchDeps;

beforeAll(async () => {
  lib = await createTestLibrary([LORA, ADAPTERS, DEBATE, ATTENTION], { name: "outline" });
  handle = lib.handle;
  embedder = lib.embedder;
  deps = { db: handle.db, embedder, chatModel: null, llmTimeoutMs: 5_000, runTimeoutMs: 60_000 };
});

afterAll(async () => {
  await lib?.close();
});

const PEFT = "What are the main approaches to parameter-efficient fine-tuning of large language models?";
const FILLER = ["way", "correct", "set", "data", "layers", "data set", "correct way"];

/** Every point multi-word or named as written, every keyword free of filler. */
function expectSpecific(outline: Outline) {
  for (const p of outline.knowledge_points) {
    expect(isGenericTopic(p.topic), p.topic).toBe(false);
    // one word only as a name; a hyphenated compound ("Self-correction") counts its parts
    const words = p.topic.split(/[\s-]+/);
    if (words.length === 1) expect(isNamedToken(p.topic), p.topic).toBe(true);
    for (const k of p.search_keywords) expect(FILLER, `${p.topic}: ${k}`).not.toContain(k.toLowerCase());
    // acronyms as the papers write them
    expect(p.topic).not.toMatch(/\b(Llms|Lora|Bert)\b/);
  }
}

describe("offline outlines", () => {
  it("a parameter-efficient fine-tuning question gets a LoRA point, named as the paper writes it", async () => {
    const r = await generateOutline(deps, PEFT);
    expect(r.method).toBe("library");
    const topics = r.value.knowledge_points.map((p) => p.topic);
    expectSpecific(r.value);
    const lora = r.value.knowledge_points.find((p) => /\bLoRA\b/.test(p.topic));
    expect(lora, topics.join(" | ")).toBeDefined();
    // the expansion the abstract gives, and the name itself, to search with
    expect(lora?.topic).toBe("LoRA (low-rank adaptation)");
    expect(lora?.search_keywords).toContain("LoRA");
  });

  it("a question that lists topics gets a point for each, multi-word or named, none generic", async () => {
    const r = await generateOutline(
      deps,
      "How do large language models correct their reasoning through self-correction and multi-agent debate?",
    );
    expect(r.method).toBe("library");
    expectSpecific(r.value);
    const topics = r.value.knowledge_points.map((p) => p.topic);
    expect(topics).toContain("Self-correction");
    expect(topics).toContain("Multi-agent debate");
    expect(r.value.knowledge_points.find((p) => p.topic === "Multi-agent debate")?.importance).toBe("high");
  });
});

describe("outlines by a model, held to the same rules", () => {
  const point = (id: string, topic: string, search_keywords: string[]) => ({
    id,
    category: "Methods",
    topic,
    search_keywords,
    importance: "high",
  });

  it("one-word generic points are renamed from their keywords or dropped, with a warning", async () => {
    const model = mockModel({
      reply: () =>
        JSON.stringify({
          title: "Parameter-efficient fine-tuning",
          knowledge_points: [
            point("kp1", "Data", ["data", "way", "prefix-tuning"]),
            point("kp2", "LoRA", ["LoRA", "low-rank update", "correct"]),
            point("kp3", "Layers", ["layers", "adapter layers"]),
            point("kp4", "Set", ["set", "way"]),
            point("kp5", "Trainable parameters", ["trainable parameters"]),
            point("kp6", "Inference latency", ["inference latency", "set"]),
          ],
        }),
    });
    const r = await generateOutline({ ...deps, chatModel: model }, PEFT);
    expect(r.method).toBe("llm");
    expect(r.value.knowledge_points.map((p) => p.topic)).toEqual([
      "Prefix-tuning",
      "LoRA",
      "Adapter layers",
      "Trainable parameters",
      "Inference latency",
    ]);
    expectSpecific(r.value);
    expect(r.warning).toContain("renamed “Data” to “Prefix-tuning”");
    expect(r.warning).toContain("dropped “Set”");
  });

  it("an outline left with too few specific points falls back to the library's, with a warning", async () => {
    const model = mockModel({
      reply: () =>
        JSON.stringify({
          title: "Review",
          knowledge_points: [
            point("kp1", "Correct", ["correct", "way"]),
            point("kp2", "Data", ["data"]),
            point("kp3", "Set", ["set"]),
            point("kp4", "LoRA", ["LoRA"]),
          ],
        }),
    });
    const r = await generateOutline({ ...deps, chatModel: model }, PEFT);
    expect(r.method).toBe("library");
    expect(r.warning).toMatch(/too few specific points/);
    expect(r.warning).toContain("dropped “Correct”, “Data”, “Set”");
    expectSpecific(r.value);
    expect(r.value.knowledge_points.some((p) => /\bLoRA\b/.test(p.topic))).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import type { RerankedResult } from "../rerank";
import { assignPassages } from "./evidence";
import type { KnowledgePoint } from "./types";

function passage(uid: string, page: number, text: string): RerankedResult {
  return {
    chunkUid: uid,
    paperId: "2407.03141v1",
    title: "Salinity Drift in Tidal Pool Sensor Networks",
    year: 2024,
    page,
    chunkIndex: 0,
    charStart: 0,
    charEnd: text.length,
    section: null,
    bibliography: false,
    text,
    score: 1,
    relevance: 1,
    fts: null,
    proximity: null,
    vector: null,
    sentence: null,
    queries: [],
    rerankScore: 1,
    coverage: 0,
    intentBoost: 0,
  };
}

const point = (id: string, topic: string, search_keywords: string[]): KnowledgePoint => ({
  id,
  category: "Methods",
  topic,
  search_keywords,
  importance: "high",
});

describe("assigning passages to points", () => {
  const pools = passage("p1", 1, "We deploy conductivity sensors in rocky tidal pools and watch the readings drift.");
  const drift = passage("p3", 3, "Weekly reference sampling removed most of the calibration drift of the readings.");

  it("gives a passage found by two points to the one whose topic it mentions", () => {
    // the drift point's keywords cover the first passage better, but only the pools point's topic is in it
    const points = [
      point("a", "Calibration drift", ["drift", "readings", "sensors", "conductivity"]),
      point("b", "Rocky tidal pools", ["tidal pools"]),
    ];
    const { perPoint, borrowed } = assignPassages(points, [[pools, drift], [pools]], () => null);
    expect(perPoint[0]?.map((r) => r.chunkUid)).toEqual(["p3"]);
    expect(perPoint[1]?.map((r) => r.chunkUid)).toEqual(["p1"]);
    expect(borrowed[1]?.size).toBe(0);
  });

  it("a point left without a passage that mentions it borrows one that does, not any other", () => {
    const other = passage("p2", 2, "The shore gateway stores the readings and forwards them over a cellular link.");
    const points = [
      point("a", "Rocky tidal pools", ["rocky tidal pools"]),
      point("b", "Tidal pools", ["shore gateway"]),
    ];
    // b finds the gateway passage (its own, not about tidal pools) and the pools passage, which a owns
    const { perPoint, borrowed } = assignPassages(points, [[pools], [other, pools]], () => null);
    expect(perPoint[0]?.map((r) => r.chunkUid)).toEqual(["p1"]);
    expect(perPoint[1]?.map((r) => r.chunkUid)).toEqual(["p2", "p1"]);
    expect([...(borrowed[1] ?? [])]).toEqual(["p1"]);
  });
});

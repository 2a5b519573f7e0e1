/**
 * Scoring of predicted knowledge-graph edges against the gold set (bench/graph/README.md). The function lives in
 * lib/graph/eval.ts, beside its unit test (vitest runs lib/**, not bench/**); this module re-exports it for benchmarks
 * and adds a file loader.
 */
import fs from "node:fs";
import type { GoldEdge, GoldFile } from "@/lib/graph/eval";

export {
  edgeMatches,
  entityMatches,
  type GoldEdge,
  type GoldFile,
  type GoldScore,
  type PredictedEdge,
  scoreAgainstGold,
} from "@/lib/graph/eval";

/** The edges of one gold file (gold-dev.json while tuning; gold-heldout.json only for the final report). */
export function loadGold(file: string): GoldEdge[] {
  const gold = JSON.parse(fs.readFileSync(file, "utf8")) as GoldFile;
  if (!Array.isArray(gold.edges)) throw new Error(`${file}: no "edges" array`);
  return gold.edges;
}

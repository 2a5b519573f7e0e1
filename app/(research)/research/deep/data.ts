import "server-only";
import type { DeepRunInfo, DeepVersion } from "@/components/deep/types";
import type { Database } from "@/db";
import { listVersions } from "@/db/queries/research";
import { type ClarifyingAnswer, clarifyingAnswerSchema, type Outline, outlineSchema } from "@/lib/research/deep/types";
import { diffOutlines } from "@/lib/research/deep/versions";

/** A run's stored options read defensively: the outline, answers and feedback of a deep run, or nothing. */
export function deepOptions(options: Record<string, unknown>): {
  outline: Outline;
  answers: ClarifyingAnswer[];
  feedback: string | null;
} | null {
  if (options.deep !== true) return null;
  const outline = outlineSchema.safeParse(options.outline);
  if (!outline.success) return null;
  const answers = clarifyingAnswerSchema.array().safeParse(options.answers ?? []);
  return {
    outline: outline.data,
    answers: answers.success ? answers.data : [],
    feedback: typeof options.feedback === "string" && options.feedback ? options.feedback : null,
  };
}

/**
 * The run's outline and its family of versions (v1 is the oldest), each with what changed in the outline from its
 * parent. Null when the run does not exist.
 */
export async function loadDeepRunInfo(db: Database, runId: string): Promise<DeepRunInfo | null> {
  const family = await listVersions(db, runId);
  const self = family.find((v) => v.id === runId);
  if (!self) return null;
  const numbers = new Map(family.map((v, i) => [v.id, i + 1]));
  const byId = new Map(family.map((v) => [v.id, v]));
  const versions: DeepVersion[] = family.map((v, i) => {
    const deep = deepOptions(v.options);
    const parent = v.parentId ? byId.get(v.parentId) : undefined;
    const parentDeep = parent ? deepOptions(parent.options) : null;
    return {
      id: v.id,
      number: i + 1,
      parentId: v.parentId,
      parentNumber: v.parentId ? (numbers.get(v.parentId) ?? null) : null,
      status: v.status,
      startedAt: v.startedAt,
      kind: deep ? "deep" : "quick",
      feedback: deep?.feedback ?? null,
      diff: deep && parentDeep ? diffOutlines(parentDeep.outline, deep.outline) : null,
      pointCount: deep ? deep.outline.knowledge_points.length : null,
    };
  });
  const deep = deepOptions(self.options);
  return {
    runId,
    deep: deep !== null,
    outline: deep?.outline ?? null,
    answers: deep?.answers ?? [],
    feedback: deep?.feedback ?? null,
    versions,
  };
}

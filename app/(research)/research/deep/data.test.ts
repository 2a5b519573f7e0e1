import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { finishRun, insertRun } from "@/db/queries/research";
import { createAppTestDatabase } from "@/db/testing";
import type { Outline } from "@/lib/research/deep/types";
import type { RunOptions } from "@/lib/research/types";

import { deepOptions, loadDeepRunInfo } from "./data";

const V1 = "vvvvvvvvvvvvvvvvvvvvv1";
const V2 = "vvvvvvvvvvvvvvvvvvvvv2";
const V3 = "vvvvvvvvvvvvvvvvvvvvv3";
const OTHER = "oooooooooooooooooooooo";

const OUTLINE: Outline = {
  title: "Tidal sensing",
  knowledge_points: [
    { id: "kp1", category: "Methods", topic: "Sensor buoys", search_keywords: ["buoy"], importance: "high" },
    { id: "kp2", category: "Results", topic: "Drift", search_keywords: ["drift"], importance: "medium" },
  ],
  search_strategy: "",
};
const EDITED: Outline = {
  ...OUTLINE,
  title: "Tidal sensing, revisited",
  year_from: 2020,
  knowledge_points: [
    { ...(OUTLINE.knowledge_points[0] as Outline["knowledge_points"][number]), importance: "low" },
    { id: "kp3", category: "General", topic: "Calibration", search_keywords: ["saline"], importance: "medium" },
  ],
};

let handle: DbHandle;

/** `options` as stored — possibly broken on purpose (an outline that no longer parses is read defensively). */
async function addRun(id: string, at: string, options: object, parentId: string | null) {
  await insertRun(handle.db, {
    id,
    question: "How do tidal sensors drift?",
    mode: "offline",
    model: "extractive",
    startedAt: at,
    steps: [],
    options: options as RunOptions,
    parentId,
  });
  await finishRun(handle.db, id, { status: "completed", durationMs: 10 });
}

beforeAll(async () => {
  handle = await createAppTestDatabase();
  await addRun(V1, "2026-01-01T10:00:00.000Z", {}, null);
  await addRun(V2, "2026-01-01T10:05:00.000Z", { deep: true, outline: OUTLINE, feedback: "more on drift" }, V1);
  await addRun(
    V3,
    "2026-01-01T10:10:00.000Z",
    { deep: true, outline: EDITED, answers: [{ id: "focus", question: "Which?", answer: "Drift" }] },
    V2,
  );
  await addRun(OTHER, "2026-01-01T11:00:00.000Z", { deep: true, outline: { title: "broken" } }, null);
});

afterAll(async () => {
  await handle?.close();
});

describe("deep run info", () => {
  it("numbers the family oldest first, with what each version changed from its parent", async () => {
    const info = await loadDeepRunInfo(handle.db, V3);
    expect(info).toMatchObject({
      runId: V3,
      deep: true,
      outline: EDITED,
      answers: [{ id: "focus", answer: "Drift" }],
      feedback: null,
    });
    expect(info?.versions.map((v) => [v.number, v.id, v.kind, v.parentNumber, v.pointCount, v.feedback])).toEqual([
      [1, V1, "quick", null, null, null],
      [2, V2, "deep", 1, 2, "more on drift"],
      [3, V3, "deep", 2, 2, null],
    ]);
    // a deep version of a quick answer has no outline to compare with
    expect(info?.versions[1]?.diff).toBeNull();
    expect(info?.versions[2]?.diff).toEqual({
      titleChanged: { from: "Tidal sensing", to: "Tidal sensing, revisited" },
      yearsChanged: { from: "all years", to: "2020–…" },
      added: [EDITED.knowledge_points[1]],
      removed: [OUTLINE.knowledge_points[1]],
      changed: [{ id: "kp1", topic: "Sensor buoys", fields: ["importance"] }],
      reordered: false,
    });
    // every version of the family lists the same versions
    expect((await loadDeepRunInfo(handle.db, V1))?.versions.map((v) => v.id)).toEqual([V1, V2, V3]);
    expect(await loadDeepRunInfo(handle.db, V1)).toMatchObject({ deep: false, outline: null, feedback: null });
  });

  it("treats unreadable options as a quick run, and an unknown run as nothing", async () => {
    expect(await loadDeepRunInfo(handle.db, OTHER)).toMatchObject({
      deep: false,
      versions: [{ id: OTHER, number: 1 }],
    });
    expect(await loadDeepRunInfo(handle.db, "nnnnnnnnnnnnnnnnnnnnnn")).toBeNull();
    expect(deepOptions({ deep: true, outline: OUTLINE, answers: "nope", feedback: "" })).toEqual({
      outline: OUTLINE,
      answers: [],
      feedback: null,
    });
    expect(deepOptions({ outline: OUTLINE })).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { newlyFinished, type QueueBatch } from "./job-queue-types";

const batch = (id: string, libraryStatus: QueueBatch["libraryStatus"]): QueueBatch => ({
  id,
  origin: "web",
  createdAt: "2026-11-27T12:00:00.000Z",
  libraryStatus,
  libraryStage: null,
  libraryDone: null,
  libraryOf: null,
  libraryError: null,
  files: [],
});

describe("newlyFinished", () => {
  it("names each batch once, when it is first seen ended — whether or not it was seen running before", () => {
    const seen = new Set<string>();
    // a batch that began and ended between two polls is new the first time it shows up
    expect(newlyFinished([batch("a", "done")], seen)).toEqual(["a"]);
    expect(newlyFinished([batch("a", "done")], seen)).toEqual([]);
    // one seen running, then ended
    expect(newlyFinished([batch("a", "done"), batch("b", "running")], seen)).toEqual([]);
    expect(newlyFinished([batch("a", "done"), batch("b", "waiting")], seen)).toEqual([]);
    expect(newlyFinished([batch("b", "error"), batch("c", "skipped")], seen)).toEqual(["b", "c"]);
    expect([...seen].sort()).toEqual(["a", "b", "c"]);
  });
});

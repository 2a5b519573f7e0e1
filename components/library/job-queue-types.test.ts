import { describe, expect, it } from "vitest";
import { newlyFinished, type QueueBatch, type QueueFile, queueOpenByDefault } from "./job-queue-types";

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

describe("queueOpenByDefault", () => {
  const file = (status: QueueFile["status"]): QueueFile => ({
    id: status,
    name: `${status}.pdf`,
    status,
    stage: null,
    done: null,
    of: null,
    attempts: 1,
    paperId: null,
    title: null,
    error: status === "error" ? "not a PDF" : null,
  });
  const withFiles = (b: QueueBatch, ...statuses: QueueFile["status"][]): QueueBatch => ({
    ...b,
    files: statuses.map(file),
  });

  it("opens while a batch has work left or when something failed; folds a list of finished work", () => {
    expect(queueOpenByDefault([withFiles(batch("a", "done"), "ingested", "unchanged", "replaced")])).toBe(false);
    expect(queueOpenByDefault([])).toBe(false);
    expect(queueOpenByDefault([withFiles(batch("a", "done"), "ingested", "error")])).toBe(true);
    expect(queueOpenByDefault([withFiles(batch("a", "error"), "ingested")])).toBe(true);
    // work left: files waiting or worked, or the library step after them
    expect(queueOpenByDefault([withFiles(batch("a", "waiting"), "ingested", "queued")])).toBe(true);
    expect(queueOpenByDefault([withFiles(batch("a", "running"), "ingested")])).toBe(true);
    expect(queueOpenByDefault([withFiles(batch("a", "done"), "ingested"), batch("b", "waiting")])).toBe(true);
  });
});

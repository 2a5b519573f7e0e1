import { describe, expect, it } from "vitest";
import type { OutlineDiff } from "@/lib/research/deep/versions";
import type { DeepVersion } from "./types";
import { changeLines, changeSummary, versionLabel } from "./versions";

const none: OutlineDiff = {
  titleChanged: null,
  yearsChanged: null,
  added: [],
  removed: [],
  changed: [],
  reordered: false,
};

function version(patch: Partial<DeepVersion>): DeepVersion {
  return {
    id: "r2",
    number: 2,
    parentId: "r1",
    parentNumber: 1,
    status: "completed",
    startedAt: "2026-01-01T00:00:00.000Z",
    kind: "deep",
    feedback: null,
    diff: none,
    pointCount: 4,
    ...patch,
  };
}

const edited: OutlineDiff = {
  titleChanged: { from: "A", to: "B" },
  yearsChanged: { from: "all years", to: "2020–…" },
  added: [
    { id: "kp5", category: "General", topic: "Calibration", search_keywords: ["saline", "drift"], importance: "high" },
  ],
  removed: [{ id: "kp2", category: "Methods", topic: "Buoys", search_keywords: ["buoy"], importance: "low" }],
  changed: [{ id: "kp1", topic: "Sensors", fields: ["importance", "search_keywords"] }],
  reordered: true,
};

describe("versions", () => {
  it("labels a version by what made it", () => {
    expect(versionLabel(version({ kind: "quick", diff: null, parentId: null, parentNumber: null }))).toBe(
      "Quick answer",
    );
    expect(versionLabel(version({ parentId: null, parentNumber: null, diff: null }))).toBe("Deep research");
    expect(versionLabel(version({ diff: edited }))).toBe("Edited outline");
    expect(versionLabel(version({}))).toBe("Rerun, same outline");
    expect(versionLabel(version({ diff: null }))).toBe("Deep research of the quick answer");
    expect(versionLabel(version({ feedback: "improve: add more on the mathematical foundations of it all" }))).toBe(
      "Improved: “add more on the mathematical foundations of it…”",
    );
  });

  it("lists what changed from the parent, a line per change", () => {
    expect(changeLines(version({ diff: edited }))).toEqual([
      { kind: "title", text: "Title “A” → “B”" },
      { kind: "years", text: "Years: all years → from 2020" },
      { kind: "added", text: "Added “Calibration” (high; saline, drift)" },
      { kind: "removed", text: "Removed “Buoys”" },
      { kind: "changed", text: "Changed “Sensors”: importance, keywords" },
      { kind: "reordered", text: "Points reordered" },
    ]);
    expect(changeLines(version({}))).toEqual([{ kind: "same", text: "Same outline as v1" }]);
    expect(changeLines(version({ diff: null, feedback: "Improve: more on drift" }))).toEqual([
      { kind: "feedback", text: "Improved with the feedback “more on drift”" },
      { kind: "origin", text: "Outline made for the quick answer of v1" },
    ]);
    expect(changeLines(version({ parentId: null, parentNumber: null, diff: null }))).toEqual([]);
  });

  it("says year ranges in words", () => {
    const until: OutlineDiff = { ...none, yearsChanged: { from: "2019–2024", to: "…–2022" } };
    expect(changeLines(version({ diff: until }))).toEqual([{ kind: "years", text: "Years: 2019–2024 → until 2022" }]);
  });

  it("sums a change up", () => {
    expect(changeSummary(edited)).toBe("+1 −1 ~3");
    expect(changeSummary(none)).toBe("");
    expect(changeSummary(null)).toBe("");
  });
});

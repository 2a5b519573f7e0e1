import { describe, expect, it } from "vitest";
import { improveNotice } from "./use-deep-run";

describe("improveNotice", () => {
  it("says what the feedback changed in the outline, and only that", () => {
    expect(
      improveNotice({ addedPoint: "Multi-agent debate", addedPoints: ["Multi-agent debate", "STaR and LMSI"] }),
    ).toBe("Added 2 knowledge points for your feedback: “Multi-agent debate”, “STaR and LMSI”.");
    expect(improveNotice({ addedPoint: null, addedPoints: [], reshapedPoints: ["Self-correction"] })).toBe(
      "Already in the outline: “Self-correction”, which now searches for it too.",
    );
    expect(
      improveNotice({
        addedPoint: "Multi-agent debate",
        addedPoints: ["Multi-agent debate"],
        reshapedPoints: ["A", "B"],
      }),
    ).toBe(
      "Added a knowledge point for your feedback: “Multi-agent debate”. Also already in the outline: “A”, “B”, which now search for it too.",
    );
    // an older server's plan: the one added point
    expect(improveNotice({ addedPoint: "Packet loss" })).toBe(
      "Added a knowledge point for your feedback: “Packet loss”.",
    );
    expect(improveNotice({ addedPoint: null })).toMatch(
      /^Your feedback names no topic the outline lacks: no point was added/,
    );
  });
});

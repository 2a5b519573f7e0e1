import { describe, expect, it } from "vitest";
import { questionProblem } from "@/components/research/question-form";
import { feedbackInputSchema, questionSchema, runIdSchema, startResearchInputSchema } from "./schema";

function problem(q: unknown): string | null {
  const r = questionSchema.safeParse(q);
  return r.success ? null : (r.error.issues[0]?.message ?? "?");
}

describe("questionSchema", () => {
  it("accepts a question, trimmed, with control characters blanked", () => {
    expect(questionSchema.parse("  What is RRF?\u0000\n ")).toBe("What is RRF?");
    expect(questionSchema.parse("line one\nline two")).toBe("line one\nline two");
  });

  it("says what is wrong with an empty, long or wordless question", () => {
    expect(problem("   ")).toBe("Type a question about your papers.");
    expect(problem("x".repeat(20_000))).toBe("The question is too long (20,000 characters); keep it under 2,000.");
    expect(problem("?!? … ***")).toBe("The question has no words in it (only punctuation or symbols).");
    expect(problem(42)).toBe("The question must be text.");
  });

  it("treats hostile text as text", () => {
    expect(questionSchema.parse("<script>alert(1)</script>'; drop table papers; --")).toBe(
      "<script>alert(1)</script>'; drop table papers; --",
    );
  });

  it("agrees with the question box's own check", () => {
    for (const q of ["", "  ", "x".repeat(2001), "Fine question?"]) {
      expect(questionProblem(q)).toBe(problem(q));
    }
  });
});

describe("runIdSchema", () => {
  it("accepts base64url ids and nothing else", () => {
    expect(runIdSchema.safeParse("q9XhC1v2b3n4m5k6j7h8gA").success).toBe(true);
    expect(runIdSchema.safeParse("../../etc/passwd").success).toBe(false);
    expect(runIdSchema.safeParse("short").success).toBe(false);
    expect(runIdSchema.safeParse("").success).toBe(false);
  });
});

describe("feedbackInputSchema", () => {
  it("keeps a trimmed comment, and none when it is blank", () => {
    const runId = "q9XhC1v2b3n4m5k6j7h8gA";
    expect(feedbackInputSchema.parse({ runId, rating: "helpful", comment: "  good " })).toEqual({
      runId,
      rating: "helpful",
      comment: "good",
    });
    expect(feedbackInputSchema.parse({ runId, rating: "not_helpful", comment: "  " }).comment).toBeNull();
    expect(feedbackInputSchema.parse({ runId, rating: "not_helpful" }).comment).toBeNull();
    expect(feedbackInputSchema.safeParse({ runId, rating: "meh" }).success).toBe(false);
    expect(feedbackInputSchema.safeParse({ runId, rating: "helpful", comment: "x".repeat(2001) }).success).toBe(false);
  });
});

describe("startResearchInputSchema", () => {
  it("takes the web search switch, off unless it is on, and only as a boolean", () => {
    expect(startResearchInputSchema.parse({ question: "What is RRF?" })).toEqual({
      question: "What is RRF?",
      web: false,
    });
    expect(startResearchInputSchema.parse({ question: "What is RRF?", web: true }).web).toBe(true);
    expect(startResearchInputSchema.safeParse({ question: "What is RRF?", web: "yes" }).success).toBe(false);
  });
});

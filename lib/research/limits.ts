/**
 * The bounds of what a researcher may send, defined once: the forms (their counters and maxLength), the actions'
 * schemas and the library all read them from here, so a question the form accepts is never refused by the server.
 */
export const LIMITS = {
  /** Longest question (a longer text is a pasted document, not a question). */
  questionChars: 2000,
  /** "Improve: …" feedback on a run. */
  improveFeedback: { minChars: 3, maxChars: 1000 },
  /** The comment beside a helpful / not helpful verdict. */
  feedbackCommentChars: 2000,
  /** An answer to a clarifying question. */
  clarifyingAnswerChars: 1000,
  /** Answers to clarifying questions sent with an outline. */
  clarifyingAnswers: 8,
  /** An edited outline's knowledge points (a generated one has 4–8). */
  outlinePoints: { min: 1, max: 12 },
  /** Keywords of a knowledge point, and the length of one. */
  pointKeywords: 12,
  keywordChars: 80,
} as const;

/** "1,000": limits as the messages print them. */
export function formatLimit(n: number): string {
  return n.toLocaleString("en");
}

/** The messages of those limits, the same wherever they are checked. */
export const LIMIT_MESSAGES = {
  emptyQuestion: "Type a question about your papers.",
  questionTooLong: (length: number) =>
    `The question is too long (${formatLimit(length)} characters); keep it under ${formatLimit(LIMITS.questionChars)}.`,
  improveTooShort: "Say what to improve (a few words at least).",
  improveTooLong: `Keep the feedback under ${formatLimit(LIMITS.improveFeedback.maxChars)} characters.`,
  commentTooLong: `Keep the comment under ${formatLimit(LIMITS.feedbackCommentChars)} characters.`,
} as const;

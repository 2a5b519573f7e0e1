import type { ClarifyingAnswer, ClarifyingQuestion } from "@/lib/research/deep/types";

/**
 * A clarifying question's answer as the panel keeps it: one text per question (the planner keeps the texts across
 * pages). A chip of a one-answer question fills in the answer or clears it. A question that takes several
 * (`multiple`) keeps its chosen options in the text, separated by "; ", beside anything typed: a chip adds its option
 * or takes it out, and the options the text holds are the ones chosen — so typing and clicking never disagree.
 */

const SEPARATOR = "; ";

/** A stretch of a multiple question's answer: one of its options (as the question words it), or typed text. */
type Segment = { text: string; option: string | null };

/** Where a stretch may end: at a separator or the end, spaces aside. */
const ENDS = /^\s*(?:;|$)/;

/** A multiple question's answer in stretches: its options found first (the longest at each place), the rest typed. */
function segments(value: string, options: readonly string[]): Segment[] {
  const longestFirst = [...options].sort((a, b) => b.length - a.length);
  const out: Segment[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && /[\s;]/.test(value[i] as string)) i++;
    if (i >= value.length) break;
    const option = longestFirst.find(
      (o) => value.slice(i, i + o.length).toLowerCase() === o.toLowerCase() && ENDS.test(value.slice(i + o.length)),
    );
    if (option) {
      out.push({ text: option, option });
      i += option.length;
      continue;
    }
    const next = value.indexOf(";", i);
    const end = next < 0 ? value.length : next;
    out.push({ text: value.slice(i, end).trim(), option: null });
    i = end;
  }
  return out;
}

/** The options an answer has chosen: the one it is (any case), or for a multiple question each one it holds. */
export function chosenOptions(question: ClarifyingQuestion, value: string): string[] {
  if (!question.multiple) {
    const t = value.trim().toLowerCase();
    return question.options.filter((o) => o.toLowerCase() === t).slice(0, 1);
  }
  const chosen: string[] = [];
  for (const s of segments(value, question.options)) if (s.option && !chosen.includes(s.option)) chosen.push(s.option);
  return chosen;
}

/** The answer after a click on `option`'s chip. */
export function toggleOption(question: ClarifyingQuestion, value: string, option: string): string {
  const on = chosenOptions(question, value).includes(option);
  if (!question.multiple) return on ? "" : option;
  const kept = segments(value, question.options).filter((s) => s.option !== option);
  return [...kept.map((s) => s.text), ...(on ? [] : [option])].join(SEPARATOR);
}

/** The answer sent for the outline, or null when the question was left unanswered. */
export function answerOf(question: ClarifyingQuestion, value: string): ClarifyingAnswer | null {
  const answer = value.trim();
  if (!answer) return null;
  if (!question.multiple) return { id: question.id, question: question.question, answer };
  const parts = segments(value, question.options);
  if (parts.length === 0) return null;
  const chosen = chosenOptions(question, value);
  return {
    id: question.id,
    question: question.question,
    answer: parts.map((s) => s.text).join(SEPARATOR),
    ...(chosen.length > 0 ? { choices: chosen } : {}),
  };
}

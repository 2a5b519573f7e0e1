/**
 * Models and rules propose, code enforces. Every candidate edge — from the offline rules or from a model — passes
 * these checks before it is written; what fails is counted by reason and never stored:
 *
 * 1. shape: a known relation and entity types, names of 1–100 characters, a page number, a quote, a confidence in
 *    [0, 1] (anything else is `malformed`);
 * 2. no self-edges (the same canonical name on both sides; for `uses`, nor the source's own variant: "Codex-12B");
 * 3. the types fit the relation (`evaluates_on` targets a Dataset or Task, …: RELATION_TYPES);
 * 4. the quote is on the stated page, after folding whitespace, line-end hyphenation, ligatures and case on both
 *    sides; the stored quote is then the page's own text at the offsets found, at most 300 characters;
 * 5. both entities (by name or an alias — the paper's own method also as "we" / "our model") occur in the quote or
 *    its sentence's neighbourhood (the sentence before and after);
 * 6. a confidence below 0.6 sends the edge to review, not into the graph.
 */
import { splitSentences } from "@/lib/ingest/chunk";
import { escapeRegExp } from "@/lib/text/regexp";
import { SELF_REFERENCE } from "./extract-rules";
import { canonicalName, foldForMatch, locateQuote, type MappedText, mentionsName } from "./normalize";
import {
  ACCEPT_CONFIDENCE,
  type Candidate,
  isEntityType,
  isRelation,
  MAX_QUOTE_CHARS,
  type RejectReason,
  typeMismatch,
  type ValidEdge,
} from "./types";

/** A paper's pages prepared once for validating many candidates. */
export class PageIndex {
  private readonly pages = new Map<
    number,
    { text: string; folded?: MappedText; sentences?: { start: number; end: number }[] }
  >();

  constructor(pages: { pageNumber: number; text: string }[]) {
    for (const p of pages) this.pages.set(p.pageNumber, { text: p.text });
  }

  text(page: number): string | null {
    return this.pages.get(page)?.text ?? null;
  }

  folded(page: number): MappedText | null {
    const p = this.pages.get(page);
    if (!p) return null;
    p.folded ??= foldForMatch(p.text);
    return p.folded;
  }

  /** The text of the sentences around [start, end): the one(s) it is in, and one before and after. */
  neighbourhood(page: number, start: number, end: number): string {
    const p = this.pages.get(page);
    if (!p) return "";
    p.sentences ??= splitSentences(p.text);
    const s = p.sentences;
    let first = s.findIndex((x) => x.end > start);
    if (first < 0) first = s.length - 1;
    let last = first;
    while (last + 1 < s.length && (s[last + 1] as { start: number }).start < end) last++;
    const from = (s[Math.max(0, first - 1)] as { start: number } | undefined)?.start ?? start;
    const to = (s[Math.min(s.length - 1, last + 1)] as { end: number } | undefined)?.end ?? end;
    return p.text.slice(Math.min(from, start), Math.max(to, end));
  }
}

export interface ValidationContext {
  pages: PageIndex;
  /** Other names of an entity that count as it in the text (acronym ↔ long form, known aliases), by canonical name. */
  aliases: (name: string) => string[];
  /** The paper's own method, which "we" / "our model" stand for. */
  ownMethod: string | null;
}

export type Validation = { ok: true; edge: ValidEdge } | { ok: false; reason: RejectReason; detail: string };

function fail(reason: RejectReason, detail: string): Validation {
  return { ok: false, reason, detail };
}

function wellFormedName(v: unknown): v is string {
  return typeof v === "string" && v.trim().length >= 1 && v.trim().length <= 100;
}

/** Checks one candidate against the paper's pages (see the module's comment for the rules). */
export function validateCandidate(c: Candidate, ctx: ValidationContext): Validation {
  if (
    !c ||
    !isRelation(c.relation) ||
    !c.source ||
    !c.target ||
    !wellFormedName(c.source.name) ||
    !wellFormedName(c.target.name) ||
    !isEntityType(c.source.type) ||
    !isEntityType(c.target.type) ||
    !Number.isInteger(c.page) ||
    typeof c.quote !== "string" ||
    c.quote.trim().length === 0 ||
    typeof c.confidence !== "number" ||
    !(c.confidence >= 0 && c.confidence <= 1)
  ) {
    return fail("malformed", "not a well-formed candidate");
  }
  const source = c.source.name.trim();
  const target = c.target.name.trim();
  if (canonicalName(source) === canonicalName(target)) return fail("self_edge", `${source} → ${target}`);
  // "we use Codex-12B to generate …": a method does not use its own variant
  if (c.relation === "uses" && new RegExp(`^${escapeRegExp(source)}[-\\s]`, "i").test(target)) {
    return fail("self_edge", `${target} is a variant of ${source}`);
  }
  const mismatch = typeMismatch(c.relation, c.source.type, c.target.type);
  if (mismatch) return fail("type_mismatch", mismatch);
  const text = ctx.pages.text(c.page);
  const folded = ctx.pages.folded(c.page);
  if (text === null || folded === null) return fail("page_missing", `the paper has no page ${c.page}`);
  const span = locateQuote(text, c.quote, { folded });
  if (!span) return fail("quote_not_on_page", `not found on page ${c.page}`);
  const quote = text.slice(span.start, span.end);
  if (quote.length > MAX_QUOTE_CHARS) return fail("quote_too_long", `${quote.length} characters`);
  const context = ctx.pages.neighbourhood(c.page, span.start, span.end);
  const own = ctx.ownMethod ? canonicalName(ctx.ownMethod) : null;
  const present = (name: string) => {
    if ([name, ...ctx.aliases(name)].some((n) => mentionsName(context, n))) return true;
    return own !== null && canonicalName(name) === own && SELF_REFERENCE.test(context.replace(/\s+/g, " "));
  };
  if (!present(source)) return fail("names_not_in_context", `“${source}” is not in the quote or around it`);
  if (!present(target)) return fail("names_not_in_context", `“${target}” is not in the quote or around it`);
  const accepted = c.confidence >= ACCEPT_CONFIDENCE;
  return {
    ok: true,
    edge: {
      ...c,
      source: { ...c.source, name: source },
      target: { ...c.target, name: target },
      quote,
      charStart: span.start,
      charEnd: span.end,
      status: accepted ? "accepted" : "review",
      reason: accepted
        ? null
        : `confidence ${c.confidence.toFixed(2)} is below ${ACCEPT_CONFIDENCE}${c.note ? ` (${c.note})` : ""}`,
    },
  };
}

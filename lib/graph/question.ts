/**
 * Questions the knowledge graph can answer, recognised in a research question, and their answers.
 *
 *   recognizeGraphQuestion("Which papers improve on BERT?")   → { kind: "improved_by", entities: ["BERT"] }
 *   answerGraphQuestion(db, q)                                → the entities resolved and the edges that answer it
 *
 * Recognition is by sentence shape only (the verbs of lineage — improve on, outperform, build on, extend, use,
 * evaluate on — and "how does X relate to Y"), never by a list of names: what stands where a name stands is looked up
 * in the graph afterwards, and an unknown name is reported with close names, not guessed.
 */
import type { Database } from "@/db";
import { findGraphEdges } from "@/db/queries/graph";
import { type EntityRef, type GraphEdgeResult, queryRelation, resolveEntity, toResult } from "./query";
import type { GraphRelation } from "./types";

export type GraphQuestionKind =
  /** What improves on X (directly or through other works). */
  | "improved_by"
  /** What builds on X: extends or uses it. */
  | "built_on_by"
  /** What X builds on: what it uses and extends. */
  | "builds_on"
  /** Which methods are evaluated on (or use) dataset / task D. */
  | "evaluated_on"
  /** How X relates to Y: the edges between them, either way. */
  | "relate";

export interface GraphQuestion {
  kind: GraphQuestionKind;
  /** The names as the question writes them: one, or two for `relate`. */
  entities: string[];
}

/** What a graph question asks, in words (the step card's title and the answer's heading). */
export function describeGraphQuestion(q: GraphQuestion): string {
  const [a = "", b = ""] = q.entities;
  switch (q.kind) {
    case "improved_by":
      return `what improves on ${a}`;
    case "built_on_by":
      return `what builds on ${a}`;
    case "builds_on":
      return `what ${a} builds on`;
    case "evaluated_on":
      return `what is evaluated on ${a}`;
    case "relate":
      return `how ${a} relates to ${b}`;
  }
}

/** A name is at most this long; longer spans are sentences, not names. */
const MAX_NAME_WORDS = 8;
const MAX_NAME_CHARS = 80;

const SUBJECTS =
  "(?:papers?|methods?|models?|works?|approaches|approach|systems?|architectures?|techniques?|studies|ones?)";
const IMPROVE_VERB = String.raw`(?:improves?|improved|improving|outperforms?|outperformed|outperforming|beats?|beat|surpass(?:es|ed)?|exceeds?|exceeded|(?:is|are|was|were)\s+better\s+than|(?:do|does|did)\s+better\s+than)`;
const BUILD_VERB = String.raw`(?:builds?|built|building)\s+(?:on|upon)|extends?|extended|extending|(?:is|are|was|were)\s+based\s+on|follows?\s+up\s+on`;

/** Patterns, tried in order; the captured groups are the names. */
const PATTERNS: { kind: GraphQuestionKind; re: RegExp }[] = [
  // "how does X relate to / compare with / differ from Y", "X relate to Y"
  {
    kind: "relate",
    re: /^(?:(?:how(?:\s+(?:well|much|closely|exactly))?|why|when|where|in\s+what\s+ways?)\s+(?:does|do|did|is|are|was|were)\s+)?(.+?)\s+(?:relate[sd]?|related|compare[sd]?|compared|connect(?:ed|s)?|differ(?:s|ed)?)\s+(?:to|with|from|against)\s+(.+)$/i,
  },
  // "relationship / connection / difference between X and Y"
  {
    kind: "relate",
    re: /\b(?:relationship|relation|connection|link|differences?|comparison)\s+between\s+(.+?)\s+and\s+(.+)$/i,
  },
  // "which papers improve on X", "what outperforms X", "what is better than X"
  {
    kind: "improved_by",
    re: new RegExp(
      String.raw`^(?:which|what)(?:\s+${SUBJECTS})?(?:\s+in\s+(?:my|the|this)\s+library)?\s+(?:have\s+|has\s+)?${IMPROVE_VERB}(?:\s+(?:on|upon|over))?\s+(.+)$`,
      "i",
    ),
  },
  // "improvements on / over X", "successors of X", "what came after X"
  { kind: "improved_by", re: /\b(?:improvements?\s+(?:on|over|to|upon)|successors?\s+(?:of|to))\s+(.+)$/i },
  { kind: "improved_by", re: /^what\s+came\s+after\s+(.+)$/i },
  // "what does X use / build on / extend / rely on"
  {
    kind: "builds_on",
    re: /^what\s+(?:does|do|did)\s+(.+?)\s+(?:use|build\s+(?:on|upon)|extend|rely\s+on|depend\s+on|borrow\s+from|draw\s+on)$/i,
  },
  // "what is X based on / built on"
  { kind: "builds_on", re: /^what\s+(?:is|are|was|were)\s+(.+?)\s+(?:based|built)\s+(?:on|upon)$/i },
  // "which methods are evaluated / tested / benchmarked on D"
  {
    kind: "evaluated_on",
    re: new RegExp(
      String.raw`^(?:which|what)(?:\s+${SUBJECTS})?\s+(?:are|were|is|was|have\s+been|has\s+been|get|got)?\s*(?:evaluated|tested|benchmarked|assessed|measured|compared)\s+(?:on|against|using)\s+(.+)$`,
      "i",
    ),
  },
  // "which methods use D" (a dataset or a method: both the uses and the evaluated-on edges answer it)
  {
    kind: "evaluated_on",
    re: new RegExp(
      String.raw`^(?:which|what)\s+${SUBJECTS}\s+(?:use|uses|used|train\s+on|report\s+results\s+on)\s+(.+)$`,
      "i",
    ),
  },
  // "which papers build on / extend X", "what builds on X"
  {
    kind: "built_on_by",
    re: new RegExp(String.raw`^(?:which|what)(?:\s+${SUBJECTS})?\s+(?:${BUILD_VERB})\s+(.+)$`, "i"),
  },
];

/** Trims a captured name: articles, "in my library", "the X model" → "X model" (resolution drops the kind word). */
function cleanName(raw: string): string | null {
  const name = raw
    .replace(/[?!.]+$/g, "")
    .replace(/\s+(?:in|from|among|within)\s+(?:my|the|this|our)\s+(?:library|collection|papers)$/i, "")
    .replace(/\s+(?:so\s+far|today|now|directly|transitively)$/i, "")
    .replace(/^(?:the|a|an)\s+/i, "")
    .replace(/^["“'‘](.*)["”'’]$/, "$1")
    .trim();
  if (!name || name.length > MAX_NAME_CHARS || name.split(/\s+/).length > MAX_NAME_WORDS) return null;
  // a pronoun or a question word is not a name ("how does it compare to …")
  if (/^(?:it|this|that|they|them|these|those|each\s+other|one\s+another|which|what|who)$/i.test(name)) return null;
  // nor what starts with a question word: "which methods are compared against BERT" names no "which methods are"
  if (/^(?:which|what|who|whom|whose|how|why|when|where)\b/i.test(name)) return null;
  return name;
}

/** The graph question a research question asks, or null when it does not ask one. */
export function recognizeGraphQuestion(question: string): GraphQuestion | null {
  const text = question
    .normalize("NFKC")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[?!.]+$/, "");
  if (!text || text.length > 300) return null;
  for (const { kind, re } of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const names = m.slice(1).map((g) => cleanName(g ?? ""));
    if (names.some((n) => n === null)) continue;
    const entities = names as string[];
    if (kind === "relate" && entities[0]?.toLowerCase() === entities[1]?.toLowerCase()) continue;
    return { kind, entities };
  }
  return null;
}

/** Words that say what kind of thing a name is, dropped when the name as written is not in the graph. */
const KIND_WORDS =
  /\s+(?:model|models|method|methods|approach|architecture|algorithm|framework|system|paper|dataset|benchmark|corpus|task|metric|score)$/i;

export type ResolvedName =
  | { asked: string; found: true; entity: EntityRef }
  | { asked: string; found: false; message: string; suggestions: EntityRef[] };

/**
 * A name as the question writes it, resolved: as written, else without its kind word, else its acronym "(DPR)", else
 * without a trailing qualifier ("on SQuAD").
 */
async function resolveAsked(db: Database, asked: string): Promise<ResolvedName> {
  const tries = [asked];
  const bare = asked.replace(KIND_WORDS, "").trim();
  if (bare && bare !== asked) tries.push(bare);
  const acronym = /\(([A-Za-z][\w-]{1,15})\)/.exec(asked)?.[1];
  if (acronym) tries.push(acronym, asked.replace(/\s*\([^)]*\)/, "").trim());
  // "RoBERTa on SQuAD", "BERT for question answering": the name before a trailing qualifier (tried last, so a name
  // that holds such a phrase is still found as written)
  const head = asked.replace(/\s+(?:on|in|for|at|across|over|under|with|without)\s+.*$/i, "").trim();
  if (head && head !== asked && !tries.includes(head)) tries.push(head);
  let first: Awaited<ReturnType<typeof resolveEntity>> | null = null;
  for (const t of tries) {
    const r = await resolveEntity(db, t);
    if (r.found) return { asked, found: true, entity: r.entity };
    first ??= r;
  }
  const miss = first as Extract<Awaited<ReturnType<typeof resolveEntity>>, { found: false }>;
  return { asked, found: false, message: miss.message, suggestions: miss.suggestions };
}

export interface GraphAnswer {
  question: GraphQuestion;
  names: ResolvedName[];
  /** Best first; transitive answers carry `path` and `depth`. */
  edges: GraphEdgeResult[];
}

/** Relations that say how two works relate, for `relate` and the context of a work. */
const RELATING: GraphRelation[] = ["improves_on", "extends", "uses", "compares_to", "evaluates_on", "introduces"];

/**
 * The edges that answer a graph question (accepted edges only), at most `limit`. Names not in the graph come back
 * unresolved, with close names; the edges are then those of the names that were found (none for a one-name question).
 */
export async function answerGraphQuestion(
  db: Database,
  question: GraphQuestion,
  { limit = 12 }: { limit?: number } = {},
): Promise<GraphAnswer> {
  const names = await Promise.all(question.entities.map((n) => resolveAsked(db, n)));
  const found = names.filter((n): n is Extract<ResolvedName, { found: true }> => n.found);
  // a claim stated on several pages (or papers) is one answer: read enough edges to keep `limit` different claims
  const fetch = limit * CLAIM_REPEATS;
  const ids = found.map((n) => n.entity.id);
  let edges: GraphEdgeResult[] = [];
  const first = found[0]?.entity;
  if (question.kind !== "relate" && first === undefined) return { question, names, edges };
  // the names are resolved already: one query by the entity's root id for all the relations asked
  const byRelations = async (relations: GraphRelation[], end: "source" | "target", id: number) =>
    (
      await findGraphEdges(db, {
        [end === "source" ? "sourceRoots" : "targetRoots"]: [id],
        relations,
        statuses: ["accepted"],
        limit: fetch,
      })
    ).map(toResult);
  switch (question.kind) {
    case "improved_by": {
      const r = await queryRelation(db, {
        relation: "improves_on",
        target: (first as EntityRef).name,
        transitive: true,
        maxDepth: 3,
        limit: fetch,
      });
      edges = r.found ? r.edges : [];
      break;
    }
    case "built_on_by":
      edges = await byRelations(["extends", "uses", "improves_on"], "target", (first as EntityRef).id);
      break;
    case "builds_on":
      edges = await byRelations(["extends", "uses", "improves_on"], "source", (first as EntityRef).id);
      break;
    case "evaluated_on":
      edges = await byRelations(["evaluates_on", "uses"], "target", (first as EntityRef).id);
      break;
    case "relate": {
      // two names of one entity (an alias, or a kind word dropped): no relation between them to report, and the
      // entity's own relations answer another question
      if (ids.length === 2 && ids[0] === ids[1]) break;
      if (ids.length === 2) {
        const [a, b] = ids as [number, number];
        const [ab, ba] = await Promise.all([
          findGraphEdges(db, { sourceRoots: [a], targetRoots: [b], statuses: ["accepted"], limit: fetch }),
          findGraphEdges(db, { sourceRoots: [b], targetRoots: [a], statuses: ["accepted"], limit: fetch }),
        ]);
        edges = [...ab, ...ba].map(toResult).sort((x, y) => y.confidence - x.confidence);
      }
      if (edges.length === 0) {
        // no edge between them (or one is unknown): what the graph says about each, a few edges apiece
        for (const n of found) {
          const out = oneEdgePerClaim(await byRelations(RELATING, "source", n.entity.id));
          edges.push(...out.slice(0, Math.ceil(limit / Math.max(1, found.length))));
        }
      }
      break;
    }
  }
  return { question, names, edges: oneEdgePerClaim(edges).slice(0, limit) };
}

/** Edges read per answer slot: a claim repeated on this many pages still leaves room for the others. */
const CLAIM_REPEATS = 4;

/**
 * The first (best) edge of each claim — the same relation between the same two entities, at the same depth of a
 * transitive answer: "XLNet outperforms BERT" stated on six pages of one paper is one answer, not six.
 */
function oneEdgePerClaim(edges: GraphEdgeResult[]): GraphEdgeResult[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const claim = `${e.source.id}|${e.relation}|${e.target.id}|${e.depth ?? 1}`;
    return !seen.has(claim) && seen.add(claim);
  });
}

/** Kinds of entity that are works (what "how these works relate" is about). */
const WORK_TYPES = new Set(["Method", "Model"]);
/** Relations between works, most telling first. */
const WORK_RELATIONS: GraphRelation[] = ["improves_on", "extends", "compares_to", "uses"];

/**
 * How the works these papers discuss relate: the accepted edges stated by these papers between methods and models
 * (improves on, extends, compared with, uses), most telling first — one edge per pair of works, at most `limit`.
 */
export async function relationsAmongPapers(
  db: Database,
  paperIds: readonly string[],
  { limit = 6 }: { limit?: number } = {},
): Promise<GraphEdgeResult[]> {
  if (paperIds.length === 0) return [];
  const rows = await findGraphEdges(db, {
    paperIds: [...paperIds],
    relations: WORK_RELATIONS,
    statuses: ["accepted"],
    limit: 200,
  });
  const rank = (r: GraphRelation) => WORK_RELATIONS.indexOf(r);
  const pairs = new Set<string>();
  return rows
    .filter((e) => WORK_TYPES.has(e.sourceType) && WORK_TYPES.has(e.targetType) && e.sourceId !== e.targetId)
    .sort((a, b) => rank(a.relation) - rank(b.relation) || b.confidence - a.confidence)
    .filter((e) => {
      const pair = [e.sourceId, e.targetId].sort((x, y) => x - y).join("-");
      return !pairs.has(pair) && pairs.add(pair);
    })
    .slice(0, limit)
    .map(toResult);
}

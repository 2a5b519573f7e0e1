/**
 * Entity resolution that never destroys: names are linked (`alias_of`), never merged, and every link can be undone
 * (db/queries/graph.ts `unlinkAlias`, which also keeps the pair apart from then on).
 *
 * - Tier A, while a paper is written (build.ts): the same canonical name is the same row ("The Transformer",
 *   "transformer"); an acronym the paper defines links its long form to it ("Dense Passage Retriever (DPR)").
 * - Tier B, here, after a build: two groups that share an acronym key — an acronym-shaped name, or the initials of a
 *   multi-word name ("DPR" ~ "Dense Passage Retrieval") — are linked when their names' vectors (the library's
 *   embedder) have cosine ≥ 0.95, and proposed for review when lower or unknown. Groups without a shared key are only
 *   proposed, when their vectors are ≥ 0.9 alike and their names share a word or may be one written otherwise
 *   ("GPT4", "GPT-4"; "CoT", "Chain-of-Thought"): "Attention (mechanism)" and an unrelated "attention" never merge
 *   silently. Versions ("GPT-2", "GPT-3") and siblings ("English-to-German",
 *   "English-to-French") are neither linked nor proposed.
 */
import type { Database } from "@/db";
import {
  addAliasSuggestions,
  deletePendingAliasSuggestions,
  type GraphEntityBrief,
  getEntityEmbeddingDimensions,
  linkAlias,
  listAliasSuggestionPairs,
  listEntitiesWithoutEmbedding,
  listEntityEmbeddings,
  resizeEntityEmbeddings,
  setEntityEmbeddings,
} from "@/db/queries/graph";
import { listPendingAliasSuggestions } from "@/db/queries/graph-review";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { TIER_B_LINK, TIER_B_SUGGEST } from "./alias-thresholds";
import { initialsOf, looksLikeAcronym } from "./normalize";

export interface TierBResult {
  linked: number;
  suggested: number;
  /** Pending proposals of earlier builds these rules no longer make, taken out of the review queue. */
  withdrawn: number;
  /** Entities given a vector in this build. */
  embedded: number;
}

/** Vectors for entities that have none (name and description), in the library's embedder's dimension. */
export async function embedNewEntities(
  db: Database,
  embedder: EmbeddingProvider,
  signal?: AbortSignal,
): Promise<number> {
  if ((await getEntityEmbeddingDimensions(db)) !== embedder.dimensions) {
    await resizeEntityEmbeddings(db, { dimensions: embedder.dimensions });
  }
  const todo = await listEntitiesWithoutEmbedding(db);
  let done = 0;
  for (let i = 0; i < todo.length; i += 128) {
    signal?.throwIfAborted();
    const part = todo.slice(i, i + 128);
    const vectors = await embedder.embed(
      part.map((e) => (e.description ? `${e.name}: ${e.description}` : e.name)),
      { signal, db },
    );
    // an all-zero vector (the latent embedder knows no word of the name) says nothing: left null
    const rows = part.flatMap((e, j) => {
      const v = vectors[j];
      return v?.some((x) => x !== 0) ? [{ id: e.id, embedding: v }] : [];
    });
    await setEntityEmbeddings(db, rows);
    done += rows.length;
  }
  return done;
}

/** The acronym keys of a name: itself when written as an acronym, and its initials when it has several words. */
export function acronymKeys(name: string): string[] {
  const keys: string[] = [];
  const bare = name.normalize("NFKC").replace(/[-\s]/g, "");
  if (looksLikeAcronym(name.trim()) && /^[\p{L}\d]+$/u.test(bare) && !/\d/.test(bare)) keys.push(bare.toLowerCase());
  const initials = initialsOf(name);
  if (initials && initials.length >= 2) keys.push(initials);
  return keys;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

interface Group {
  root: GraphEntityBrief;
  members: (GraphEntityBrief & { embedding: number[] | null })[];
  keys: Set<string>;
}

/** Best cosine between any two members' vectors (null when a side has none). */
function similarity(a: Group, b: Group): number | null {
  let best: number | null = null;
  for (const x of a.members) {
    if (!x.embedding) continue;
    for (const y of b.members) {
      if (!y.embedding) continue;
      const c = cosine(x.embedding, y.embedding);
      if (best === null || c > best) best = c;
    }
  }
  return best;
}

/** Pairs looked at to tell whether the vectors tell names apart, at most. */
const DISCRIMINATION_PAIRS = 2000;

/**
 * Do the entity vectors tell names apart? A latent space fitted on a tiny library (one or two papers) can map most
 * names to the same direction, and then every pair looks like an alias at cosine 1. When more than a fifth of the
 * pairs looked at are that close, the vectors say nothing about aliases and are not used.
 */
export function vectorsTellNamesApart(vectors: readonly number[][]): boolean {
  let pairs = 0;
  let same = 0;
  for (let i = 0; i < vectors.length && pairs < DISCRIMINATION_PAIRS; i++) {
    for (let j = i + 1; j < vectors.length && pairs < DISCRIMINATION_PAIRS; j++) {
      pairs++;
      if (cosine(vectors[i] as number[], vectors[j] as number[]) >= 0.99) same++;
    }
  }
  return pairs < 3 || same / pairs <= 0.2;
}

/**
 * Names of two versions or variants of one thing: the same letters, other numbers ("GPT-2" and "GPT-3", "Yelp-2" and
 * "Yelp-5", "DeepSeek-R1" and "DeepSeek-R1-14B", "…-Qwen-7B" and "…-Qwen-1.5B"). Never one entity, however alike their
 * vectors (their contexts are alike). A year written short is the same year ("WMT14", "WMT 2014"). A name without a
 * number beside one with it is a family and its member for a model ("GPT", "GPT-3"), but may be the same thing for a
 * dataset or metric ("SQuAD", "SQuAD 1.1"; "BLEU", "BLEU-4"): only models are kept apart then.
 */
export function differentVersions(a: string, b: string, type?: string): boolean {
  // (a number's unit is part of the number: "DeepSeek-R1-14B" is "DeepSeek-R1" at 14 billion parameters)
  const letters = (n: string) =>
    n
      .toLowerCase()
      .replace(/\d+(?:\.\d+)?[bmk]?(?!\p{L})/gu, " ")
      .replace(/[^\p{L}]+/gu, "");
  const numbers = (n: string) =>
    (n.match(/\d+(?:\.\d+)?/g) ?? []).map((x) => (/^(?:19|20)\d\d$/.test(x) ? x.slice(2) : x)).join(" ");
  if (letters(a) === "" || letters(a) !== letters(b) || numbers(a) === numbers(b)) return false;
  if (numbers(a) !== "" && numbers(b) !== "") return true;
  return type === "Model";
}

/** The words of a name, lower case ("WMT 2014 English-to-German" → wmt, 2014, english, to, german). */
function wordsOf(name: string): string[] {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** One word the same, or its plural ("ResNet" ~ "ResNets"). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 3 && (long === `${short}s` || long === `${short}es`);
}

/**
 * Two names with no word in common ("PIQA" and "WinoGrande", "Z3" and "SAT"). Vectors of names read from their
 * contexts call such pairs alike when the papers list them together (benchmarks of one table), which makes them
 * neighbours, not one thing: without a shared acronym key, they are not proposed as aliases.
 */
export function shareNoWord(a: string, b: string): boolean {
  const wb = wordsOf(b);
  return !wordsOf(a).some((x) => x.length >= 2 && wb.some((y) => sameWord(x, y)));
}

/**
 * One name may be the other written otherwise: the same letters ("GPT4", "GPT-4"), or an acronym whose letters the
 * other spells in order from its first letter on ("CoT", "Chain-of-Thought"; "MoE", "Mixture of Experts"; "kNN",
 * "k-nearest neighbours") — pairs no shared word shows.
 */
export function mayBeWrittenOtherwise(a: string, b: string): boolean {
  if (sameLetters(a, b)) return true;
  const abbreviates = (short: string, long: string) => {
    const letters = short.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
    const words = wordsOf(long);
    if (letters.length < 2 || words.length < 2 || /\s/.test(short.trim())) return false;
    const spelled = words.join(" ");
    if (spelled[0] !== letters[0]) return false;
    let at = 0;
    for (const c of letters) {
      at = spelled.indexOf(c, at);
      if (at < 0) return false;
      at++;
    }
    return true;
  };
  return abbreviates(a, b) || abbreviates(b, a);
}

/** Names with no word in common that are not one written otherwise: proposed on vectors alone, they are not. */
function unrelatedNames(a: string, b: string): boolean {
  return shareNoWord(a, b) && !mayBeWrittenOtherwise(a, b);
}

/**
 * Below this cosine, two names that share only an acronym key are not proposed: the key says they may be one thing,
 * their vectors say they are not ("Thorough Decoding" and "text-davinci-003" share TD at -0.07, "residual
 * connection" and "R-CNN" RC at 0.05). The same letters written otherwise ("MS-MARCO", "MSMARCO") are proposed
 * whatever their vectors; so is every keyed pair when the vectors cannot tell names apart.
 */
export const KEY_SUGGEST_FLOOR = 0.3;

/** The same letters and digits, case and punctuation aside ("Bert-Large", "BERTLARGE"). */
export function sameLetters(a: string, b: string): boolean {
  const f = (n: string) =>
    n
      .normalize("NFKC")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, "");
  return f(a) !== "" && f(a) === f(b);
}

/** A keyed pair whose vectors say it is no alias (KEY_SUGGEST_FLOOR). */
function keyOnly(a: string, b: string, sim: number | null): boolean {
  return sim !== null && sim < KEY_SUGGEST_FLOOR && !sameLetters(a, b);
}

/** Nouns that say what kind of thing a name is, not which one. */
const GENERIC_HEADS = new Set(
  (
    "dataset datasets data corpus corpora benchmark benchmarks suite collection set task tasks model models method " +
    "methods approach approaches architecture architectures network networks framework frameworks algorithm " +
    "algorithms system systems technique techniques score scores metric metrics measure evaluation mechanism module " +
    "layer layers objective loss"
  ).split(" "),
);

/**
 * Names of two siblings: the same words but one, where each has a word of another stem ("WMT 2014 English-to-German"
 * and "…-to-French", "BERT Base" and "BERT Large", "Modular RAG" and "Naive RAG"). Never one entity. Words of one
 * stem ("Retriever", "Retrieval") may name one thing, and are left to the vectors.
 */
export function siblingNames(a: string, b: string): boolean {
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  if (wa.length < 2 || wa.length !== wb.length) return false;
  const differ = wa.flatMap((w, i) => (sameWord(w, wb[i] as string) ? [] : [i]));
  if (differ.length !== 1) return false;
  const x = wa[differ[0] as number] as string;
  const y = wb[differ[0] as number] as string;
  if (!/^\p{L}+$/u.test(x) || !/^\p{L}+$/u.test(y)) return false;
  // "BLEU Score" and "BLEU Metric", "SQuAD Dataset" and "SQuAD Benchmark": a generic noun says what kind, not which
  if (GENERIC_HEADS.has(x) && GENERIC_HEADS.has(y)) return false;
  let common = 0;
  while (common < x.length && x[common] === y[common]) common++;
  return common < 3;
}

/** A pair of entities as one key, whichever way round. */
const pairKey = (x: number, y: number) => (x < y ? `${x}-${y}` : `${y}-${x}`);

/** Tier B over the whole graph (see the module's comment). Pairs already decided are left alone by the queries. */
export async function resolveAliasesTierB(
  db: Database,
): Promise<{ linked: number; suggested: number; withdrawn: number }> {
  const all = await listEntityEmbeddings(db);
  // vectors that call most names the same are as good as none: links and suggestions then rest on shared keys only
  const usable = vectorsTellNamesApart(all.flatMap((r) => (r.embedding ? [r.embedding] : [])));
  const rows = usable ? all : all.map((r) => ({ ...r, embedding: null }));
  const groups = new Map<number, Group>();
  for (const r of rows) {
    const rootId = r.aliasOf ?? r.id;
    let g = groups.get(rootId);
    if (!g) {
      const root = rows.find((x) => x.id === rootId) ?? r;
      g = { root, members: [], keys: new Set() };
      groups.set(rootId, g);
    }
    g.members.push(r);
    for (const k of acronymKeys(r.name)) g.keys.add(k);
  }
  const byKey = new Map<string, Group[]>();
  for (const g of groups.values()) for (const k of g.keys) byKey.set(k, [...(byKey.get(k) ?? []), g]);
  const suggestions: { entityId: number; candidateId: number; similarity: number | null; reason: string }[] = [];
  const considered = new Set<string>();
  let linked = 0;
  for (const [key, gs] of byKey) {
    if (gs.length < 2 || gs.length > 6) continue; // a key shared by many groups is too ambiguous to say anything
    for (let i = 0; i < gs.length; i++) {
      for (let j = i + 1; j < gs.length; j++) {
        const a = gs[i] as Group;
        const b = gs[j] as Group;
        const pair = pairKey(a.root.id, b.root.id);
        if (considered.has(pair)) continue;
        considered.add(pair);
        if (differentVersions(a.root.name, b.root.name, a.root.type === b.root.type ? a.root.type : undefined))
          continue;
        if (siblingNames(a.root.name, b.root.name)) continue;
        const sim = similarity(a, b);
        if (keyOnly(a.root.name, b.root.name, sim)) continue;
        // the smaller group joins the larger (or the acronym-shaped one)
        const [from, to] = a.members.length > b.members.length || looksLikeAcronym(a.root.name) ? [b, a] : [a, b];
        if (sim !== null && sim >= TIER_B_LINK) {
          const reason = `similarity ${sim.toFixed(3)}, shared acronym ${key.toUpperCase()}`;
          if (await linkAlias(db, { entityId: from.root.id, rootId: to.root.id, tier: "B", reason })) linked++;
        } else {
          suggestions.push({
            entityId: from.root.id,
            candidateId: to.root.id,
            similarity: sim,
            reason: `shared acronym ${key.toUpperCase()}${sim === null ? "" : `, similarity ${sim.toFixed(3)}`}`,
          });
        }
      }
    }
  }
  // close vectors without a shared key: proposed only
  const withVectors = [...groups.values()].filter((g) => g.members.some((m) => m.embedding));
  if (withVectors.length <= 3000) {
    for (let i = 0; i < withVectors.length; i++) {
      for (let j = i + 1; j < withVectors.length; j++) {
        const a = withVectors[i] as Group;
        const b = withVectors[j] as Group;
        const pair = pairKey(a.root.id, b.root.id);
        if (considered.has(pair) || a.root.type !== b.root.type) continue;
        if (differentVersions(a.root.name, b.root.name, a.root.type)) continue;
        if (unrelatedNames(a.root.name, b.root.name) || siblingNames(a.root.name, b.root.name)) continue;
        const sim = similarity(a, b);
        if (sim !== null && sim >= TIER_B_SUGGEST) {
          considered.add(pair);
          suggestions.push({
            entityId: a.root.id,
            candidateId: b.root.id,
            similarity: sim,
            reason: `similarity ${sim.toFixed(3)}`,
          });
        }
      }
    }
  }
  // proposals an earlier build made that these rules no longer make (versions, siblings, unrelated names, keyed pairs
  // whose vectors said no) leave the review queue — unless this build proposes the pair again; decided ones stay
  const proposed = new Set(suggestions.map((p) => pairKey(p.entityId, p.candidateId)));
  const stale = (await listPendingAliasSuggestions(db, { limit: 100_000 })).filter(
    (p) =>
      !proposed.has(pairKey(p.entity.id, p.candidate.id)) &&
      (differentVersions(
        p.entity.name,
        p.candidate.name,
        p.entity.type === p.candidate.type ? p.entity.type : undefined,
      ) ||
        siblingNames(p.entity.name, p.candidate.name) ||
        (p.reason.startsWith("shared acronym")
          ? keyOnly(p.entity.name, p.candidate.name, p.similarity)
          : unrelatedNames(p.entity.name, p.candidate.name))),
  );
  const withdrawn = await deletePendingAliasSuggestions(
    db,
    stale.map((p) => p.id),
  );
  // a pair proposed before (or decided) either way round is not proposed again the other way
  const known = new Set((await listAliasSuggestionPairs(db)).map((p) => pairKey(p.entityId, p.candidateId)));
  const suggested = await addAliasSuggestions(
    db,
    suggestions.filter((p) => !known.has(pairKey(p.entityId, p.candidateId))),
  );
  return { linked, suggested, withdrawn };
}

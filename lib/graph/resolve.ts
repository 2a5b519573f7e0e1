/**
 * Entity resolution that never destroys: names are linked (`alias_of`), never merged, and every link can be undone
 * (db/queries/graph.ts `unlinkAlias`, which also keeps the pair apart from then on).
 *
 * - Tier A, while a paper is written (build.ts): the same canonical name is the same row ("The Transformer",
 *   "transformer"); an acronym the paper defines links its long form to it ("Dense Passage Retriever (DPR)").
 * - Tier B, here, after a build: two groups that share an acronym key — an acronym-shaped name, or the initials of a
 *   multi-word name ("DPR" ~ "Dense Passage Retrieval") — are linked when their names' vectors (the library's
 *   embedder) have cosine ≥ 0.95, and proposed for review when lower or unknown. Groups without a shared key are only
 *   proposed, when their vectors are ≥ 0.9 alike: "Attention (mechanism)" and an unrelated "attention" never merge
 *   silently.
 */
import type { Database } from "@/db";
import {
  addAliasSuggestions,
  type GraphEntityBrief,
  getEntityEmbeddingDimensions,
  linkAlias,
  listEntitiesWithoutEmbedding,
  listEntityEmbeddings,
  resizeEntityEmbeddings,
  setEntityEmbeddings,
} from "@/db/queries/graph";
import type { EmbeddingProvider } from "@/lib/embeddings/types";
import { TIER_B_LINK, TIER_B_SUGGEST } from "./alias-thresholds";
import { initialsOf, looksLikeAcronym } from "./normalize";

export interface TierBResult {
  linked: number;
  suggested: number;
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

/** Tier B over the whole graph (see the module's comment). Pairs already decided are left alone by the queries. */
export async function resolveAliasesTierB(db: Database): Promise<{ linked: number; suggested: number }> {
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
        const pair = [a.root.id, b.root.id].sort((x, y) => x - y).join("-");
        if (considered.has(pair)) continue;
        considered.add(pair);
        if (differentVersions(a.root.name, b.root.name, a.root.type === b.root.type ? a.root.type : undefined))
          continue;
        const sim = similarity(a, b);
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
        const pair = [a.root.id, b.root.id].sort((x, y) => x - y).join("-");
        if (considered.has(pair) || a.root.type !== b.root.type) continue;
        if (differentVersions(a.root.name, b.root.name, a.root.type)) continue;
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
  const suggested = await addAliasSuggestions(db, suggestions);
  return { linked, suggested };
}

/** Reciprocal rank fusion constant (Cormack et al. 2009): damps the head of each list so no retriever dominates. */
export const RRF_K = 60;

export interface RankedList {
  /** Ids, best first. */
  ids: string[];
  /** This list's weight in the fusion (1 = plain RRF). */
  weight: number;
}

/** Weighted reciprocal rank fusion: score(id) = Σ weight / (k + rank), rank 1-based. */
export function reciprocalRankFusion(lists: RankedList[], k = RRF_K): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    if (list.weight <= 0) continue;
    const seen = new Set<string>();
    list.ids.forEach((id, i) => {
      if (seen.has(id)) return;
      seen.add(id);
      scores.set(id, (scores.get(id) ?? 0) + list.weight / (k + i + 1));
    });
  }
  return scores;
}

/**
 * CSLS's weight on a passage's hubness: Conneau et al. (2018) score 2·cos(q, d) − r(q) − r(d); r(q) is the same for
 * every passage of one query, so the order is that of cos(q, d) − r(d) / 2.
 */
export const HUBNESS_WEIGHT = 0.5;

/**
 * Vector hits in order of hubness-corrected similarity, `similarity − HUBNESS_WEIGHT × hubness`
 * (lib/embeddings/hubness.ts). A hit whose hubness is not known yet counts the mean of the others' (neither favoured
 * nor penalised); without any, the order is the input's. Ties keep the input order.
 */
export function hubnessOrder<T extends { similarity: number; hubness: number | null }>(hits: readonly T[]): T[] {
  const hubnessOf = (h: T) => (h.hubness !== null && Number.isFinite(h.hubness) ? h.hubness : null);
  const known = hits.flatMap((h) => hubnessOf(h) ?? []);
  if (known.length === 0) return [...hits];
  const mean = known.reduce((a, b) => a + b, 0) / known.length;
  const score = (h: T) => h.similarity - HUBNESS_WEIGHT * (hubnessOf(h) ?? mean);
  return hits
    .map((h, i) => ({ h, i, s: score(h) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.h);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

export interface MmrCandidate {
  id: string;
  /** Relevance to the query, any scale (rescaled to [0, 1] over the candidates here). */
  relevance: number;
  /** Vector used for redundancy; without one, a candidate is only compared through `group`. */
  embedding?: readonly number[] | null;
}

/**
 * Maximal marginal relevance (Carbonell & Goldstein 1998): picks, one at a time, the candidate maximising
 * alpha · relevance − (1 − alpha) · (max similarity to what is already picked). alpha = 1 is plain relevance order;
 * lower values trade relevance for diversity. Relevance is rescaled from the candidates' lowest (0) to highest (1), the
 * range of the similarities it is weighed against: fused RRF scores are compressed (on the dev questions the last of
 * the candidates content search weighs, up to 3 × k, scored 0.30–0.34 of the first), so dividing by the highest alone
 * left them spanning only ~[0.3, 1] and let redundancy outweigh relevance more than alpha says.
 */
export function maximalMarginalRelevance(
  candidates: MmrCandidate[],
  {
    k,
    alpha,
    similarity,
  }: {
    k: number;
    alpha: number;
    /**
     * Similarity of two candidates by id (e.g. computed by the database), used instead of their embeddings;
     * undefined for a pair means no redundancy is known.
     */
    similarity?: (a: string, b: string) => number | undefined;
  },
): string[] {
  const pool = [...candidates].sort((a, b) => b.relevance - a.relevance);
  if (alpha >= 1) return pool.slice(0, k).map((c) => c.id);
  const max = pool[0]?.relevance ?? 0;
  const min = pool[pool.length - 1]?.relevance ?? 0;
  const norm = (r: number) => (max > min ? (r - min) / (max - min) : 0);
  const picked: MmrCandidate[] = [];
  const maxSim = new Map<string, number>(pool.map((c) => [c.id, 0]));
  while (picked.length < k && pool.length > 0) {
    let bestIdx = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    pool.forEach((c, i) => {
      const s = alpha * norm(c.relevance) - (1 - alpha) * (maxSim.get(c.id) ?? 0);
      if (s > bestScore) {
        bestScore = s;
        bestIdx = i;
      }
    });
    const [chosen] = pool.splice(bestIdx, 1);
    if (!chosen) break;
    picked.push(chosen);
    if (similarity) {
      for (const c of pool) {
        const sim = Math.max(0, similarity(chosen.id, c.id) ?? 0);
        if (sim > (maxSim.get(c.id) ?? 0)) maxSim.set(c.id, sim);
      }
    } else if (chosen.embedding) {
      for (const c of pool) {
        if (!c.embedding) continue;
        const sim = Math.max(0, cosine(chosen.embedding, c.embedding));
        if (sim > (maxSim.get(c.id) ?? 0)) maxSim.set(c.id, sim);
      }
    }
  }
  return picked.map((c) => c.id);
}

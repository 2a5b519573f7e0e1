/**
 * Optimal string alignment distance (Levenshtein with transpositions of neighbours, each substring edited once):
 * "retreival" → "retrieval" is 1, as a typist's slip is. Returns `max + 1` as soon as the distance must exceed `max`
 * (the length difference, or a row whose least value is past it), so comparing a word with a vocabulary costs little.
 */
export function osaDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] as number) + 1);
      }
      cur[j] = d;
      if (d < least) least = d;
    }
    if (least > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return Math.min(prev[b.length] as number, max + 1);
}

/** The typo distance a word of this length is allowed: 1, or 2 from eight letters on ("retreival", "diffrence"). */
export function typoAllowance(word: string): number {
  return word.length >= 8 ? 2 : 1;
}

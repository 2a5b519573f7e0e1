/**
 * Typo distance: the optimal string alignment distance (insertions, deletions, substitutions and a swap of
 * neighbouring letters, each substring edited once), where a substitution costs 1 only between keys that touch on a
 * QWERTY keyboard and 2 otherwise — a typing slip ("retreival", "transfomer", "atention", "dimensoin") is 1 away from
 * what was meant, while another word ("optical" → "optimal", "overnight" → "oversight") is 2 away. Returns `max + 1` as
 * soon as the distance must exceed `max`, so comparing a word with a vocabulary costs little.
 */
export function typoDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const x = a[i - 1] as string;
      const y = b[j - 1] as string;
      const cost = x === y ? 0 : adjacentKeys(x, y) ? 1 : 2;
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) d = Math.min(d, (before[j - 2] as number) + 1);
      cur[j] = d;
      if (d < least) least = d;
    }
    if (least > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return Math.min(prev[b.length] as number, max + 1);
}

/** The typo distance a word is allowed: one slip. Two would reach other words too often ("overnight" and
 *  "oversight", "persistence" and "persistent" are two apart). */
export function typoAllowance(_word: string): number {
  return 1;
}

const ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
/** Each letter's touching keys: beside it on its row, and the two it sits between on the rows above and below. */
const NEIGHBOURS = new Map<string, string>();
ROWS.forEach((row, r) => {
  [...row].forEach((key, c) => {
    const near = [
      row[c - 1],
      row[c + 1],
      ROWS[r - 1]?.[c],
      ROWS[r - 1]?.[c + 1],
      ROWS[r + 1]?.[c - 1],
      ROWS[r + 1]?.[c],
    ];
    NEIGHBOURS.set(key, near.filter((k): k is string => k !== undefined).join(""));
  });
});

function adjacentKeys(x: string, y: string): boolean {
  return NEIGHBOURS.get(x)?.includes(y) ?? false;
}

import { tokenize } from "@/lib/text/terms";

/** Words that never start or end a key phrase. */
const STOP = new Set(
  (
    "a an and are as at be been being but by can could did do does for from had has have how i if in into is it its " +
    "of on or our so such than that the their them then there these they this those to was we were what when where " +
    "which while who why will with would you your also may might must about between each both more most other some " +
    "only very just over under after before during through via per use used using based show shows shown propose " +
    "proposed present paper papers work works approach approaches method methods result results model models new " +
    "first second third one two three however thus therefore et al section table figure fig appendix eq equation " +
    "different large small high low well many much can cannot without within across arxiv preprint introduce " +
    "introduces introduced enhance enhances effective process text framework performance state task tasks " +
    "information system systems art recent various several further provide provides given improve improves " +
    "improved additionally focuses focus focused find finds found https http doi org www com pdf abs corr all any " +
    "every none few lot lots way ways thing things part parts kind kinds type types able after before since until"
  ).split(" "),
);

export interface KeyPhrase {
  /** As most often written (lower case). */
  text: string;
  /** Stems of its words (for matching and grouping). */
  stems: string[];
  /** Texts (by index) it occurs in. */
  docs: Set<number>;
  score: number;
}

/**
 * Key phrases of a set of texts: runs of 1–3 content words, scored by how many texts use them (a phrase must occur
 * in two texts at least), longer phrases preferred, and phrases contained in a better one dropped.
 */
export function keyPhrases(texts: string[], { max = 20, exclude = [] as string[] } = {}): KeyPhrase[] {
  const excluded = new Set(exclude.flatMap((e) => tokenize(e)));
  const found = new Map<string, { forms: Map<string, number>; docs: Set<number>; stems: string[] }>();
  texts.forEach((text, di) => {
    // phrases never cross punctuation or a line break (clause and heading boundaries)
    const clauses = text
      .normalize("NFKC")
      .replace(/-\s*\n\s*/g, "")
      .split(/[.,;:!?()[\]{}"“”'‘’\n]+/u);
    for (const clause of clauses) {
      const words = clause.split(/[^\p{L}\p{N}-]+/u).filter(Boolean);
      for (let i = 0; i < words.length; i++) {
        for (let n = 1; n <= 3 && i + n <= words.length; n++) {
          const gram = words.slice(i, i + n).map((w) => w.toLowerCase());
          const first = gram[0] as string;
          const last = gram[n - 1] as string;
          if (STOP.has(first) || STOP.has(last)) continue;
          if (gram.some((w) => w.length < 2 || /^\d+$/.test(w) || !/\p{L}/u.test(w))) continue;
          const stems = gram.flatMap((w) => tokenize(w));
          if (stems.length !== n) continue;
          const key = stems.join(" ");
          const entry = found.get(key) ?? { forms: new Map(), docs: new Set<number>(), stems };
          entry.docs.add(di);
          const form = gram.join(" ");
          entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
          found.set(key, entry);
        }
      }
    }
  });
  const scored: KeyPhrase[] = [];
  for (const e of found.values()) {
    // a single word must be common across the texts to say something; a phrase is specific already
    if (e.docs.size < (e.stems.length === 1 ? 3 : 2)) continue;
    // the question's own words are what every passage shares: not a sub-topic
    if (e.stems.every((s) => excluded.has(s))) continue;
    const text = [...e.forms.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
    scored.push({ text, stems: e.stems, docs: e.docs, score: e.docs.size * (1 + 1.2 * (e.stems.length - 1)) });
  }
  scored.sort((a, b) => b.score - a.score || b.stems.length - a.stems.length || a.text.localeCompare(b.text));
  const out: KeyPhrase[] = [];
  for (const p of scored) {
    const key = ` ${p.stems.join(" ")} `;
    // a phrase inside a kept one ("attention" inside "self attention") adds nothing
    if (out.some((o) => ` ${o.stems.join(" ")} `.includes(key) && o.score >= p.score * 0.7)) continue;
    out.push(p);
    if (out.length >= max) break;
  }
  return out;
}

/** Title case for a topic heading, keeping acronyms and ids as written. */
export function titleCase(s: string): string {
  return s.replace(/\b(\p{Ll})(\p{L}*)/gu, (_m, a: string, b: string) => a.toUpperCase() + b);
}

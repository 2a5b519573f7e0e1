/**
 * Finding a passage in a PDF page's text layer, robust to what PDF text extraction does to prose: line breaks,
 * hyphenation at line ends, ligatures (ﬁ), accents, case, and text split into many items. Both sides are reduced to
 * their letters and digits; the passage is searched in the page's stream of them; a match is mapped back to character
 * ranges of the text items, which the text layer then wraps in <mark>.
 */

/** The part of a pdf.js TextItem we use. Marked-content items (no `str`) are skipped but keep their index. */
export interface TextItemLike {
  str: string;
}

/** Item index → [start, end) character ranges of that item's `str` to mark. */
export type ItemRanges = Map<number, [number, number][]>;

export interface PassageMatch {
  ranges: ItemRanges;
  /** True when the whole passage was found; false when only its longest matching run of words was. */
  complete: boolean;
  matchedWords: number;
  totalWords: number;
}

/** A partial match must be at least this long to be shown: shorter runs of words are found anywhere. */
const MIN_PARTIAL_WORDS = 4;
const MIN_PARTIAL_CHARS = 20;

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const COMBINING_MARKS = /\p{M}/gu;

/** Letters and digits of `s`, decomposed (ﬁ → fi, é → e) and lower-cased. */
function foldChar(ch: string): string {
  return ch.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase();
}

/** The passage's words, folded like the page text. */
export function passageWords(passage: string): string[] {
  return passage
    .normalize("NFKD")
    .replace(COMBINING_MARKS, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

interface PageStream {
  text: string;
  /** For each character of `text`: the item it came from and its [start, end) in that item's `str`. */
  item: number[];
  start: number[];
  end: number[];
}

function buildStream(items: readonly unknown[]): PageStream {
  let text = "";
  const item: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  items.forEach((it, index) => {
    if (typeof it !== "object" || it === null || typeof (it as TextItemLike).str !== "string") return;
    const str = (it as TextItemLike).str;
    let offset = 0;
    for (const ch of str) {
      const next = offset + ch.length;
      for (const c of foldChar(ch)) {
        if (!LETTER_OR_DIGIT.test(c)) continue;
        text += c;
        item.push(index);
        start.push(offset);
        end.push(next);
      }
      offset = next;
    }
  });
  return { text, item, start, end };
}

function toRanges(stream: PageStream, from: number, length: number): ItemRanges {
  const ranges: ItemRanges = new Map();
  for (let i = from; i < from + length; i++) {
    const idx = stream.item[i] as number;
    const s = stream.start[i] as number;
    const e = stream.end[i] as number;
    const list = ranges.get(idx);
    const last = list?.[list.length - 1];
    // within one item the matched characters are contiguous in the stream: extend the range over the gap (spaces)
    if (last) last[1] = Math.max(last[1], e);
    else ranges.set(idx, [[s, e]]);
  }
  return ranges;
}

/**
 * Where `passage` is on a page, as ranges of its text items; null when neither the passage nor a long enough run of
 * its words is there.
 */
export function findPassage(items: readonly unknown[], passage: string): PassageMatch | null {
  const words = passageWords(passage);
  if (words.length === 0) return null;
  const stream = buildStream(items);
  if (!stream.text) return null;

  const whole = words.join("");
  const at = stream.text.indexOf(whole);
  if (at !== -1) {
    return {
      ranges: toRanges(stream, at, whole.length),
      complete: true,
      matchedWords: words.length,
      totalWords: words.length,
    };
  }

  // Longest run of consecutive passage words that occurs on the page. If words[i..j] occurs, so does words[i+1..j],
  // so one pass with two pointers suffices.
  let best = { from: 0, to: -1, chars: 0 };
  let j = -1;
  let run = "";
  for (let i = 0; i < words.length; i++) {
    if (j < i) {
      j = i - 1;
      run = "";
    }
    while (j + 1 < words.length && stream.text.includes(run + words[j + 1])) {
      j++;
      run += words[j];
    }
    if (j >= i && j - i > best.to - best.from) best = { from: i, to: j, chars: run.length };
    // drop words[i] from the front of the run
    if (j >= i) run = run.slice((words[i] as string).length);
  }
  const count = best.to - best.from + 1;
  if (count < MIN_PARTIAL_WORDS || best.chars < MIN_PARTIAL_CHARS) return null;
  const needle = words.slice(best.from, best.to + 1).join("");
  const pos = stream.text.indexOf(needle);
  return {
    ranges: toRanges(stream, pos, needle.length),
    complete: false,
    matchedWords: count,
    totalWords: words.length,
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The HTML for one text item (react-pdf's customTextRenderer): its text, escaped, with the ranges in <mark>. */
export function renderMarkedText(str: string, ranges: [number, number][] | undefined): string {
  if (!ranges?.length) return escapeHtml(str);
  let html = "";
  let pos = 0;
  for (const [s, e] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (s > pos) html += escapeHtml(str.slice(pos, s));
    html += `<mark class="lectern-hl">${escapeHtml(str.slice(Math.max(s, pos), e))}</mark>`;
    pos = Math.max(pos, e);
  }
  return html + escapeHtml(str.slice(pos));
}

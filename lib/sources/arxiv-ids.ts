/**
 * arXiv identifiers as people paste them: `2106.09685`, `2106.09685v2`, `arXiv:1706.03762`, abs and pdf URLs
 * (`https://arxiv.org/abs/1706.03762v5`, `…/pdf/1706.03762v5.pdf`), the DataCite DOI `10.48550/arXiv.2106.09685`, and
 * old-style ids (`hep-th/9901001`, `math.GT/0309136v2`). Scheme: https://info.arxiv.org/help/arxiv_identifier.html
 */

/** Archives of old-style ids (before April 2007). */
const OLD_ARCHIVES = new Set(
  "acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph cmp-lg comp-gas cond-mat cs dg-ga funct-an gr-qc hep-ex hep-lat hep-ph hep-th math math-ph mtrl-th nlin nucl-ex nucl-th patt-sol physics plasm-ph q-alg q-bio quant-ph solv-int supr-con".split(
    " ",
  ),
);

export interface ArxivRef {
  /** Without version: `2106.09685`, `hep-th/9901001`. */
  id: string;
  /** The version asked for (`v2` → 2); absent: the latest. */
  version?: number;
}

/** `2106.09685v2`, or the bare id when no version is named. */
export function formatArxivRef(ref: ArxivRef): string {
  return ref.version ? `${ref.id}v${ref.version}` : ref.id;
}

/** A versioned id split: `1706.03762v5` → { id: "1706.03762", version: 5 }. */
export function splitVersion(versionedId: string): ArxivRef {
  const m = /^(.*?)v(\d+)$/.exec(versionedId);
  return m ? { id: m[1] as string, version: Number(m[2]) } : { id: versionedId };
}

function validNewId(id: string): boolean {
  const m = /^(\d{2})(\d{2})\.(\d{4,5})$/.exec(id);
  if (!m) return false;
  const month = Number(m[2]);
  const yymm = Number(`${m[1]}${m[2]}`);
  if (month < 1 || month > 12 || yymm < 704) return false;
  return (m[3] as string).length === (yymm >= 1501 ? 5 : 4);
}

function validOldId(archive: string, number: string): boolean {
  if (!OLD_ARCHIVES.has(archive)) return false;
  const month = Number(number.slice(2, 4));
  return month >= 1 && month <= 12;
}

/** One identifier or URL → its reference, or null when it is not an arXiv id. */
export function parseArxivRef(raw: string): ArxivRef | null {
  let s = raw.trim();
  if (!s || s.length > 300) return null;
  // URLs: keep the path after /abs/ or /pdf/ (any host: mirrors, export.arxiv.org)
  const url = /^(?:https?:\/\/)?(?:[\w-]+\.)*arxiv\.org\/(?:abs|pdf|html|format)\/(.+?)(?:\.pdf)?\/?(?:[?#].*)?$/i.exec(
    s,
  );
  if (url) s = decodeURIComponent(url[1] as string);
  else if (/^[a-z]+:\/\//i.test(s)) return null;
  s = s.replace(/^(?:doi:\s*)?10\.48550\/arxiv\./i, "").replace(/^arxiv:\s*/i, "");
  const m = /^(\d{4}\.\d{4,5})(?:v(\d+))?$/i.exec(s);
  if (m) {
    if (!validNewId(m[1] as string)) return null;
    return m[2] ? { id: m[1] as string, version: Number(m[2]) } : { id: m[1] as string };
  }
  const old = /^([a-z-]+)(\.[A-Z]{2})?\/(\d{7})(?:v(\d+))?$/.exec(s);
  if (old) {
    const [, archive, subject, number, version] = old as unknown as [
      string,
      string,
      string | undefined,
      string,
      string?,
    ];
    if (!validOldId(archive, number)) return null;
    const id = `${archive}${subject ?? ""}/${number}`;
    return version ? { id, version: Number(version) } : { id };
  }
  return null;
}

/**
 * A list as typed in a box or given on the command line: split on whitespace, commas and semicolons. Each token is a
 * reference or listed as invalid; the same paper asked twice is kept once (the first time).
 */
export function parseArxivList(text: string | string[]): { refs: ArxivRef[]; tokens: string[]; invalid: string[] } {
  const tokens = (Array.isArray(text) ? text : [text]).flatMap((t) => t.split(/[\s,;]+/)).filter(Boolean);
  const refs: ArxivRef[] = [];
  const kept: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const token of tokens) {
    const ref = parseArxivRef(token);
    if (!ref) {
      invalid.push(token);
      continue;
    }
    const key = formatArxivRef(ref);
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push(ref);
    kept.push(token);
  }
  return { refs, tokens: kept, invalid };
}

/** Parsing of a single `Range: bytes=…` header (RFC 9110 §14.1.2). Multiple ranges are not supported. */
export type RangeResult =
  | { kind: "full" }
  | { kind: "partial"; start: number; end: number }
  | { kind: "unsatisfiable" };

export function parseRange(header: string | null, size: number): RangeResult {
  if (!header) return { kind: "full" };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  // Multiple ranges or another unit: serving the whole file is allowed (a server may ignore Range).
  if (!m) return { kind: "full" };
  const [, a = "", b = ""] = m;
  if (a === "" && b === "") return { kind: "full" };
  if (a === "") {
    // suffix range: the last N bytes
    const n = Number(b);
    if (n === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return { kind: "unsatisfiable" };
  return { kind: "partial", start, end };
}

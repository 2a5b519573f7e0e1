/**
 * A dynamic route segment as the id it names. Ids may hold characters that arrive percent-encoded (`/` in old arXiv
 * ids), so the segment is decoded once more; a malformed escape (a bare `%`, which Next has already decoded from
 * `%25`) is null — a bad request for the caller to answer with 400 or 404, never a thrown URIError (a 500).
 */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

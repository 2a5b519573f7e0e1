/** `lectern-<question words>-<run id start>.<ext>`: ASCII only, so it goes in the Content-Disposition header as is. */
export function exportFileName(question: string, runId: string, extension: string): string {
  const words = question
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60)
    .replace(/^-+|-+$/g, "");
  const id = runId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 8);
  return `lectern-${words || "research"}-${id}.${extension}`;
}

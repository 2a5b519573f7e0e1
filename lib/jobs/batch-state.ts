/**
 * Whether an ingest batch has work left: its library step (which runs after its files) has not ended. One definition
 * for the server's queue waits (lib/jobs/watch.ts) and the library page's queue panel; free of imports, so the page's
 * bundle can take it.
 */
export function batchHasWork(b: { libraryStatus: string }): boolean {
  return b.libraryStatus === "waiting" || b.libraryStatus === "running";
}

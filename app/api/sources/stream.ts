import type { SourceStreamEvent } from "@/components/library/source-events";
import type { SourceItemResult, SourceProgressEvent } from "@/lib/sources/types";
import { ndjsonResponse } from "../ndjson";

/**
 * An NDJSON response fed by a source run (adding from arXiv, importing a bibliography): its progress events as they
 * happen, then `done` with the results or `fatal` with the safe message. Closing the connection aborts the run.
 */
export function sourceRunResponse(
  request: Request,
  run: (opts: { onProgress: (e: SourceProgressEvent) => void; signal: AbortSignal }) => Promise<SourceItemResult[]>,
  cleanup: () => Promise<void> = async () => {},
): Response {
  return ndjsonResponse<SourceStreamEvent>(
    request,
    async (send, signal) => {
      const results = await run({ onProgress: send, signal });
      send({ type: "done", results });
    },
    cleanup,
  );
}

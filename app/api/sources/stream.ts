import type { SourceStreamEvent } from "@/components/library/source-events";
import { toErrorResult } from "@/lib/errors";
import type { SourceItemResult, SourceProgressEvent } from "@/lib/sources/types";

/**
 * An NDJSON response fed by a source run (adding from arXiv, importing a bibliography): its progress events as they
 * happen, then `done` with the results or `fatal` with the safe message. Closing the connection aborts the run.
 */
export function sourceRunResponse(
  request: Request,
  run: (opts: { onProgress: (e: SourceProgressEvent) => void; signal: AbortSignal }) => Promise<SourceItemResult[]>,
  cleanup: () => Promise<void> = async () => {},
): Response {
  const abort = new AbortController();
  const onClientGone = () => abort.abort(new Error("client disconnected"));
  request.signal.addEventListener("abort", onClientGone, { once: true });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const send = (event: SourceStreamEvent) => {
        if (!open || abort.signal.aborted) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        } catch {
          open = false;
        }
      };
      try {
        const results = await run({ onProgress: send, signal: abort.signal });
        send({ type: "done", results });
      } catch (e) {
        if (!abort.signal.aborted) send({ type: "fatal", error: toErrorResult(e).error });
      } finally {
        request.signal.removeEventListener("abort", onClientGone);
        await cleanup().catch(() => {});
        if (open) {
          open = false;
          try {
            controller.close();
          } catch {
            // already cancelled by the client
          }
        }
      }
    },
    cancel() {
      abort.abort(new Error("client disconnected"));
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}

import { toErrorResult } from "@/lib/errors";

/**
 * An NDJSON response fed by a long piece of work (an upload's batch, an arXiv add, an import): each event `run` sends
 * is written as one line as it happens; when `run` throws, a last `fatal` line carries the safe message. Closing the
 * connection aborts `signal`; `cleanup` runs when the work has ended, whatever way.
 */
export function ndjsonResponse<E extends object>(
  request: Request,
  run: (send: (event: E) => void, signal: AbortSignal) => Promise<void>,
  cleanup: () => Promise<void> = async () => {},
): Response {
  const abort = new AbortController();
  const onClientGone = () => abort.abort(new Error("client disconnected"));
  request.signal.addEventListener("abort", onClientGone, { once: true });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const send = (event: E | { type: "fatal"; error: { code: string; message: string } }) => {
        if (!open || abort.signal.aborted) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        } catch {
          open = false; // the stream was cancelled between the check and the write
        }
      };
      try {
        await run(send, abort.signal);
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

import path from "node:path";
import { z } from "zod";
import { guardRoute } from "@/app/access";
import type { QueueBatch } from "@/components/library/job-queue-types";
import type { ApiResult } from "@/components/library/types";
import { getDbHandle } from "@/db";
import { isLecternError, LecternError, toErrorResult } from "@/lib/errors";
import { QUEUE_MAX_WAIT_MS, readQueue, waitForQueueChange } from "@/lib/jobs/watch";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `?wait=S&newest=ID`: a page that has the queue idle waits up to S seconds for new work. */
const waitSchema = z.object({
  wait: z.coerce
    .number()
    .int()
    .min(1)
    .max(QUEUE_MAX_WAIT_MS / 1000),
  // a batch id (a UUID) or "" for an empty queue
  newest: z.string().max(64).default(""),
});

/** `wait` (seconds) and `newest` of a waiting request, or a clear refusal. */
function parseWait(params: URLSearchParams): { waitMs: number; newest: string } {
  const parsed = waitSchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) {
    throw new LecternError(
      "bad_request:input",
      parsed.error.issues[0]?.path[0] === "newest"
        ? "newest is the id of a batch."
        : `wait is a whole number of seconds from 1 to ${QUEUE_MAX_WAIT_MS / 1000}.`,
    );
  }
  return { waitMs: parsed.data.wait * 1000, newest: parsed.data.newest };
}

/**
 * `GET /api/ingest/queue` — the ingestion queue as the database has it (any instance, any worker, after a reload or a
 * restart): batches with work left and those finished in the last ten minutes, each file's stage or outcome.
 * `?wait=S&newest=ID` (S ≤ 30): the page's queue is idle and its newest batch is ID; the answer comes when that is
 * no longer so — at once, or when a batch is queued anywhere — or after S seconds (lib/jobs/watch.ts; an account
 * holds a few such waits at once, past them it is answered at once).
 */
export async function GET(request: Request): Promise<Response> {
  const user = await guardRoute(request, "library:read");
  if (user instanceof Response) return user;
  try {
    const params = new URL(request.url).searchParams;
    const handle = await getDbHandle();
    const batches = params.has("wait")
      ? await waitForQueueChange(handle, { ...parseWait(params), signal: request.signal, holder: user.id })
      : await readQueue(handle);
    const data: QueueBatch[] = batches.map((b) => ({
      id: b.id,
      origin: b.origin,
      createdAt: b.createdAt.toISOString(),
      libraryStatus: b.libraryStatus,
      libraryStage: b.libraryStage,
      libraryDone: b.libraryDone,
      libraryOf: b.libraryOf,
      libraryError: b.libraryError,
      files: b.files.map((f) => ({
        id: f.id,
        // the CLI records the path it was given; the page shows the file's name only
        name: path.basename(f.fileName),
        status: f.status,
        stage: f.stage,
        done: f.stageDone,
        of: f.stageOf,
        attempts: f.attempts,
        paperId: f.paperId,
        title: f.title,
        error: f.error,
      })),
    }));
    return Response.json({ ok: true, data } satisfies ApiResult<QueueBatch[]>, {
      headers: { "Cache-Control": "no-store" },
    });
  } catch (e) {
    return Response.json(toErrorResult(e) satisfies ApiResult<never>, { status: isLecternError(e) ? e.status : 500 });
  }
}

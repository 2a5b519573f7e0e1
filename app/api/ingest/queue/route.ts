import path from "node:path";
import { guardRoute } from "@/app/access";
import type { QueueBatch } from "@/components/library/job-queue-types";
import type { ApiResult } from "@/components/library/types";
import { getDb } from "@/db";
import { listActiveIngestBatches } from "@/db/queries/jobs";
import { isLecternError, toErrorResult } from "@/lib/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Finished batches stay in the queue this long, so a reload still shows what just ended. */
const RECENT_MS = 10 * 60 * 1000;

/**
 * `GET /api/ingest/queue` — the ingestion queue as the database has it (any instance, any worker, after a reload or a
 * restart): batches with work left and those finished in the last ten minutes, each file's stage or outcome.
 */
export async function GET(request: Request): Promise<Response> {
  const user = await guardRoute(request, "library:read");
  if (user instanceof Response) return user;
  try {
    const batches = await listActiveIngestBatches(await getDb(), { recentMs: RECENT_MS, limit: 10 });
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

import { errorResponse, guardRoute } from "@/app/access";
import { getDb } from "@/db";
import { consumeRateLimit, RATE_LIMITS } from "@/lib/auth/rate-limit";
import { getEnv } from "@/lib/env";
import { LecternError } from "@/lib/errors";
import { getIngestContext } from "@/lib/ingest/pipeline";
import { getWorkedQueue } from "@/lib/jobs/submit";
import { getArxivClient } from "@/lib/sources/arxiv";
import { addFromArxiv } from "@/lib/sources/arxiv-add";
import { parseArxivList } from "@/lib/sources/arxiv-ids";
import { addFromArxivSchema, MAX_ARXIV_IDS } from "../schema";
import { sourceRunResponse } from "../stream";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `POST /api/sources/arxiv` (JSON `{ ids, replace }`): adds papers from arXiv. Responds with NDJSON, one
 * `SourceStreamEvent` per line (components/library/source-events.ts). The PDFs are downloaded and ingested by jobs
 * (the library page's queue shows them); closing the connection stops the response, not the jobs.
 */
export async function POST(request: Request): Promise<Response> {
  const user = await guardRoute(request, "library:write");
  if (user instanceof Response) return user;
  try {
    const body = await request.json().catch(() => {
      throw new LecternError("bad_request:input", "Send the ids as JSON: { ids, replace }.");
    });
    const parsed = addFromArxivSchema.safeParse(body);
    if (!parsed.success) {
      throw new LecternError("bad_request:input", parsed.error.issues[0]?.message ?? "Invalid request.", {
        field: "ids",
      });
    }
    const count = parseArxivList(parsed.data.ids);
    if (count.refs.length + count.invalid.length > MAX_ARXIV_IDS) {
      throw new LecternError("bad_request:input", `At most ${MAX_ARXIV_IDS} papers at a time.`, { field: "ids" });
    }
    await consumeRateLimit(
      await getDb(),
      `upload:${user.id}`,
      RATE_LIMITS.upload,
      "You have added many papers in the last few minutes.",
    );
    const ctx = await getIngestContext();
    const arxiv = getArxivClient(getEnv());
    const queue = await getWorkedQueue();
    return sourceRunResponse(request, ({ onProgress, signal }) =>
      addFromArxiv(
        parsed.data.ids,
        { ctx, arxiv, queue },
        { replace: parsed.data.replace, onProgress, signal, actor: user },
      ),
    );
  } catch (e) {
    return errorResponse(e);
  }
}

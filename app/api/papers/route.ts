import { toPaperRow } from "@/app/(library)/rows";
import { firstValues, listPapersQuerySchema } from "@/app/(library)/schema";
import { guardRoute } from "@/app/access";
import type { ApiResult, PaperRow } from "@/components/library/types";
import { getDb } from "@/db";
import { listPapers } from "@/db/queries/papers";
import { isLecternError, toErrorResult } from "@/lib/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `GET /api/papers?q=&sort=` — the library list, for client-side refreshes. */
export async function GET(request: Request): Promise<Response> {
  const user = await guardRoute(request, "library:read");
  if (user instanceof Response) return user;
  const url = new URL(request.url);
  const { q, sort } = listPapersQuerySchema.parse(firstValues(Object.fromEntries(url.searchParams)));
  try {
    const db = await getDb();
    const papers = await listPapers(db, { query: q || undefined, sort });
    return Response.json({ ok: true, data: papers.map(toPaperRow) } satisfies ApiResult<PaperRow[]>, {
      headers: { "Cache-Control": "no-store" },
    });
  } catch (e) {
    return Response.json(toErrorResult(e) satisfies ApiResult<never>, {
      status: isLecternError(e) ? e.status : 500,
    });
  }
}

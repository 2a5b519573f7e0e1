import { paperIdSchema } from "@/app/(library)/schema";
import { locatePaperPdf, pdfResponse, textResponse } from "@/app/api/papers/[id]/pdf/serve";
import { decodeSegment } from "@/app/route-params";
import { getDb } from "@/db";
import { loadSharedRun, sharedPaperIds } from "@/lib/auth/share";
import { isLecternError, userMessage } from "@/lib/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ token: string; paperId: string }> };

/**
 * What a share link's viewer may read without an account: nothing is cached (a revoked link is a 404 at the next
 * request, a range request included), nothing indexed, and no referrer leaves with the link's token in it.
 */
const SHARE_HEADERS: Record<string, string> = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
};

function withShareHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(SHARE_HEADERS)) response.headers.set(name, value);
  return response;
}

/**
 * The PDF of a paper the shared run cites (its citations' and references' papers) — with the same range support as
 * the library's route. An unknown, revoked or expired token and a paper the run does not cite get the same 404.
 */
async function serve(request: Request, ctx: Context, withBody: boolean): Promise<Response> {
  const { token, paperId: segment } = await ctx.params;
  const paperId = paperIdSchema.safeParse(decodeSegment(segment));
  try {
    const run = paperId.success ? await loadSharedRun(await getDb(), token) : null;
    if (!run || !paperId.success || !sharedPaperIds(run).has(paperId.data)) {
      return withShareHeaders(textResponse(404, "Not found."));
    }
    const found = await locatePaperPdf(paperId.data);
    return withShareHeaders(found instanceof Response ? found : await pdfResponse(request, found, withBody));
  } catch (e) {
    if (!isLecternError(e)) console.error("[share pdf]", e);
    return withShareHeaders(textResponse(isLecternError(e) ? e.status : 500, userMessage(e)));
  }
}

export async function GET(request: Request, ctx: Context): Promise<Response> {
  return serve(request, ctx, true);
}

export async function HEAD(request: Request, ctx: Context): Promise<Response> {
  return serve(request, ctx, false);
}

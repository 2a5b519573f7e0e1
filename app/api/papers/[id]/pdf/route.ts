import { paperIdSchema } from "@/app/(library)/schema";
import { guardRoute } from "@/app/access";
import { decodeSegment } from "@/app/route-params";
import { locatePaperPdf, pdfResponse, textResponse } from "./serve";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function serve(request: Request, ctx: Context, withBody: boolean): Promise<Response> {
  const parsed = paperIdSchema.safeParse(decodeSegment((await ctx.params).id));
  if (!parsed.success) return textResponse(400, "Invalid paper id.");
  const found = await locatePaperPdf(parsed.data);
  if (found instanceof Response) return found;
  return pdfResponse(request, found, withBody);
}

export async function GET(request: Request, ctx: Context): Promise<Response> {
  const user = await guardRoute(request, "library:read");
  if (user instanceof Response) return user;
  return serve(request, ctx, true);
}

export async function HEAD(request: Request, ctx: Context): Promise<Response> {
  const user = await guardRoute(request, "library:read");
  if (user instanceof Response) return user;
  return serve(request, ctx, false);
}

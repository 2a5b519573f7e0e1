import { describe, expect, it } from "vitest";
import { checkSameOrigin } from "./request-guard";

function post(headers: Record<string, string>, method = "POST"): Request {
  return new Request("http://127.0.0.1:3100/api/ingest", { method, headers: { host: "127.0.0.1:3100", ...headers } });
}

async function refusal(request: Request): Promise<{ status: number; message: string } | null> {
  const res = checkSameOrigin(request);
  if (!res) return null;
  const body = (await res.json()) as { error: { message: string } };
  return { status: res.status, message: body.error.message };
}

describe("checkSameOrigin", () => {
  it("lets through a POST from the app's own pages", async () => {
    expect(await refusal(post({ origin: "http://127.0.0.1:3100", "sec-fetch-site": "same-origin" }))).toBeNull();
  });

  it("refuses a POST from another site, naming where it came from", async () => {
    const r = await refusal(post({ origin: "http://evil.example", "sec-fetch-site": "cross-site" }));
    expect(r?.status).toBe(403);
    expect(r?.message).toContain("Cross-site request refused");
    expect(r?.message).toContain("http://evil.example");
  });

  it("refuses another port on the same host (same-site, not same-origin)", async () => {
    expect((await refusal(post({ origin: "http://127.0.0.1:3101" })))?.status).toBe(403);
    expect((await refusal(post({ origin: "http://127.0.0.1:3100", "sec-fetch-site": "same-site" })))?.status).toBe(403);
  });

  it("refuses an opaque origin and an unparsable one", async () => {
    expect((await refusal(post({ origin: "null" })))?.status).toBe(403);
    expect((await refusal(post({ origin: "not a url" })))?.status).toBe(403);
  });

  it("refuses a browser's POST that carries Sec-Fetch-Site but no Origin", async () => {
    expect((await refusal(post({ "sec-fetch-site": "cross-site" })))?.status).toBe(403);
  });

  it("lets through a request with neither header (a script or the CLI, not a browser)", async () => {
    expect(await refusal(post({}))).toBeNull();
  });

  it("compares with the proxy's forwarded host when there is one", async () => {
    const behindProxy = { "x-forwarded-host": "lectern.example.org", origin: "https://lectern.example.org" };
    expect(await refusal(post(behindProxy))).toBeNull();
    expect((await refusal(post({ ...behindProxy, origin: "http://127.0.0.1:3100" })))?.status).toBe(403);
  });

  it("leaves GET, HEAD and OPTIONS alone, wherever they come from", async () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(await refusal(post({ origin: "http://evil.example", "sec-fetch-site": "cross-site" }, method))).toBeNull();
    }
  });

  it("refuses DELETE, PUT and PATCH from another site like POST", async () => {
    for (const method of ["DELETE", "PUT", "PATCH"]) {
      expect((await refusal(post({ origin: "http://evil.example" }, method)))?.status).toBe(403);
    }
  });
});

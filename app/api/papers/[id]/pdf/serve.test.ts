import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sessionCookie } from "@/app/testing";
import type { DbHandle } from "@/db";
import { papers } from "@/db/schema";
import { createAppTestDatabase } from "@/db/testing";
import { resetEnvForTests } from "@/lib/env";
import { getPdfStorage, pdfKey } from "@/lib/storage";
import { startTestS3, type TestS3 } from "@/lib/testing/s3";
import { GET, HEAD } from "./route";

/**
 * The library's PDF route serving from either store, chosen as the app chooses it (LECTERN_STORAGE_URL and the AWS
 * variables, or the data directory): whole files, byte ranges (206), unsatisfiable ranges (416), HEAD, and an object
 * missing from the store. S3 is s3rver, started here on a free loopback port.
 */

let handle: DbHandle;

let cookie = "";
let dataDir = "";
let s3: TestS3;
const PDF = Buffer.from(`%PDF-1.4\n${"stream of page bytes ".repeat(200)}\n%%EOF\n`);
const DOC = "ab".repeat(32);

function request(id: string, opts: { method?: "GET" | "HEAD"; range?: string } = {}): Promise<Response> {
  const method = opts.method ?? "GET";
  const req = new Request(`http://localhost/api/papers/${encodeURIComponent(id)}/pdf`, {
    method,
    headers: { cookie, ...(opts.range ? { range: opts.range } : {}) },
  });
  return (method === "GET" ? GET : HEAD)(req, { params: Promise.resolve({ id }) });
}

/** Makes `vars` the settings (the cached parse forgotten). */
function useEnv(vars: Record<string, string>): void {
  vi.unstubAllEnvs();
  for (const key of ["LECTERN_STORAGE_URL", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
    vi.stubEnv(key, "");
  }
  vi.stubEnv("LECTERN_DATA_DIR", dataDir);
  for (const [key, value] of Object.entries(vars)) vi.stubEnv(key, value);
  resetEnvForTests();
}

beforeAll(async () => {
  handle = await createAppTestDatabase();
  cookie = await sessionCookie(handle.db, "viewer");
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "lectern-pdf-route-"));
  s3 = await startTestS3();
  const rows = [
    { id: "2301.00001", docId: DOC },
    { id: "2301.00002", docId: "cd".repeat(32) }, // its object is never stored
  ];
  for (const { id, docId } of rows) {
    await handle.db.insert(papers).values({
      id,
      docId,
      title: id,
      filePath: pdfKey(docId),
      fileName: `${id}.pdf`,
      fileSize: PDF.length,
      pageCount: 1,
      status: "ready",
    });
  }
});

afterAll(async () => {
  vi.unstubAllEnvs();
  resetEnvForTests();
  await s3?.stop();
  await handle?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe.each([
  ["the local directory", () => ({})],
  ["S3 (s3rver)", () => s3.env("lab/lectern")],
])("GET /api/papers/<id>/pdf from %s", (_name, vars) => {
  beforeAll(async () => {
    useEnv(vars());
    await getPdfStorage().put(pdfKey(DOC), new Uint8Array(PDF));
  });

  it("serves the whole PDF", async () => {
    const res = await request("2301.00001");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-length")).toBe(String(PDF.length));
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PDF);
  });

  it("serves byte ranges as pdf.js asks for them (206 with Content-Range)", async () => {
    const first = await request("2301.00001", { range: "bytes=0-7" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-7/${PDF.length}`);
    expect(first.headers.get("content-length")).toBe("8");
    expect(Buffer.from(await first.arrayBuffer()).toString()).toBe("%PDF-1.4");

    const middle = await request("2301.00001", { range: "bytes=100-1123" });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe(`bytes 100-1123/${PDF.length}`);
    expect(Buffer.from(await middle.arrayBuffer())).toEqual(PDF.subarray(100, 1124));

    const tail = await request("2301.00001", { range: "bytes=-7" });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).toString()).toBe("\n%%EOF\n");

    const open = await request("2301.00001", { range: `bytes=${PDF.length - 3}-` });
    expect(open.headers.get("content-range")).toBe(`bytes ${PDF.length - 3}-${PDF.length - 1}/${PDF.length}`);
    expect(Buffer.from(await open.arrayBuffer())).toEqual(PDF.subarray(PDF.length - 3));
  });

  it("answers 416 for a range past the end, and HEAD with the headers only", async () => {
    const beyond = await request("2301.00001", { range: `bytes=${PDF.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${PDF.length}`);
    const head = await request("2301.00001", { method: "HEAD", range: "bytes=10-19" });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-length")).toBe("10");
    expect(await head.text()).toBe("");
  });

  it("answers a client that has gone away without an error in the log (pdf.js cancels ranges it no longer needs)", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const req = new Request("http://localhost/api/papers/2301.00001/pdf", {
        headers: { cookie, range: "bytes=0-99" },
        signal: AbortSignal.abort(),
      });
      const res = await GET(req, { params: Promise.resolve({ id: "2301.00001" }) });
      expect(res.status).toBe(499);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it("is 404 when the paper's object is not in the store", async () => {
    const res = await request("2301.00002");
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("The paper's PDF is missing from the PDF store.");
  });
});

describe("GET /api/papers/<id>/pdf, S3", () => {
  it("reads from the bucket and prefix of LECTERN_STORAGE_URL, not the data directory", async () => {
    useEnv(s3.env("elsewhere"));
    expect((await request("2301.00001")).status).toBe(404); // stored under lab/lectern, not elsewhere
    await fs.rm(path.join(dataDir, "pdfs"), { recursive: true, force: true });
    useEnv(s3.env("lab/lectern"));
    const res = await request("2301.00001", { range: "bytes=0-3" });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe("%PDF");
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sessionCookie } from "@/app/testing";
import type { IngestStreamEvent } from "@/components/library/ingest-events";
import type { DbHandle } from "@/db";
import { createAppTestDatabase } from "@/db/testing";
import { LecternError } from "@/lib/errors";
import type { IngestFileResult, IngestInput, IngestProgressEvent } from "@/lib/ingest/progress";
import { POST } from "./route";

// The queue and its workers have their own tests (lib/jobs); here they are a stand-in so the route's transport can be
// observed.
const pipeline = vi.hoisted(() => {
  // uploads stream to temporary files in the data directory: a fresh one for this file's tests
  const state = { dataDir: "" };
  return {
    state,
    submitIngest: vi.fn(),
    getIngestContext: vi.fn(async () => ({ maxUploadBytes: 10 * 1024 * 1024, dataDir: state.dataDir })),
  };
});
vi.mock("@/lib/ingest/pipeline", () => ({ getIngestContext: pipeline.getIngestContext }));
vi.mock("@/lib/jobs/submit", () => ({ submitIngest: pipeline.submitIngest }));
// who uploads is checked for real: a test database with real accounts
let handle: DbHandle;

/** The session cookie of a member (who may upload). */
let member = "";

beforeAll(async () => {
  pipeline.state.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-ingest-route-"));
  handle = await createAppTestDatabase();
  member = await sessionCookie(handle.db, "member");
});
afterAll(async () => {
  fs.rmSync(pipeline.state.dataDir, { recursive: true, force: true });
  await handle?.close();
});

function upload(files: File[], init: RequestInit = {}): Request {
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  const headers = { cookie: member, ...(init.headers as Record<string, string> | undefined) };
  return new Request("http://localhost/api/ingest", { method: "POST", body: form, ...init, headers });
}

async function readLines(res: Response): Promise<IngestStreamEvent[]> {
  const text = await res.text();
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as IngestStreamEvent);
}

const result = (file: string): IngestFileResult => ({
  file,
  status: "ingested",
  paper_id: "p1",
  title: "T",
  pages: 1,
  chunks: 2,
  error: null,
  error_code: null,
});

beforeEach(() => {
  pipeline.submitIngest.mockReset();
  pipeline.getIngestContext.mockClear();
});

describe("POST /api/ingest", () => {
  it("passes the files with their sizes and streams the pipeline's events as NDJSON, then done", async () => {
    pipeline.submitIngest.mockImplementation(
      async (inputs: IngestInput[], opts: { onEvent: (e: IngestProgressEvent) => void; origin: string }) => {
        expect(inputs.map((i) => [i.name, i.size])).toEqual([["a.pdf", 3]]);
        expect(Array.from((await inputs[0]?.read()) ?? [])).toEqual([1, 2, 3]);
        expect(opts.origin).toBe("web");
        opts.onEvent({ type: "file_start", index: 0, total: 1, file: "a.pdf" });
        opts.onEvent({ type: "file_stage", index: 0, file: "a.pdf", stage: "embedding", done: 1, of: 2 });
        opts.onEvent({ type: "file_done", index: 0, result: result("a.pdf") });
        return [result("a.pdf")];
      },
    );
    const res = await POST(upload([new File([new Uint8Array([1, 2, 3])], "a.pdf", { type: "application/pdf" })]));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const events = await readLines(res);
    expect(events.map((e) => e.type)).toEqual(["file_start", "file_stage", "file_done", "done"]);
    expect(events[3]).toEqual({ type: "done", results: [result("a.pdf")] });
  });

  it("ends the stream with a fatal event when the files cannot be queued at all", async () => {
    pipeline.submitIngest.mockRejectedValue(new LecternError("unavailable:database", "The database is in use."));
    const events = await readLines(await POST(upload([new File(["x"], "a.pdf")])));
    expect(events).toEqual([
      { type: "fatal", error: { code: "unavailable:database", message: "The database is in use." } },
    ]);
  });

  it("stops following the batch when the client disconnects (the queued jobs go on)", async () => {
    const client = new AbortController();
    let seen: AbortSignal | undefined;
    pipeline.submitIngest.mockImplementation(
      (_inputs: unknown, opts: { signal: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          seen = opts.signal;
          opts.signal.addEventListener("abort", () => reject(opts.signal.reason));
        }),
    );
    const res = await POST(upload([new File(["x"], "a.pdf")], { signal: client.signal }));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const pending = reader.read();
    await vi.waitFor(() => expect(seen).toBeDefined(), { timeout: 60_000 });
    client.abort();
    expect(seen?.aborted).toBe(true);
    expect((await pending).done).toBe(true);
  });

  it("refuses requests that are not multipart or carry no files", async () => {
    const json = new Request("http://localhost/api/ingest", {
      method: "POST",
      body: "{}",
      headers: { cookie: member },
    });
    expect((await POST(json)).status).toBe(415);
    const empty = await POST(upload([]));
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toBe("No files were sent.");
    expect(pipeline.submitIngest).not.toHaveBeenCalled();
  });

  it("refuses an upload without a session (401) and from a viewer (403), before reading it", async () => {
    const file = () => [new File(["%PDF-1.4"], "a.pdf", { type: "application/pdf" })];
    const anonymous = await POST(upload(file(), { headers: { cookie: "" } }));
    expect(anonymous.status).toBe(401);
    const viewer = await POST(upload(file(), { headers: { cookie: await sessionCookie(handle.db, "viewer") } }));
    expect(viewer.status).toBe(403);
    expect(((await viewer.json()) as { error: { code: string } }).error.code).toBe("forbidden:role");
    expect(pipeline.getIngestContext).not.toHaveBeenCalled();
    expect(pipeline.submitIngest).not.toHaveBeenCalled();
  });

  it("refuses a cross-site upload (a page on another site posting a form) before reading it", async () => {
    // the attack: evil.example's page posts a PDF named like a library paper, to replace that paper
    const attack = upload([new File(["%PDF-1.4 forged"], "1706.03762v5.pdf", { type: "application/pdf" })], {
      headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site" },
    });
    const res = await POST(attack);
    expect(res.status).toBe(403);
    const body = (await res.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.message).toContain("http://evil.example");
    expect(pipeline.getIngestContext).not.toHaveBeenCalled();
    expect(pipeline.submitIngest).not.toHaveBeenCalled();
  });

  it("accepts the same upload from the app's own page", async () => {
    pipeline.submitIngest.mockResolvedValue([result("1706.03762v5.pdf")]);
    const own = upload([new File(["x"], "1706.03762v5.pdf")], {
      headers: { origin: "http://localhost", "sec-fetch-site": "same-origin" },
    });
    const res = await POST(own);
    expect(res.status).toBe(200);
    expect((await readLines(res)).at(-1)?.type).toBe("done");
  });

  it("refuses a body larger than a batch could be, before reading it", async () => {
    const req = upload([new File(["x"], "a.pdf")]);
    const big = new Request(req, { headers: { ...Object.fromEntries(req.headers), "content-length": String(1e12) } });
    expect((await POST(big)).status).toBe(413);
  });

  it("streams each file to a temporary file in the data directory, and removes it when the ingest ends", async () => {
    let seenDuring: string[] = [];
    pipeline.submitIngest.mockImplementation(async (inputs: IngestInput[]) => {
      seenDuring = uploadsLeft();
      expect(inputs.map((i) => [i.name, i.size])).toEqual([
        ["a.pdf", 3],
        ["Über.pdf", 2],
      ]);
      const bytes = await inputs[1]?.read();
      expect(bytes?.constructor).toBe(Uint8Array);
      expect(Array.from(bytes ?? [])).toEqual([4, 5]);
      return [result("a.pdf"), result("Über.pdf")];
    });
    const res = await POST(
      upload([new File([new Uint8Array([1, 2, 3])], "a.pdf"), new File([new Uint8Array([4, 5])], "Über.pdf")]),
    );
    expect((await readLines(res)).at(-1)?.type).toBe("done");
    expect(seenDuring).toHaveLength(2);
    expect(uploadsLeft()).toEqual([]);
  });

  it("refuses a file over the limit with 413 as soon as it passes it, without reading the rest of the body", async () => {
    const limit = 10 * 1024 * 1024;
    // a 1 GB upload, made as it is read: the route must stop pulling shortly after the limit
    const { request, pulled } = endlessUpload("huge.pdf", 1024 * limit);
    const res = await POST(request);
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("bad_request:file");
    expect(body.error.message).toBe(
      "“huge.pdf” is too large: the limit is 10 MB per file (LECTERN_MAX_UPLOAD_MB). Nothing was stored.",
    );
    expect(pulled()).toBeLessThan(limit + 2 * 1024 * 1024);
    expect(pipeline.submitIngest).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(uploadsLeft()).toEqual([]), { timeout: 60_000 });
  });

  it("refuses more files than a request may carry, and a body that is not a complete form", async () => {
    const many = await POST(upload(Array.from({ length: 21 }, (_, i) => new File(["x"], `f${i}.pdf`))));
    expect(many.status).toBe(400);
    expect(((await many.json()) as { error: { message: string } }).error.message).toBe(
      "Send at most 20 files per request.",
    );
    const cut = new Request("http://localhost/api/ingest", {
      method: "POST",
      headers: { cookie: member, "content-type": "multipart/form-data; boundary=xyz" },
      body: '--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\n%PDF-1.4 and then noth',
    });
    const res = await POST(cut);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/could not be read as a form/);
    expect(pipeline.submitIngest).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(uploadsLeft()).toEqual([]), { timeout: 60_000 });
  });
});

/** The temporary upload files still in the data directory. */
function uploadsLeft(): string[] {
  const dir = path.join(pipeline.state.dataDir, "uploads");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** A multipart upload of one file of `size` bytes, generated as the route pulls it; `pulled()` counts what it read. */
function endlessUpload(name: string, size: number): { request: Request; pulled: () => number } {
  const boundary = "lectern-test-boundary";
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\n` +
      "Content-Type: application/pdf\r\n\r\n",
  );
  const chunk = new Uint8Array(64 * 1024).fill(0x41);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) controller.enqueue(head);
      if (sent >= size) {
        controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
        controller.close();
        return;
      }
      controller.enqueue(chunk);
      sent += chunk.length;
    },
  });
  const request = new Request("http://localhost/api/ingest", {
    method: "POST",
    headers: { cookie: member, "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => sent };
}

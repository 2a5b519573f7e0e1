import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sessionCookie } from "@/app/testing";
import type { SourceStreamEvent } from "@/components/library/source-events";
import type { DbHandle } from "@/db";
import { createAppTestDatabase } from "@/db/testing";
import { resetEnvForTests } from "@/lib/env";
import type { JobQueue } from "@/lib/jobs/queue";
import type { Worker } from "@/lib/jobs/worker";
import { writeZoteroExport } from "@/lib/testing/zotero-export";
import { POST } from "./route";

// the request's account is checked for real, on a test database; the pipeline is the real one over it
const db = vi.hoisted(() => ({ handle: null as DbHandle | null, dataDir: "" }));
vi.mock("@/lib/ingest/pipeline", async (original) => {
  const real = await original<typeof import("@/lib/ingest/pipeline")>();
  const { createHashingEmbedder } = await import("@/lib/embeddings/hashing");
  return {
    ...real,
    getIngestContext: async () =>
      real.createIngestContext(db.handle as DbHandle, {
        dataDir: db.dataDir,
        maxUploadBytes: 5 * 1024 * 1024,
        embedder: createHashingEmbedder({ dimensions: 512 }),
        chatModel: null,
      }),
  };
});
// the real queue on the test database, worked by a real worker on the same context (the app's would open its own)
const jobs = vi.hoisted(() => ({ queue: null as JobQueue | null, worker: null as Worker | null }));
vi.mock("@/lib/jobs/submit", () => ({
  getWorkedQueue: async () => {
    if (!jobs.queue) throw new Error("no test queue");
    return jobs.queue;
  },
}));

let member = "";
let viewer = "";
let exportFiles: { bib: string; pdfs: string[] };
const saved = { ...process.env };

function upload(paths: string[], cookie: string | null): Request {
  const form = new FormData();
  for (const p of paths) form.append("files", new File([fs.readFileSync(p)], path.basename(p)));
  return new Request("http://localhost/api/sources/import", {
    method: "POST",
    body: form,
    headers: cookie ? { cookie } : {},
  });
}

beforeAll(async () => {
  db.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-import-route-"));
  db.handle = await createAppTestDatabase();
  exportFiles = await writeZoteroExport(path.join(db.dataDir, "export"));
  process.env.LECTERN_DATA_DIR = db.dataDir;
  resetEnvForTests();
  const { getIngestContext } = await import("@/lib/ingest/pipeline");
  const { getJobQueue } = await import("@/lib/jobs/queue");
  const { startWorker } = await import("@/lib/jobs/worker");
  jobs.queue = await getJobQueue(db.handle);
  jobs.worker = await startWorker(db.handle, {
    concurrency: 1,
    ctx: await getIngestContext(),
    pollingIntervalSeconds: 0.5,
    log: () => {},
  });
  member = await sessionCookie(db.handle.db, "member");
  viewer = await sessionCookie(db.handle.db, "viewer");
});

afterAll(async () => {
  await jobs.worker?.stop({ timeoutMs: 5000 });
  await jobs.queue?.stop({ timeoutMs: 5000 });
  process.env = saved;
  resetEnvForTests();
  await db.handle?.close();
  fs.rmSync(db.dataDir, { recursive: true, force: true });
});

describe("POST /api/sources/import", () => {
  it("refuses a viewer", async () => {
    const res = await POST(upload([exportFiles.bib], viewer));
    expect(res.status).toBe(403);
  });

  it("asks for the bibliography when only PDFs are sent", async () => {
    const res = await POST(upload(exportFiles.pdfs, member));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/Choose the bibliography/);
  });

  it("imports the bibliography with the PDFs sent beside it, matched by file name, and cleans up", async () => {
    const res = await POST(upload([exportFiles.bib, ...exportFiles.pdfs], member));
    const events = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as SourceStreamEvent);
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    if (done?.type === "done") {
      expect(done.results.map((r) => [r.item, r.status])).toEqual([
        ["hoffmann2024tides", "ingested"],
        ["okafor2023soil", "ingested"],
        ["lee2019book", "no_pdf"],
        ["vaswani2017attention", "arxiv_available"],
      ]);
    }
    // the temporary upload files are gone once the stream ends
    const uploads = path.join(db.dataDir, "uploads");
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
  });
});

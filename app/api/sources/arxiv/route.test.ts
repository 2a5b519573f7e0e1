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
import { type ArxivStandin, startArxivStandin } from "@/lib/testing/arxiv-standin";
import { makeTestPdf } from "@/lib/testing/pdf";
import { POST } from "./route";

// the request's account is checked for real, on a test database; the pipeline is the real one over it
const db = vi.hoisted(() => ({ handle: null as DbHandle | null, dataDir: "" }));
vi.mock("@/lib/ingest/pipeline", async (original) => {
  const real = await original<typeof import("@/lib/ingest/pipeline")>();
  const { createHashingEmbedder: hashing } = await import("@/lib/embeddings/hashing");
  return {
    ...real,
    getIngestContext: async () =>
      real.createIngestContext(db.handle as DbHandle, {
        dataDir: db.dataDir,
        maxUploadBytes: 5 * 1024 * 1024,
        embedder: hashing({ dimensions: 512 }),
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

let standin: ArxivStandin;
let member = "";
let viewer = "";
const saved = { ...process.env };

function post(body: unknown, cookie: string | null): Request {
  return new Request("http://localhost/api/sources/arxiv", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

async function events(res: Response): Promise<SourceStreamEvent[]> {
  return (await res.text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SourceStreamEvent);
}

beforeAll(async () => {
  db.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-sources-route-"));
  db.handle = await createAppTestDatabase();
  standin = await startArxivStandin([
    {
      id: "2106.09685",
      title: "LoRA: Low-Rank Adaptation of Large Language Models",
      authors: ["Edward J. Hu"],
      abstract: "Low-rank adapters.",
      categories: ["cs.CL"],
      versions: [
        {
          version: 2,
          date: "2021-10-16",
          pdf: await makeTestPdf({ pages: ["Draft\nLow-rank adapters for transformers.", "A second page."] }),
        },
      ],
    },
  ]);
  process.env.LECTERN_ARXIV_API_URL = standin.apiUrl;
  process.env.LECTERN_ARXIV_PDF_URL = standin.pdfUrl;
  process.env.LECTERN_DATA_DIR = db.dataDir;
  resetEnvForTests();
  const { getIngestContext } = await import("@/lib/ingest/pipeline");
  const { getJobQueue } = await import("@/lib/jobs/queue");
  const { startWorker } = await import("@/lib/jobs/worker");
  jobs.queue = await getJobQueue(db.handle);
  // its downloads go through the process's arXiv client, configured (above) for the stand-in
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
  await standin?.close();
  await db.handle?.close();
  fs.rmSync(db.dataDir, { recursive: true, force: true });
});

describe("POST /api/sources/arxiv", () => {
  it("refuses a visitor without a session and a viewer", async () => {
    expect((await POST(post({ ids: "2106.09685" }, null))).status).toBe(401);
    const refused = await POST(post({ ids: "2106.09685" }, viewer));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden:role");
    expect(standin.requests).toEqual([]);
  });

  it("refuses a request without ids", async () => {
    const res = await POST(post({ ids: "   " }, member));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe("Give at least one arXiv id or URL.");
  });

  it("streams each item's progress, then the results", async () => {
    const res = await POST(post({ ids: "2106.09685 2401.99999" }, member));
    expect(res.headers.get("content-type")).toMatch(/ndjson/);
    const all = await events(res);
    expect(all[0]).toEqual({
      type: "items",
      items: [
        { index: 0, label: "2106.09685" },
        { index: 1, label: "2401.99999" },
      ],
    });
    expect(all.some((e) => e.type === "item_stage" && e.index === 0 && e.stage === "looking_up")).toBe(true);
    // the PDF was downloaded by the download-file job, from the stand-in
    expect(standin.requests.map((r) => r.path)).toContain("/pdf/2106.09685v2");
    const done = all.at(-1);
    expect(done?.type).toBe("done");
    if (done?.type === "done") {
      expect(done.results.map((r) => [r.status, r.paper_id])).toEqual([
        ["ingested", "2106.09685v2"],
        ["error", null],
      ]);
    }
  });

  it("ends with a fatal event naming the problem when arXiv cannot be reached", async () => {
    const gone = await startArxivStandin([]);
    await gone.close();
    process.env.LECTERN_ARXIV_API_URL = gone.apiUrl;
    resetEnvForTests();
    try {
      const all = await events(await POST(post({ ids: ["2301.00001"] }, member)));
      expect(all.at(-1)).toMatchObject({ type: "fatal", error: { code: "unavailable:source" } });
    } finally {
      process.env.LECTERN_ARXIV_API_URL = standin.apiUrl;
      resetEnvForTests();
    }
  });
});

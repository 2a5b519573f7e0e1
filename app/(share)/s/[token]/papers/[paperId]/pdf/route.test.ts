import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandle } from "@/db";
import { insertRun, saveAnswer } from "@/db/queries/research";
import { papers } from "@/db/schema";
import { createAppTestDatabase } from "@/db/testing";
import { addPerson, createOwner } from "@/lib/auth/people";
import { createShareLink, revokeShareLink } from "@/lib/auth/share";
import { resetEnvForTests } from "@/lib/env";
import type { Citation, Reference } from "@/lib/research/types";
import { GET, HEAD } from "./route";

let handle: DbHandle;

const CITED = "2101.00001";
const LISTED = "hep-th/9901001v1"; // cited too, with a `/` in its id
const UNCITED = "2101.00003";
/** Each paper's stored "PDF": distinct bytes, so a response shows which file it came from. */
const bytes = (id: string) => Buffer.from(`%PDF-1.4 ${id} ${"x".repeat(200)}`);

let dataDir = "";
let author: { id: string };
let token = "";
let linkId = "";
const RUN = "sharedPdfRun0001";

function request(
  paperId: string,
  opts: { token?: string; method?: "GET" | "HEAD"; range?: string } = {},
): Promise<Response> {
  const t = opts.token ?? token;
  const segment = encodeURIComponent(paperId);
  const req = new Request(`http://localhost/s/${t}/papers/${segment}/pdf`, {
    method: opts.method ?? "GET",
    headers: opts.range ? { range: opts.range } : {},
  });
  const ctx = { params: Promise.resolve({ token: t, paperId: segment }) };
  return (opts.method === "HEAD" ? HEAD : GET)(req, ctx);
}

function citation(paperId: string, index: number, chunkUid: string | null = `${paperId}#1`): Citation {
  return {
    index,
    marker: `[${paperId}, page 1]`,
    paperId,
    page: 1,
    claim: "A claim.",
    chunkUid,
    quote: "A quote.",
    charStart: null,
    charEnd: null,
    supported: true,
    support: 1,
  };
}

function reference(paperId: string, number: number): Reference {
  return { number, paperId, title: paperId, authors: [], published: null, doi: null, arxivId: null };
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "lectern-share-pdf-"));
  vi.stubEnv("LECTERN_DATA_DIR", dataDir);
  resetEnvForTests();
  handle = await createAppTestDatabase();
  for (const [i, id] of [CITED, LISTED, UNCITED].entries()) {
    const docId = String(i).padEnd(64, "0");
    await fs.mkdir(path.join(dataDir, "pdfs"), { recursive: true });
    await fs.writeFile(path.join(dataDir, "pdfs", `${docId}.pdf`), bytes(id));
    await handle.db.insert(papers).values({
      id,
      docId,
      title: id,
      filePath: `pdfs/${docId}.pdf`,
      fileName: "x.pdf",
      fileSize: bytes(id).length,
      pageCount: 1,
      status: "ready",
    });
  }
  const owner = await createOwner(handle.db, { email: "ada@lab.example", name: "Ada", password: "a long password" });
  author = await addPerson(handle.db, owner, {
    email: "max@lab.example",
    name: "Max",
    password: "a long password",
    role: "member",
  });
  await insertRun(handle.db, {
    id: RUN,
    question: "Why?",
    mode: "offline",
    model: "extractive",
    startedAt: new Date().toISOString(),
    steps: [],
    ownerId: author.id,
  });
  await saveAnswer(handle.db, RUN, {
    markdown: `Because [${CITED}, page 1].`,
    // the uncited paper's one citation named a page the run never retrieved: it opens nothing
    citations: [citation(CITED, 1), citation(LISTED, 2), citation(UNCITED, 3, null)],
    references: [reference(CITED, 1), reference(LISTED, 2)],
    warnings: [],
    retrieved: [],
  });
  ({
    token,
    link: { id: linkId },
  } = await createShareLink(handle.db, author, { runId: RUN }));
});

afterAll(async () => {
  await handle?.close();
  vi.unstubAllEnvs();
  resetEnvForTests();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("GET /s/<token>/papers/<id>/pdf", () => {
  it("serves a paper the run cites, without a session", async () => {
    for (const id of [CITED, LISTED]) {
      const res = await request(id);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes(id));
    }
  });

  it("answers byte ranges as the library's route does (206, 416, HEAD)", async () => {
    const whole = bytes(CITED);
    const part = await request(CITED, { range: "bytes=0-7" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-7/${whole.length}`);
    expect(part.headers.get("content-length")).toBe("8");
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe("%PDF-1.4");
    const tail = await request(CITED, { range: "bytes=-5" });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 5));
    const beyond = await request(CITED, { range: `bytes=${whole.length + 10}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${whole.length}`);
    const head = await request(CITED, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(whole.length));
    expect(await head.text()).toBe("");
  });

  it("is 404 for a paper of the library the run does not cite (or cites only a page it never retrieved), and for ids that are not ids", async () => {
    for (const id of [UNCITED, "no-such-paper", "%", "../../etc/passwd"]) {
      const res = await request(id);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("Not found.");
    }
  });

  it("is 404 for an unknown token, and for a revoked one at the next request", async () => {
    const unknown = await request(CITED, { token: "A".repeat(43) });
    expect(unknown.status).toBe(404);
    expect((await request(CITED, { token: "not-a-token" })).status).toBe(404);

    expect((await request(CITED, { range: "bytes=0-3" })).status).toBe(206);
    await revokeShareLink(handle.db, author, { runId: RUN, linkId });
    for (const opts of [{}, { range: "bytes=0-3" }, { method: "HEAD" as const }]) {
      const res = await request(CITED, opts);
      expect(res.status).toBe(404);
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount, sessionCookie, sessionCookieOf } from "@/app/testing";
import type { DbHandle } from "@/db";
import { finishRun, insertRun, saveAnswer } from "@/db/queries/research";
import { createAppTestDatabase } from "@/db/testing";
import type { Reference } from "@/lib/research/types";
import { exportFileName } from "./file-name";
import { GET } from "./route";

let handle: DbHandle;

/** The session cookie of the runs' author, and their account. */
let author: { id: string; email: string };
let cookie = "";

const DONE = "dddddddddddddddddddddd";
const RUNNING = "rrrrrrrrrrrrrrrrrrrrrr";
const EMPTY = "eeeeeeeeeeeeeeeeeeeeee";
const REF: Reference = {
  number: 1,
  paperId: "2401.01234v2",
  title: "Sparse Retrieval for Long Scientific Documents",
  authors: ["Ada Lovelace", "Alan Turing"],
  published: "2024-01-05",
  doi: null,
  arxivId: "2401.01234v2",
};
const ANSWER =
  "# Tidal sensing\n\nPage-level chunking improves recall [2401.01234v2, page 1].\n\n## References\n\n1. Lovelace";

function get(id: string, format?: string, as = cookie): Promise<Response> {
  const url = `http://localhost/research/${id}/export${format ? `?format=${format}` : ""}`;
  return GET(new Request(url, { headers: { cookie: as } }), { params: Promise.resolve({ id }) });
}

async function addRun(id: string, question: string) {
  await insertRun(handle.db, {
    id,
    question,
    mode: "offline",
    model: "extractive",
    startedAt: "2026-01-01T10:00:00.000Z",
    steps: [],
    ownerId: author.id,
  });
}

beforeAll(async () => {
  handle = await createAppTestDatabase();
  author = await makeAccount(handle.db, "member");
  cookie = await sessionCookieOf(handle.db, author);
  await addRun(DONE, "How does page-level chunking help? (Ü-test)");
  await saveAnswer(handle.db, DONE, {
    markdown: ANSWER,
    citations: [],
    references: [REF],
    warnings: [],
    retrieved: [],
  });
  await finishRun(handle.db, DONE, { status: "completed", durationMs: 10 });
  await addRun(RUNNING, "Still going?");
  await addRun(EMPTY, "Nothing found?");
  await finishRun(handle.db, EMPTY, { status: "failed", durationMs: 10 });
});

afterAll(async () => {
  await handle?.close();
});

describe("GET /research/<id>/export", () => {
  it("downloads the answer as Markdown, citations and references intact", async () => {
    const res = await get(DONE, "md");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="lectern-how-does-page-level-chunking-help-u-test-dddddddd.md"',
    );
    const text = await res.text();
    expect(text).toContain("[2401.01234v2, page 1]");
    expect(text).toContain("## References");
    expect(text).toContain(`Lectern research run ${DONE}`);
    // md is the default
    expect((await get(DONE)).headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  });

  it("downloads BibTeX of the cited papers", async () => {
    const res = await get(DONE, "bibtex");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-bibtex; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/filename=".+\.bib"$/);
    const text = await res.text();
    expect(text).toMatch(/^@misc\{lovelace2024sparse,/);
    expect(text).toContain("eprint = {2401.01234v2}");
  });

  it("refuses unknown runs and formats, runs still going, and runs without an answer", async () => {
    expect((await get("nnnnnnnnnnnnnnnnnnnnnn", "md")).status).toBe(404);
    expect((await get("../etc", "md")).status).toBe(404);
    // a bare `%` (Next decodes `/research/%25/export` to it) is no run, not a 500 from decodeURIComponent
    for (const id of ["%", "%25", "%E0%A4%A", "abc%zz"]) {
      const res = await get(id, "md");
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("No such research run.");
    }
    const bad = await get(DONE, "pdf");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("The format is md or bibtex.");
    const running = await get(RUNNING, "md");
    expect(running.status).toBe(409);
    expect(await running.text()).toBe("That run is still going; export it when it has finished.");
    expect((await get(EMPTY, "bibtex")).status).toBe(409);
  });
});

describe("export file names", () => {
  it("are ASCII words of the question and the run id's start", () => {
    expect(exportFileName("Ça va? Über-große Modelle!", "AbC_d-12345", "md")).toBe(
      "lectern-ca-va-uber-gro-e-modelle-AbC_d-12.md",
    );
    expect(exportFileName("???", "x", "bib")).toBe("lectern-research-x.bib");
  });

  it("is the author's only: another member gets 403, a visitor without a session 401", async () => {
    const other = await sessionCookie(handle.db, "member");
    const refused = await get(DONE, "md", other);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/private/);
    expect((await get(DONE, "md", "")).status).toBe(401);
  });
});

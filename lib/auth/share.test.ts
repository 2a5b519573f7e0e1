import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, queryRows } from "@/db";
import { deleteRuns, getRun, insertRun, saveAnswer, saveStep } from "@/db/queries/research";
import { createTestDatabase } from "@/db/testing";
import { relationsStep } from "@/lib/research/deep/steps/relations";
import { type GraphEdgeChip, graphSearchStep } from "@/lib/research/steps/graph-search";
import { contentSearchStep } from "@/lib/research/steps/search-content";
import type { Citation, Reference } from "@/lib/research/types";
import { addPerson, createOwner } from "./people";
import {
  createShareLink,
  hashShareToken,
  listRunShareLinks,
  loadSharedRun,
  resolveShareToken,
  revokeShareLink,
  sharedPaperIds,
  sharedRunSnapshot,
} from "./share";

let handle: DbHandle;
let author: { id: string };
let other: { id: string };
const PASSWORD = "correct horse battery";
const DAY = 24 * 3600 * 1000;

function citation(paperId: string, index: number, chunkUid: string | null = `${paperId}-chunk-${index}`): Citation {
  return {
    index,
    marker: `[${paperId}, page 2]`,
    paperId,
    page: 2,
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
  return { number, paperId, title: `Paper ${paperId}`, authors: [], published: null, doi: null, arxivId: null };
}

async function makeRun(id: string, ownerId: string): Promise<string> {
  await insertRun(handle.db, {
    id,
    question: "Why?",
    mode: "offline",
    model: "extractive",
    startedAt: new Date().toISOString(),
    steps: [],
    ownerId,
  });
  await saveAnswer(handle.db, id, {
    markdown: "Because [2101.00001, page 2].",
    citations: [citation("2101.00001", 1)],
    references: [reference("2101.00001", 1), reference("2101.00002", 2)],
    warnings: [],
    retrieved: [],
  });
  return id;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  const owner = await createOwner(handle.db, { email: "ada@lab.example", name: "Ada", password: PASSWORD });
  author = await addPerson(handle.db, owner, {
    email: "max@lab.example",
    name: "Max",
    password: PASSWORD,
    role: "member",
  });
  other = await addPerson(handle.db, owner, {
    email: "eve@lab.example",
    name: "Eve",
    password: PASSWORD,
    role: "member",
  });
});
afterAll(async () => {
  await handle?.close();
});

describe("share links", () => {
  it("gives the author a 256-bit token once and stores only its SHA-256", async () => {
    const runId = await makeRun("shareRun0000001", author.id);
    const { token, link } = await createShareLink(handle.db, author, { runId });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(link).toMatchObject({ state: "active", expiresAt: null, revokedAt: null });
    expect(link.label).toBe(hashShareToken(token).slice(0, 6));
    expect(JSON.stringify(link)).not.toContain(token);

    // the database holds the hash, and the token nowhere
    const rows = await queryRows<Record<string, unknown>>(handle.db, sql`select * from share_links`);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hashShareToken(token));
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);

    expect(await resolveShareToken(handle.db, token)).toBe(runId);
    expect((await loadSharedRun(handle.db, token))?.runId).toBe(runId);
    // two links to the same run are two different tokens
    const second = await createShareLink(handle.db, author, { runId }, new Date(Date.now() + 1000));
    expect(second.token).not.toBe(token);
    expect((await listRunShareLinks(handle.db, author, runId)).map((l) => l.id)).toEqual([second.link.id, link.id]);
  });

  it("does not open for a malformed, unknown or almost-right token", async () => {
    const runId = await makeRun("shareRun0000002", author.id);
    const { token } = await createShareLink(handle.db, author, { runId });
    const flipped = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const t of ["", "x", flipped, `${token}x`, token.slice(1), hashShareToken(token), "../../etc/passwd"]) {
      expect(await resolveShareToken(handle.db, t)).toBeNull();
    }
  });

  it("is dead at once when revoked, and revoking is the author's only", async () => {
    const runId = await makeRun("shareRun0000003", author.id);
    const { token, link } = await createShareLink(handle.db, author, { runId });
    await expect(revokeShareLink(handle.db, other, { runId, linkId: link.id })).rejects.toMatchObject({
      code: "forbidden:run",
    });
    expect(await resolveShareToken(handle.db, token)).toBe(runId);

    const revoked = await revokeShareLink(handle.db, author, { runId, linkId: link.id });
    expect(revoked).toMatchObject({ id: link.id, state: "revoked", revokedAt: expect.any(String) });
    expect(await resolveShareToken(handle.db, token)).toBeNull();
    // again: still revoked, at the first time
    expect((await revokeShareLink(handle.db, author, { runId, linkId: link.id })).revokedAt).toBe(revoked.revokedAt);
    await expect(revokeShareLink(handle.db, author, { runId, linkId: "no-such-link" })).rejects.toMatchObject({
      code: "not_found:share",
    });
    // a link of another run cannot be revoked through this one
    const otherRun = await makeRun("shareRun0000004", author.id);
    const elsewhere = await createShareLink(handle.db, author, { runId: otherRun });
    await expect(revokeShareLink(handle.db, author, { runId, linkId: elsewhere.link.id })).rejects.toMatchObject({
      code: "not_found:share",
    });
    expect(await resolveShareToken(handle.db, elsewhere.token)).toBe(otherRun);
  });

  it("expires at its date, which must be in the future", async () => {
    const runId = await makeRun("shareRun0000005", author.id);
    const now = new Date();
    await expect(
      createShareLink(handle.db, author, { runId, expiresAt: new Date(now.getTime() - 1000) }, now),
    ).rejects.toMatchObject({ code: "bad_request:share", message: "The expiry date must be in the future." });
    await expect(
      createShareLink(handle.db, author, { runId, expiresAt: new Date("not a date") }, now),
    ).rejects.toMatchObject({ code: "bad_request:share" });
    const expiresAt = new Date(now.getTime() + DAY);
    const { token, link } = await createShareLink(handle.db, author, { runId, expiresAt }, now);
    expect(link).toMatchObject({ state: "active", expiresAt: expiresAt.toISOString() });
    expect(await resolveShareToken(handle.db, token, new Date(expiresAt.getTime() - 1))).toBe(runId);
    expect(await resolveShareToken(handle.db, token, expiresAt)).toBeNull();
    expect(await resolveShareToken(handle.db, token, new Date(now.getTime() + 2 * DAY))).toBeNull();
    const later = await listRunShareLinks(handle.db, author, runId, new Date(now.getTime() + 2 * DAY));
    expect(later.find((l) => l.id === link.id)?.state).toBe("expired");
  });

  it("keeps a run's links to its author", async () => {
    const runId = await makeRun("shareRun0000006", author.id);
    await expect(createShareLink(handle.db, other, { runId })).rejects.toMatchObject({ code: "forbidden:run" });
    await expect(listRunShareLinks(handle.db, other, runId)).rejects.toMatchObject({ code: "forbidden:run" });
    await expect(createShareLink(handle.db, author, { runId: "noSuchRun000001" })).rejects.toMatchObject({
      code: "not_found:run",
    });
    expect(await listRunShareLinks(handle.db, author, runId)).toEqual([]);
  });

  it("dies with its run", async () => {
    const runId = await makeRun("shareRun0000007", author.id);
    const { token } = await createShareLink(handle.db, author, { runId });
    expect(await deleteRuns(handle.db, { ids: [runId] })).toBe(1);
    expect(await resolveShareToken(handle.db, token)).toBeNull();
    expect(await loadSharedRun(handle.db, token)).toBeNull();
  });

  it("opens the papers of the run's citations that resolved to a passage it retrieved, and no other", () => {
    // a citation of a page the run never retrieved (a model steered into citing another paper) opens nothing
    const ids = sharedPaperIds({ citations: [citation("a", 1), citation("b", 2), citation("c", 3, null)] });
    expect([...ids].sort()).toEqual(["a", "b"]);
  });

  it("shows a run without what is its author's, nor the passages of papers it does not cite", async () => {
    const runId = await makeRun("shareRun0000008", author.id);
    const passage = (paperId: string) => ({
      id: `${paperId}:1`,
      type: "passage" as const,
      title: paperId,
      paperId,
      page: 1,
      excerpt: `The text of ${paperId}.`,
      similarity: 0.5,
    });
    await saveStep(handle.db, runId, {
      ...contentSearchStep.card(),
      status: "completed",
      sources: [passage("2101.00001"), passage("2101.00009")],
    });
    const stored = await getRun(handle.db, runId);
    if (!stored) throw new Error("no run");
    const shared = sharedRunSnapshot({ ...stored, feedback: { rating: "helpful", comment: "mine", at: "x" } });
    for (const key of ["ownerId", "parentId", "options", "retrieved", "feedback"])
      expect(shared).not.toHaveProperty(key);
    expect(shared.answer).toBe(stored.answer);
    expect(shared.citations).toEqual(stored.citations);
    expect(shared.steps[0]?.sources.map((s) => [s.paperId, s.excerpt])).toEqual([
      ["2101.00001", "The text of 2101.00001."],
      ["2101.00009", ""],
    ]);
  });

  it("shows a graph step's edges without the quotes of papers it does not cite", async () => {
    const runId = await makeRun("shareRun0000009", author.id);
    const edge = (id: number, paperId: string): GraphEdgeChip => ({
      id,
      relation: "improves_on",
      source: "Frobnicator",
      target: "WidgetNet",
      paperId,
      title: `Paper ${paperId}`,
      year: 2021,
      page: 1,
      quote: `The sentence of ${paperId}.`,
      charStart: 0,
      charEnd: 20,
      confidence: 0.9,
    });
    const edges = [edge(1, "2101.00001"), edge(2, "2101.00009")];
    await saveStep(handle.db, runId, {
      ...graphSearchStep.card(),
      status: "completed",
      data: {
        question: { kind: "improved_by", entities: ["WidgetNet"] },
        asked: "what improves on WidgetNet",
        names: [],
        edges,
        graphEmpty: false,
      },
    });
    await saveStep(handle.db, runId, {
      ...relationsStep.card(),
      status: "completed",
      data: { papers: 2, edges, graphEmpty: false },
    });
    const stored = await getRun(handle.db, runId);
    if (!stored) throw new Error("no run");
    const shared = sharedRunSnapshot(stored);
    for (const type of ["graph_search", "graph_relations"]) {
      const step = shared.steps.find((s) => s.type === type);
      const chips = step && (step.type === "graph_search" || step.type === "graph_relations") ? step.data?.edges : [];
      expect(chips?.map((e) => [e.paperId, e.page, e.quote])).toEqual([
        ["2101.00001", 1, "The sentence of 2101.00001."],
        ["2101.00009", 1, ""],
      ]);
    }
    // the stored run is untouched
    expect(JSON.stringify(stored.steps)).toContain("The sentence of 2101.00009.");
  });
});

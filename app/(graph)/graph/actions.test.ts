import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAs } from "@/app/testing";
import type { DbHandle } from "@/db";
import { addAliasSuggestions, getEntityByCanonical } from "@/db/queries/graph";
import { graphAliasSuggestions, graphEdges, graphEntities, pages, papers } from "@/db/schema";
import { createAppTestDatabase } from "@/db/testing";
import { readAudit } from "@/lib/auth/audit";
import { createHashingEmbedder } from "@/lib/embeddings/hashing";
import { buildGraph } from "@/lib/graph/build";
import { improvesOn } from "@/lib/graph/query";
import { loadReviewQueue } from "@/lib/graph/review";
import { decideAliasSuggestionAction, reviewEdgeAction, splitAliasAction } from "./actions";

// The review actions as the app runs them, on a test database with a graph built offline from two small papers,
// signed in as real accounts of each role.
let handle: DbHandle;

const h = () => handle;

const PAPERS = [
  {
    id: "2101.00001",
    title: "Frobnicator: Fast Widget Retrieval",
    pages: [
      "Frobnicator: Fast Widget Retrieval\nAbstract\nWe introduce a Dense Widget Retriever (DWR) for widget search. " +
        "Frobnicator outperforms WidgetNet by a wide margin on every benchmark we tried.",
      "2 Results\nIn our early tests, Frobnicator may outperform Gizmotron on small widget collections.\n" +
        "We evaluate Frobnicator on the WidgetQA dataset under the same setting as earlier work.",
    ],
  },
  {
    id: "2101.00002",
    title: "Gizmotron: Better Widget Retrieval",
    pages: [
      "Gizmotron: Better Widget Retrieval\nAbstract\nGizmotron extends the Dense Widget Retriever with a reranker.",
    ],
  },
];

async function edgeRow(id: number) {
  const [row] = await h().db.select().from(graphEdges).where(eq(graphEdges.id, id));
  return row;
}

/** The id of an edge the validator sent to review (the hedged "may outperform"). */
async function reviewEdgeId(): Promise<number> {
  const queue = await loadReviewQueue(h().db);
  const edge = queue.edges.find((e) => e.source.name === "Frobnicator" && e.target.name === "Gizmotron");
  if (!edge) throw new Error(`no edge in review: ${JSON.stringify(queue.edges.map((e) => e.quote))}`);
  return edge.id;
}

beforeAll(async () => {
  handle = await createAppTestDatabase();
  for (const [i, p] of PAPERS.entries()) {
    await h()
      .db.insert(papers)
      .values({
        id: p.id,
        docId: String(i).padStart(64, "b"),
        title: p.title,
        filePath: `papers/${p.id}.pdf`,
        fileName: `${p.id}.pdf`,
        fileSize: 1,
        pageCount: p.pages.length,
        status: "ready",
        year: 2021,
      });
    await h()
      .db.insert(pages)
      .values(p.pages.map((text, n) => ({ paperId: p.id, pageNumber: n + 1, text })));
  }
  await buildGraph(h().db, { embedder: createHashingEmbedder({ dimensions: 16 }) });
});

afterAll(async () => {
  await handle?.close();
});

describe("who may decide", () => {
  it("refuses a signed-out visitor and a viewer, and changes nothing", async () => {
    const id = await reviewEdgeId();
    await signInAs(h().db, null);
    expect(await reviewEdgeAction({ id, decision: "accept" })).toMatchObject({
      ok: false,
      error: { code: "unauthorized:session" },
    });
    await signInAs(h().db, "viewer");
    expect(await reviewEdgeAction({ id, decision: "reject", reason: "wrong" })).toMatchObject({
      ok: false,
      error: { code: "forbidden:role" },
    });
    expect(await splitAliasAction({ entityId: 1 })).toMatchObject({ ok: false, error: { code: "forbidden:role" } });
    expect(await decideAliasSuggestionAction({ id: 1, decision: "confirm" })).toMatchObject({
      ok: false,
      error: { code: "forbidden:role" },
    });
    expect((await edgeRow(id))?.status).toBe("review");
  });
});

describe("edges in review", () => {
  it("rejects bad input before touching anything", async () => {
    const id = await reviewEdgeId();
    await signInAs(h().db, "member");
    for (const input of [
      { id, decision: "reject" },
      { id, decision: "reject", reason: "   " },
      { id, decision: "reject", reason: "x".repeat(301) },
      { id: String(id), decision: "accept" },
      { id: -1, decision: "accept" },
      { id: 1.5, decision: "accept" },
      { id, decision: "delete" },
      null,
      "accept",
    ]) {
      const r = await reviewEdgeAction(input);
      expect(r, JSON.stringify(input)).toMatchObject({ ok: false, error: { code: "bad_request:input" } });
    }
    expect((await edgeRow(id))?.status).toBe("review");
  });

  it("a reason with control characters (a NUL the database refuses) is stored without them", async () => {
    const id = await reviewEdgeId();
    await signInAs(h().db, "member");
    expect(await reviewEdgeAction({ id, decision: "reject", reason: "\u0000\u0007" })).toMatchObject({
      ok: false,
      error: { code: "bad_request:input" },
    });
    expect((await edgeRow(id))?.status).toBe("review");
    const r = await reviewEdgeAction({ id, decision: "reject", reason: "only\u0000 hedged\r\nin a table" });
    expect(r).toEqual({ ok: true, data: { id, status: "rejected" } });
    expect((await edgeRow(id))?.reason).toBe("only hedged in a table");
    const [entry] = await readAudit(h().db, 1);
    expect(entry).toMatchObject({ action: "graph.edge_rejected", detail: { reason: "only hedged in a table" } });
    // back in review for the tests after this one
    await h().db.update(graphEdges).set({ status: "review" }).where(eq(graphEdges.id, id));
  });

  it("a member rejects an edge with a reason: it leaves the queue, stays out of answers, and is audited", async () => {
    const id = await reviewEdgeId();
    const member = await signInAs(h().db, "member");
    const r = await reviewEdgeAction({ id, decision: "reject", reason: "  only a hedge, not a result  " });
    expect(r).toEqual({ ok: true, data: { id, status: "rejected" } });
    expect(await edgeRow(id)).toMatchObject({ status: "rejected", reason: "only a hedge, not a result" });
    expect((await loadReviewQueue(h().db)).edges.map((e) => e.id)).not.toContain(id);
    const answer = await improvesOn(h().db, "Gizmotron", { includeReview: true });
    expect(answer.found && answer.edges.map((e) => e.id)).not.toContain(id);
    const [entry] = await readAudit(h().db, 1);
    expect(entry).toMatchObject({
      actorId: member?.id,
      action: "graph.edge_rejected",
      subject: `edge ${id}`,
      detail: { reason: "only a hedge, not a result" },
    });
    // the same decision again is a conflict; changing one's mind is allowed
    expect(await reviewEdgeAction({ id, decision: "reject", reason: "again" })).toMatchObject({
      ok: false,
      error: { code: "conflict:input" },
    });
    expect(await reviewEdgeAction({ id, decision: "accept" })).toEqual({ ok: true, data: { id, status: "accepted" } });
    const accepted = await improvesOn(h().db, "Gizmotron");
    expect(accepted.found && accepted.edges.map((e) => e.id)).toContain(id);
  });

  it("answers not found for an edge that does not exist", async () => {
    await signInAs(h().db, "owner");
    expect(await reviewEdgeAction({ id: 987654, decision: "accept" })).toMatchObject({
      ok: false,
      error: { code: "not_found:input" },
    });
  });
});

describe("aliases", () => {
  it("splits an alias link (the acronym a paper defines), once", async () => {
    const dwr = await getEntityByCanonical(h().db, { canonicalName: "dwr" });
    const long = await getEntityByCanonical(h().db, { canonicalName: "dense widget retriever" });
    const alias = [dwr, long].find((e) => e?.aliasOf !== null);
    if (!alias) throw new Error("the acronym was not linked to its long form");
    await signInAs(h().db, "member");
    expect(await splitAliasAction({ entityId: "x" })).toMatchObject({
      ok: false,
      error: { code: "bad_request:input" },
    });
    expect(await splitAliasAction({ entityId: alias.id })).toEqual({ ok: true, data: { entityId: alias.id } });
    const [row] = await h().db.select().from(graphEntities).where(eq(graphEntities.id, alias.id));
    expect(row?.aliasOf).toBeNull();
    expect(await splitAliasAction({ entityId: alias.id })).toMatchObject({
      ok: false,
      error: { code: "not_found:input" },
    });
  });

  it("confirms a proposed pair (linked) and rejects another (kept apart); a decided pair cannot be decided again", async () => {
    const frob = await getEntityByCanonical(h().db, { canonicalName: "frobnicator" });
    const giz = await getEntityByCanonical(h().db, { canonicalName: "gizmotron" });
    const widgetnet = await getEntityByCanonical(h().db, { canonicalName: "widgetnet" });
    if (!frob || !giz || !widgetnet) throw new Error("entities missing");
    await addAliasSuggestions(h().db, [
      { entityId: giz.id, candidateId: frob.id, similarity: 0.91, reason: "test pair" },
      { entityId: widgetnet.id, candidateId: frob.id, similarity: 0.9, reason: "test pair" },
    ]);
    const suggestions = (await loadReviewQueue(h().db)).suggestions;
    const confirm = suggestions.find((s) => s.entity.id === giz.id);
    const reject = suggestions.find((s) => s.entity.id === widgetnet.id);
    if (!confirm || !reject) throw new Error("suggestions not listed");
    await signInAs(h().db, "owner");
    expect(await decideAliasSuggestionAction({ id: confirm.id, decision: "maybe" })).toMatchObject({
      ok: false,
      error: { code: "bad_request:input" },
    });
    expect(await decideAliasSuggestionAction({ id: confirm.id, decision: "confirm" })).toEqual({
      ok: true,
      data: { id: confirm.id, decision: "confirm" },
    });
    const [linked] = await h().db.select().from(graphEntities).where(eq(graphEntities.id, giz.id));
    expect(linked).toMatchObject({ aliasOf: frob.id, aliasTier: "manual" });
    expect(await decideAliasSuggestionAction({ id: reject.id, decision: "reject" })).toMatchObject({ ok: true });
    const [apart] = await h().db.select().from(graphAliasSuggestions).where(eq(graphAliasSuggestions.id, reject.id));
    expect(apart?.status).toBe("rejected");
    const [still] = await h().db.select().from(graphEntities).where(eq(graphEntities.id, widgetnet.id));
    expect(still?.aliasOf).toBeNull();
    expect(await decideAliasSuggestionAction({ id: reject.id, decision: "confirm" })).toMatchObject({
      ok: false,
      error: { code: "conflict:input" },
    });
    expect((await loadReviewQueue(h().db)).suggestions).toEqual([]);
  });

  it("does not mark a pair confirmed when its entity is already another group's alias (nothing would be linked)", async () => {
    // Gizmotron is an alias of Frobnicator since the test before; a second pair proposes it for WidgetNet
    const giz = await getEntityByCanonical(h().db, { canonicalName: "gizmotron" });
    const widgetnet = await getEntityByCanonical(h().db, { canonicalName: "widgetnet" });
    if (!giz || !widgetnet) throw new Error("entities missing");
    expect(giz.aliasOf).not.toBeNull();
    await h().db.delete(graphAliasSuggestions).where(eq(graphAliasSuggestions.entityId, giz.id));
    await addAliasSuggestions(h().db, [
      { entityId: giz.id, candidateId: widgetnet.id, similarity: 0.8, reason: "test pair" },
    ]);
    const [pair] = (await loadReviewQueue(h().db)).suggestions;
    if (!pair) throw new Error("suggestion not listed");
    await signInAs(h().db, "member");
    const r = await decideAliasSuggestionAction({ id: pair.id, decision: "confirm" });
    expect(r).toMatchObject({
      ok: false,
      error: { code: "conflict:input", message: expect.stringContaining("split") },
    });
    const [row] = await h().db.select().from(graphAliasSuggestions).where(eq(graphAliasSuggestions.id, pair.id));
    expect(row?.status).toBe("pending");
    const [still] = await h().db.select().from(graphEntities).where(eq(graphEntities.id, giz.id));
    expect(still?.aliasOf).toBe(giz.aliasOf);
    // rejecting it is still possible
    expect(await decideAliasSuggestionAction({ id: pair.id, decision: "reject" })).toMatchObject({ ok: true });
  });
});

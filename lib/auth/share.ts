import { createHash, randomBytes } from "node:crypto";
import type { Database } from "@/db";
import { getRun, type StoredRun } from "@/db/queries/research";
import {
  getLiveShareLink,
  insertShareLink,
  listShareLinks,
  revokeShareLink as revokeShareLinkRow,
  type ShareLinkRecord,
} from "@/db/queries/shares";
import { LecternError } from "@/lib/errors";
import { loadOwnRun } from "@/lib/research/access";
import type { ResearchRunState, ResearchStep } from "@/lib/research/types";

/**
 * Share links of research runs: `/s/<token>` opens a read-only snapshot of one run without an account. The token is
 * 256 random bits (base64url, 43 characters), shown to its author once; the database keeps only its SHA-256, so a
 * copy of the database opens nothing. A link is looked up by that hash (one indexed equality: no comparison of
 * secrets in our code to time), is dead as soon as it is revoked or past its expiry, and dies with its run.
 */

const TOKEN_BYTES = 32;
/** What a token looks like (32 bytes in base64url without padding); anything else is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function hashShareToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export type ShareLinkState = "active" | "expired" | "revoked";

/** A link as its author sees it on the run: never the token. Plain JSON (dates as ISO strings). */
export interface ShareLink {
  id: string;
  /** A short non-secret name to tell links apart: the start of the token's hash. */
  label: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  state: ShareLinkState;
}

function toShareLink(row: ShareLinkRecord, now: Date): ShareLink {
  const state: ShareLinkState = row.revokedAt
    ? "revoked"
    : row.expiresAt && row.expiresAt.getTime() <= now.getTime()
      ? "expired"
      : "active";
  return {
    id: row.id,
    label: row.tokenHash.slice(0, 6),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state,
  };
}

/**
 * A new link to a run, made by its author, optionally expiring at `expiresAt` (which must be in the future). The
 * token is returned here and never again.
 */
export async function createShareLink(
  db: Database,
  author: { id: string },
  input: { runId: string; expiresAt?: Date | null },
  now = new Date(),
): Promise<{ token: string; link: ShareLink }> {
  const run = await loadOwnRun(db, input.runId, author.id);
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt && Number.isNaN(expiresAt.getTime())) {
    throw new LecternError("bad_request:share", "That expiry date is not a date.", { field: "expiresAt" });
  }
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw new LecternError("bad_request:share", "The expiry date must be in the future.", { field: "expiresAt" });
  }
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  const row = await insertShareLink(db, {
    id: randomBytes(12).toString("base64url"),
    runId: run.runId,
    tokenHash: hashShareToken(token),
    createdBy: author.id,
    createdAt: now,
    expiresAt,
  });
  return { token, link: toShareLink(row, now) };
}

/** A run's links, newest first, for its author (revoked and expired ones included, marked so). */
export async function listRunShareLinks(
  db: Database,
  author: { id: string },
  runId: string,
  now = new Date(),
): Promise<ShareLink[]> {
  const run = await loadOwnRun(db, runId, author.id);
  return (await listShareLinks(db, { runId: run.runId })).map((r) => toShareLink(r, now));
}

/** Revokes one of a run's links (its author only): the next request through it is a 404. */
export async function revokeShareLink(
  db: Database,
  author: { id: string },
  input: { runId: string; linkId: string },
  now = new Date(),
): Promise<ShareLink> {
  const run = await loadOwnRun(db, input.runId, author.id);
  const row = await revokeShareLinkRow(db, { id: input.linkId, runId: run.runId, now });
  if (!row) throw new LecternError("not_found:share", "This run has no such share link.");
  return toShareLink(row, now);
}

/** The run a token opens; null when the token is malformed, unknown, revoked or expired. */
export async function resolveShareToken(db: Database, token: string, now = new Date()): Promise<string | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const link = await getLiveShareLink(db, { tokenHash: hashShareToken(token), now });
  return link?.runId ?? null;
}

/** The stored run a token opens (null as for `resolveShareToken`, or when the run is gone). */
export async function loadSharedRun(db: Database, token: string, now = new Date()): Promise<StoredRun | null> {
  const runId = await resolveShareToken(db, token, now);
  return runId ? getRun(db, runId) : null;
}

/**
 * The papers a shared run opens: those of its citations that resolved to a passage the run retrieved (or a page of
 * one), and no other. A citation naming a page the run never retrieved (left in, marked unsupported) does not open
 * its paper: a model's answer could be steered by a paper's text into citing another paper, and the link would then
 * open that paper's PDF. (The references list names the papers; it opens none by itself.)
 */
export function sharedPaperIds(run: Pick<StoredRun, "citations">): Set<string> {
  return new Set(run.citations.filter((c) => c.chunkUid !== null).map((c) => c.paperId));
}

/**
 * What a share link shows of a stored run: the run as its page shows it, without what is its author's (feedback,
 * options, the retrieval log kept for evaluation, the author, the parent version), and without the passages of papers
 * it does not cite (a step card still names such a paper and its page; the text stays in the library).
 */
export function sharedRunSnapshot(run: StoredRun): ResearchRunState {
  const {
    parentId: _parent,
    ownerId: _owner,
    options: _options,
    retrieved: _retrieved,
    feedback: _feedback,
    ...state
  } = run;
  const open = sharedPaperIds(run);
  return {
    ...state,
    steps: state.steps.map((step) =>
      withoutClosedQuotes(
        { ...step, sources: step.sources.map((s) => (open.has(s.paperId) ? s : { ...s, excerpt: "" })) },
        open,
      ),
    ),
  };
}

/**
 * A knowledge-graph step's edges (graph_search, graph_relations) keep their relation, paper and page; the sentence
 * quoted from a paper the link does not open is left out, like a passage's excerpt.
 */
function withoutClosedQuotes(step: ResearchStep, open: ReadonlySet<string>): ResearchStep {
  if ((step.type !== "graph_search" && step.type !== "graph_relations") || !step.data) return step;
  const edges = step.data.edges.map((e) => (open.has(e.paperId) ? e : { ...e, quote: "" }));
  return step.type === "graph_search"
    ? { ...step, data: { ...step.data, edges } }
    : { ...step, data: { ...step.data, edges } };
}

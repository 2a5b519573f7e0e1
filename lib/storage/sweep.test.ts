import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "@/db";
import { papers } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { startTestS3, type TestS3 } from "@/lib/testing/s3";
import { pdfKey } from "./keys";
import { localPdfStorage } from "./local";
import { type S3PdfStorage, s3PdfStorage } from "./s3";
import { DEFAULT_SWEEP_GRACE_MS, sweepOrphanObjects } from "./sweep";

/**
 * The sweep over both stores. Ages are set, not waited for: a local file's modification time is moved back
 * (fs.utimes); S3 keeps its own times, so there the sweep is run as if later (`now`).
 */

const HOUR = 60 * 60 * 1000;
let handle: DbHandle;
let dataDir = "";
let s3: TestS3;
let s3Storage: S3PdfStorage;

const doc = (n: number) => n.toString(16).padStart(64, "0");
const pdf = (s: string) => new Uint8Array(Buffer.from(`%PDF-1.4 ${s}`));

async function addPaper(id: string, filePath: string): Promise<void> {
  await handle.db.insert(papers).values({
    id,
    docId: id.padEnd(64, "f").slice(0, 64),
    title: id,
    filePath,
    fileName: `${id}.pdf`,
    fileSize: 10,
    pageCount: 1,
    status: "ready",
  });
}

/** Moves a local object's modification time `ms` into the past. */
async function age(key: string, ms: number): Promise<void> {
  const when = new Date(Date.now() - ms);
  await fs.utimes(path.join(dataDir, key), when, when);
}

beforeAll(async () => {
  handle = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "lectern-sweep-"));
  s3 = await startTestS3();
  s3Storage = s3PdfStorage(s3.settings("sweep"));
});

afterAll(async () => {
  s3Storage?.destroy();
  await s3?.stop();
  await handle?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe("sweepOrphanObjects, local directory", () => {
  it("removes an orphan older than the grace period; keeps a referenced object and a young orphan", async () => {
    const storage = localPdfStorage(dataDir);
    const referenced = pdfKey(doc(1));
    const oldOrphan = pdfKey(doc(2));
    const freshOrphan = pdfKey(doc(3));
    for (const key of [referenced, oldOrphan, freshOrphan]) await storage.put(key, pdf(key));
    // what a crashed put leaves: a temporary file beside the PDFs, as old as the orphan
    const leftover = `${pdfKey(doc(4))}.4242.abcdef.tmp`;
    await fs.writeFile(path.join(dataDir, leftover), "%PDF-1.4 trunc");
    await addPaper("kept-paper", referenced);
    await age(referenced, 3 * HOUR);
    await age(oldOrphan, 2 * HOUR);
    await age(leftover, 2 * HOUR);
    // a file outside the PDF folder is never the sweep's business, however old
    await fs.writeFile(path.join(dataDir, "unrelated.bin"), "x");
    await age("unrelated.bin", 100 * HOUR);

    const result = await sweepOrphanObjects(storage, handle.db, { graceMs: HOUR });
    expect(result.removed.map((o) => o.key).sort()).toEqual([oldOrphan, leftover].sort());
    expect(result).toMatchObject({ location: dataDir, graceMs: HOUR, checked: 4, referenced: 1, fresh: 1 });
    expect(await storage.head(oldOrphan)).toBeNull();
    expect(await storage.head(leftover)).toBeNull();
    expect(await storage.head(referenced)).not.toBeNull();
    expect(await storage.head(freshOrphan)).not.toBeNull();
    expect(await fs.readFile(path.join(dataDir, "unrelated.bin"), "utf8")).toBe("x");

    // the young orphan goes once it is older than the grace period
    await age(freshOrphan, 61 * 60 * 1000);
    const later = await sweepOrphanObjects(storage, handle.db);
    expect(later.graceMs).toBe(DEFAULT_SWEEP_GRACE_MS);
    expect(later.removed.map((o) => o.key)).toEqual([freshOrphan]);
    expect(later).toMatchObject({ checked: 2, referenced: 1, fresh: 0 });
  });

  it("keeps an old orphan stored again since (the same bytes, an ingest under way): a put makes it young", async () => {
    const storage = localPdfStorage(dataDir);
    const key = pdfKey(doc(5));
    await storage.put(key, pdf("again"));
    await age(key, 5 * HOUR);
    await storage.put(key, pdf("again"));
    const result = await sweepOrphanObjects(storage, handle.db, { graceMs: HOUR });
    expect(result.removed).toEqual([]);
    expect(await storage.head(key)).not.toBeNull();
    await storage.delete(key);
  });
});

describe("sweepOrphanObjects, S3", () => {
  it("removes what no row names once older than the grace period, and never a referenced object", async () => {
    const referenced = pdfKey(doc(11));
    const orphan = pdfKey(doc(12));
    await s3Storage.put(referenced, pdf("referenced"));
    await s3Storage.put(orphan, pdf("orphan"));
    await addPaper("s3-paper", referenced);

    const now = await sweepOrphanObjects(s3Storage, handle.db, { graceMs: HOUR });
    expect(now).toMatchObject({ location: `s3://${s3.bucket}/sweep`, checked: 2, referenced: 1, fresh: 1 });
    expect(now.removed).toEqual([]);

    const twoHoursLater = await sweepOrphanObjects(s3Storage, handle.db, {
      graceMs: HOUR,
      now: new Date(Date.now() + 2 * HOUR),
    });
    expect(twoHoursLater.removed.map((o) => o.key)).toEqual([orphan]);
    expect(twoHoursLater).toMatchObject({ checked: 2, referenced: 1, fresh: 0 });
    expect(await s3Storage.head(orphan)).toBeNull();
    expect(await s3Storage.head(referenced)).not.toBeNull();
  });
});

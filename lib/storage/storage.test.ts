import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLecternError, type LecternError } from "@/lib/errors";
import { startTestS3, type TestS3 } from "@/lib/testing/s3";
import { localPdfStorage } from "./local";
import { type S3PdfStorage, s3PdfStorage } from "./s3";
import type { PdfStorage } from "./types";

/**
 * The two stores against one contract: the local directory, and S3 (s3rver started here, on a free port of the
 * loopback, its objects in a temporary directory).
 */

let dataDir = "";
let s3: TestS3;
const opened: S3PdfStorage[] = [];

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "lectern-storage-"));
  s3 = await startTestS3();
});

afterAll(async () => {
  for (const s of opened) s.destroy();
  await s3?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function openS3(prefix: string): S3PdfStorage {
  const storage = s3PdfStorage(s3.settings(prefix));
  opened.push(storage);
  return storage;
}

const stores: [string, () => PdfStorage][] = [
  ["local directory", () => localPdfStorage(dataDir)],
  ["S3 (s3rver)", () => openS3("lab/pdf-store")],
];

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return Buffer.from(await new Response(stream).arrayBuffer()).toString("latin1");
}

async function listed(storage: PdfStorage, folder: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.list(folder)) keys.push(o.key);
  return keys.sort();
}

async function caught(promise: Promise<unknown>): Promise<LecternError> {
  const e = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  if (!isLecternError(e)) throw new Error(`expected a LecternError, got ${String(e)}`);
  return e;
}

const bytes = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));

describe.each(stores)("PdfStorage: %s", (_name, open) => {
  let storage: PdfStorage;
  beforeAll(() => {
    storage = open();
  });

  it("puts, heads, reads whole and by range", async () => {
    const body = `%PDF-1.4 ${"0123456789".repeat(30)} %%EOF`;
    const before = Date.now();
    await storage.put("pdfs/a.pdf", bytes(body));
    const head = await storage.head("pdfs/a.pdf");
    expect(head?.key).toBe("pdfs/a.pdf");
    expect(head?.size).toBe(body.length);
    // S3 keeps whole seconds; a file system may round too
    expect(head?.lastModified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(await text(await storage.read("pdfs/a.pdf"))).toBe(body);
    expect(await text(await storage.read("pdfs/a.pdf", { range: { start: 0, end: 7 } }))).toBe("%PDF-1.4");
    expect(await text(await storage.read("pdfs/a.pdf", { range: { start: 9, end: 18 } }))).toBe("0123456789");
    const last = body.length - 1;
    expect(await text(await storage.read("pdfs/a.pdf", { range: { start: last - 4, end: last } }))).toBe("%%EOF");
  });

  it("puts idempotently: the same bytes again leave one object with those bytes; new bytes replace them", async () => {
    await storage.put("pdfs/same.pdf", bytes("%PDF same"));
    await storage.put("pdfs/same.pdf", bytes("%PDF same"));
    expect((await listed(storage, "pdfs/")).filter((k) => k.startsWith("pdfs/same"))).toEqual(["pdfs/same.pdf"]);
    expect(await text(await storage.read("pdfs/same.pdf"))).toBe("%PDF same");
    await storage.put("pdfs/same.pdf", bytes("%PDF other bytes"));
    expect(await text(await storage.read("pdfs/same.pdf"))).toBe("%PDF other bytes");
    expect((await storage.head("pdfs/same.pdf"))?.size).toBe("%PDF other bytes".length);
  });

  it("lists a folder's objects with their last-modified times, and nothing outside it", async () => {
    await storage.put("pdfs/sub/b.pdf", bytes("%PDF b"));
    await storage.put("other/c.pdf", bytes("%PDF c"));
    const keys = await listed(storage, "pdfs/");
    expect(keys).toContain("pdfs/a.pdf");
    expect(keys).toContain("pdfs/sub/b.pdf");
    expect(keys.some((k) => k.startsWith("other/"))).toBe(false);
    expect(keys.some((k) => k.endsWith(".tmp"))).toBe(false); // no temporary file left by a put
    for await (const o of storage.list("pdfs/")) expect(o.lastModified).toBeInstanceOf(Date);
    expect(await listed(storage, "other/")).toEqual(["other/c.pdf"]);
    expect(await listed(storage, "empty/")).toEqual([]);
  });

  it("deletes; deleting what is not there is not an error", async () => {
    await storage.put("pdfs/gone.pdf", bytes("%PDF gone"));
    await storage.delete("pdfs/gone.pdf");
    expect(await storage.head("pdfs/gone.pdf")).toBeNull();
    expect(await listed(storage, "pdfs/")).not.toContain("pdfs/gone.pdf");
    await storage.delete("pdfs/gone.pdf");
  });

  it("a missing key: head is null, read is a clear not_found:file error", async () => {
    expect(await storage.head("pdfs/missing.pdf")).toBeNull();
    const e = await caught(storage.read("pdfs/missing.pdf"));
    expect(e.code).toBe("not_found:file");
    expect(e.message).toBe('No PDF is stored under "pdfs/missing.pdf".');
  });

  it("refuses keys that could name something outside the store", async () => {
    for (const key of ["../escape.pdf", "pdfs/../../escape.pdf", "/etc/passwd", "pdfs//a.pdf", "pdfs\\a.pdf", ""]) {
      for (const op of [
        () => storage.put(key, bytes("x")),
        () => storage.head(key),
        () => storage.read(key),
        () => storage.delete(key),
      ]) {
        expect((await caught(op())).code).toBe("bad_request:file");
      }
    }
    expect((await caught(listed(storage, ".."))).code).toBe("bad_request:file");
    expect((await caught(listed(storage, "pdfs"))).code).toBe("bad_request:file"); // a folder ends with `/`
  });
});

describe("local directory", () => {
  it("stores under <dataDir>/<key>, and a failed put leaves neither the object nor a temporary file", async () => {
    const storage = localPdfStorage(dataDir);
    await storage.put("pdfs/on-disk.pdf", bytes("%PDF disk"));
    expect(await fs.readFile(path.join(dataDir, "pdfs", "on-disk.pdf"), "latin1")).toBe("%PDF disk");
    // a directory where the file should go: the rename fails
    await fs.mkdir(path.join(dataDir, "pdfs", "blocked.pdf", "inside"), { recursive: true });
    await expect(storage.put("pdfs/blocked.pdf", bytes("%PDF blocked"))).rejects.toThrow();
    const names = await fs.readdir(path.join(dataDir, "pdfs"));
    expect(names.filter((n) => n.startsWith("blocked.pdf"))).toEqual(["blocked.pdf"]);
    expect(await storage.head("pdfs/blocked.pdf")).toBeNull(); // a directory is not an object
  });

  it("stops reading when the signal aborts", async () => {
    const storage = localPdfStorage(dataDir);
    await storage.put("pdfs/big.pdf", new Uint8Array(4 * 1024 * 1024));
    const controller = new AbortController();
    const stream = await storage.read("pdfs/big.pdf", { signal: controller.signal });
    const reader = stream.getReader();
    await reader.read();
    controller.abort();
    // the stream ends in an error or early, never with the whole file
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
      }
    } catch {
      // destroyed: what a client that went away gets
    }
    expect(total).toBeLessThan(4 * 1024 * 1024);
  });
});

describe("S3", () => {
  it("keeps each prefix's objects apart in one bucket", async () => {
    const a = openS3("lab-a");
    const b = openS3("lab-b");
    await a.put("pdfs/x.pdf", bytes("%PDF a"));
    expect(await b.head("pdfs/x.pdf")).toBeNull();
    expect(await listed(b, "pdfs/")).toEqual([]);
    expect(await listed(a, "pdfs/")).toEqual(["pdfs/x.pdf"]);
    expect(a.location).toBe(`s3://${s3.bucket}/lab-a`);
  });

  it("a bucket that does not exist is an unavailable:file error naming the store, not a missing object", async () => {
    const storage = s3PdfStorage({ ...s3.settings("p"), bucket: "no-such-bucket" });
    opened.push(storage);
    const e = await caught(storage.put("pdfs/x.pdf", bytes("%PDF")));
    expect(e.code).toBe("unavailable:file");
    expect(e.message).toContain("s3://no-such-bucket/p");
    expect((await caught(listed(storage, "pdfs/"))).code).toBe("unavailable:file");
  });
});

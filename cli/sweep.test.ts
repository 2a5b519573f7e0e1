import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { papers } from "@/db/schema";
import { type CliLibrary, cli, openCliLibrary } from "./testing";

/**
 * `npm run cli -- sweep` over a fresh library (a PGlite directory, or a new database on DATABASE_URL's server) with
 * the local store: an old orphan removed, the referenced PDF and a young orphan kept, in JSON and in text.
 */

const HOUR = 60 * 60 * 1000;
let lib: CliLibrary | undefined;
let dataDir = "";

const key = (n: number) => `pdfs/${n.toString(16).padStart(64, "0")}.pdf`;

async function storeFile(k: string, ageMs: number): Promise<void> {
  const file = path.join(dataDir, k);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `%PDF-1.4 ${k}`);
  const when = new Date(Date.now() - ageMs);
  await fs.utimes(file, when, when);
}

const exists = (k: string) =>
  fs.access(path.join(dataDir, k)).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  lib = await openCliLibrary("sweep");
  dataDir = lib.dataDir;
  // the commands and this setup share one open library (cli/testing.ts: holdLibrary)
  await lib.handle.db.insert(papers).values({
    id: "2401.00001",
    docId: "1".padStart(64, "0"),
    title: "A stored paper",
    filePath: key(1),
    fileName: "a.pdf",
    fileSize: 10,
    pageCount: 1,
    status: "ready",
  });
  await storeFile(key(1), 5 * HOUR); // referenced
  await storeFile(key(2), 3 * HOUR); // orphan, old
  await storeFile(key(3), 0); // orphan, young
}, 300_000);

afterAll(() => lib?.close());

describe("npm run cli -- sweep", () => {
  it("refuses a grace period that is not a whole number of minutes", async () => {
    for (const bad of ["soon", "-5", "1.5", "99999999"]) {
      const res = await cli("sweep", "--grace-minutes", bad, "--json");
      expect(res.code, bad).toBe(1);
      const { error } = JSON.parse(res.stdout) as { error: { code: string; message: string } };
      expect(error.code).toBe("bad_request:input");
      expect(error.message).toContain("--grace-minutes is a whole number from 0 to 10080");
    }
    expect(await exists(key(2))).toBe(true);
  });

  it("removes the orphan older than the grace period and reports it as JSON; keeps the rest", async () => {
    const res = await cli("sweep", "--grace-minutes", "120", "--json");
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      location: string;
      graceMinutes: number;
      checked: number;
      referenced: number;
      fresh: number;
      removed: { key: string; size: number; lastModified: string }[];
    };
    expect(out).toMatchObject({ location: dataDir, graceMinutes: 120, checked: 3, referenced: 1, fresh: 1 });
    expect(out.removed.map((o) => o.key)).toEqual([key(2)]);
    expect(out.removed[0]?.size).toBe(`%PDF-1.4 ${key(2)}`.length);
    expect(await exists(key(2))).toBe(false);
    expect(await exists(key(1))).toBe(true);
    expect(await exists(key(3))).toBe(true);
  });

  it("in text: a line per removed object on stdout, the summary on stderr; the default grace is an hour", async () => {
    await storeFile(key(4), 2 * HOUR);
    const res = await cli("sweep");
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^removed {2}${key(4)} {2}\\d+ B {2}\\d{4}-\\d\\d-\\d\\dT`));
    expect(res.stdout.trim().split("\n")).toHaveLength(1);
    expect(res.stderr).toContain(
      `${dataDir}: 3 stored PDFs, 1 named by a paper, 1 orphans removed, 1 orphans younger than 60 min kept.`,
    );
    expect(await exists(key(3))).toBe(true);
  });
});

import type { DbHandle } from "@/db";
import { briefError, LecternError } from "@/lib/errors";
import { backfillAuthors } from "./authors";
import { backfillSearchText } from "./search-text";
import { backfillSections } from "./sections";

/**
 * Brings a library stored by an older Lectern up to what this one reads off papers: the passages' search terms, the
 * chunks' sections, reference-list flags and sentence ends, the authors of papers stored without any. Each upgrade
 * keeps its version in the library and does nothing once it is current (a count or two). Run after the migrations,
 * before the library is used: passed as `prepare` to the database client (db/index.ts) by the server's start
 * (instrumentation.ts), the CLI (every command, `migrate` included) and the benchmarks. In this order: the sections
 * read the sentence ends in search terms, so the terms come first.
 *
 * The search terms are what search reads: their failure fails the opening (as a failed migration does, and the next
 * opening tries again). The rest the library works without (sections unshown, reference lists searched, no
 * best-sentence ranking, the latent model fitted again once the flags change; authors unknown), so a failure is logged
 * and tried again at the next start, and the library opens.
 */
export async function runLibraryUpgrades(handle: Pick<DbHandle, "db" | "driver">): Promise<void> {
  const { db } = handle;
  // PGlite lives in a WebAssembly heap of its own: its default memory settings stay.
  const maintenanceWorkMem = handle.driver === "postgres" ? "1GB" : undefined;
  try {
    const t0 = performance.now();
    const filled = await backfillSearchText(db, { maintenanceWorkMem });
    if (filled > 0) {
      const s = ((performance.now() - t0) / 1000).toFixed(1);
      console.error(`[db] indexed the search terms of ${filled} stored passages in ${s} s`);
    }
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    throw new LecternError("unavailable:database", `Database migration failed: ${msg}.`, { cause: e });
  }
  const t1 = performance.now();
  await backfillSections(db, {
    maintenanceWorkMem,
    onStart: (n) => console.error(`[db] reading the sections and sentences of ${n} stored passages (once)…`),
  }).then(
    (changed) => {
      const s = ((performance.now() - t1) / 1000).toFixed(1);
      if (changed > 0) console.error(`[db] updated the sections and sentences of ${changed} stored passages in ${s} s`);
    },
    (e: unknown) =>
      console.error(`[db] sections and sentences not read (tried again at the next start): ${briefError(e)}`),
  );
  await backfillAuthors(db).then(
    (found) => {
      if (found > 0) console.error(`[db] found the authors of ${found} stored papers`);
    },
    (e: unknown) => console.error(`[db] authors not read again (tried again at the next start): ${briefError(e)}`),
  );
}

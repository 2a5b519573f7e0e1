import type { EmbeddingProvider } from "@/lib/embeddings";

/**
 * Runs once when the Next.js server starts: opens the database, applies pending migrations and upgrades the library
 * (lib/library/upgrades), so a broken configuration shows up in the server log at start rather than on the first
 * request. With the embedded database this also takes the data directory's lock, so a CLI command on the same
 * directory is refused with a clear message.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  if (process.env.PORT && !process.env.LECTERN_PUBLIC_URL) {
    process.env.LECTERN_PUBLIC_URL = `http://${process.env.HOSTNAME || "127.0.0.1"}:${process.env.PORT}`;
  }
  const { getDbHandle } = await import("@/db");
  // the library's upgrades run after the migrations, before anything else uses the library (and again whenever the
  // client has to be opened anew, e.g. by a request after a start without the database)
  const { runLibraryUpgrades } = await import("@/lib/library/upgrades");
  try {
    const handle = await getDbHandle("app", { prepare: runLibraryUpgrades });
    console.log(`[lectern] database ready (${handle.driver}: ${handle.location})`);
    const { recoverInterruptedRuns } = await import("@/lib/research/recovery");
    const { getEnv } = await import("@/lib/env");
    const interrupted = await recoverInterruptedRuns(handle.db, {
      driver: handle.driver,
      runTimeoutMs: getEnv().LECTERN_RESEARCH_TIMEOUT_MS,
    });
    if (interrupted > 0)
      console.log(`[lectern] ${interrupted} research run(s) left by a stopped server marked interrupted`);
    if (handle.driver === "postgres") {
      // other instances share this database: the runs of one that dies are ended by the survivors' sweeps
      const { startLeaseSweeper } = await import("@/lib/research/recovery");
      const env = getEnv();
      startLeaseSweeper(
        handle.db,
        { runTimeoutMs: env.LECTERN_RESEARCH_TIMEOUT_MS, leaseMs: env.LECTERN_RUN_LEASE_MS },
        (n) => console.log(`[lectern] ${n} research run(s) whose process stopped (lease expired) marked interrupted`),
      );
    }
  } catch (e) {
    // Keep serving: pages show the error, and the next request tries again (e.g. once PostgreSQL is back).
    console.error(`[lectern] database not available at start: ${(e as Error).message}`);
    return;
  }
  let jobsElsewhere = false;
  {
    // the job queue's worker in this process (ingestion, the library step, the storage sweep), unless this instance
    // leaves its jobs to `npm run worker` processes (LECTERN_WORKER=off, PostgreSQL only)
    const { ensureInlineWorker } = await import("@/lib/jobs/inline");
    const handle = await getDbHandle("app");
    const worker = ensureInlineWorker(handle);
    if (worker) {
      try {
        await worker;
        console.log("[lectern] job worker running in this process");
      } catch {
        // reported by ensureInlineWorker; the next upload tries again
      }
    } else {
      // the workers bring the library's vectors up to date (their library step at start): nothing heavy here
      console.log("[lectern] jobs go to the worker processes (LECTERN_WORKER=off)");
      jobsElsewhere = true;
    }
  }
  const { getEnv } = await import("@/lib/env");
  const { getEmbeddingProvider } = await import("@/lib/embeddings");
  let embedder: EmbeddingProvider;
  try {
    embedder = getEmbeddingProvider(getEnv());
  } catch (e) {
    console.error(`[lectern] no embedder at start: ${(e as Error).message}`);
    return;
  }
  const { db } = await getDbHandle("app");
  if (embedder.kind === "latent" && !jobsElsewhere) {
    // a library made by another embedder is re-embedded, and passages left without a vector (an ingest interrupted
    // before its batch's vectors were written) get theirs
    try {
      const { refreshLatentVectors } = await import("@/lib/embeddings/latent-index");
      const { ensureEmbeddingSignature } = await import("@/lib/embeddings/guard");
      await ensureEmbeddingSignature(db, embedder);
      // (a refit that only a newer fitting rule asks for waits for the background step below: the server serves first)
      const r = await refreshLatentVectors(db, { dimensions: embedder.dimensions, deferRuleRefit: true });
      if (r.embedded > 0) {
        console.log(
          `[lectern] latent vectors brought up to date: ${r.embedded} (${r.fitted ? "model refitted" : "projected"}) in ${Math.round(r.ms)} ms`,
        );
      }
    } catch (e) {
      console.error(`[lectern] latent vectors not updated at start: ${(e as Error).message}`);
    }
  }
  // vectors without their hubness (a library from before it existed, or an ingest interrupted before its batch's
  // library step) get it, and a latent model fitted by an older rule is fitted again — in the background: searches
  // work meanwhile (a missing hubness counts the mean; the old model serves until the new one and its vectors are
  // written together), and at 100,000 passages either takes minutes
  // (as the library step: never at the same time as an ingest's or a deletion's)
  if (!jobsElsewhere)
    void import("@/lib/embeddings/library")
      .then(({ refreshLibraryVectors }) => refreshLibraryVectors(db, embedder.kind === "latent" ? embedder : null))
      .then((h) => {
        if (h.fitted) console.log(`[lectern] latent model fitted again in the background: ${h.embedded} vectors`);
        if (h.neighbours > 0) console.log(`[lectern] hubness of ${h.neighbours} passages computed in ${h.ms} ms`);
      })
      .catch((e) => console.error(`[lectern] hubness not computed at start: ${(e as Error).message}`));
  if (getEnv().LECTERN_WARMUP !== "1") return;
  try {
    // one offline question over the library before the first request, so the first user does not wait for cold
    // caches (Next.js serves requests once register() has returned)
    const { warmUpResearch } = await import("@/lib/research/warmup");
    const w = await warmUpResearch({ db, embedder });
    if (w.ran !== "nothing")
      console.log(`[lectern] research warmed up (${w.ran}, ${w.status ?? "done"}) in ${w.ms} ms`);
    else if (w.error) console.error(`[lectern] research warm-up skipped: ${w.error}`);
  } catch (e) {
    console.error(`[lectern] research warm-up skipped: ${(e as Error).message}`);
  }
}

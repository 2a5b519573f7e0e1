/**
 * Ingestion benchmark on the real corpus (../shared/corpus/papers): bare text extraction vs full ingestion
 * (extract → clean → chunk → summarise → save, then the offline latent model fitted and the vectors written) into a
 * fresh PGlite data dir, and into a fresh PostgreSQL
 * database when DATABASE_URL is set. Reports pages/s, chunks/s and peak RSS.
 *
 *   npm run bench:ingest [-- --corpus ../shared/corpus/papers] [--json]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/db";
import { createLatentEmbedder } from "@/lib/embeddings/latent-index";
import { extractPdf } from "@/lib/ingest/extract";
import { createExtractionPool } from "@/lib/ingest/extract-pool";
import { createIngestContext, ingestFiles } from "@/lib/ingest/pipeline";
import type { IngestInput } from "@/lib/ingest/progress";
import { runLibraryUpgrades } from "@/lib/library/upgrades";

const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: path.resolve("../shared/corpus/papers") },
    json: { type: "boolean", default: false },
  },
});
const corpus = values.corpus as string;
if (!fs.existsSync(corpus)) {
  console.error(`Corpus not found at ${corpus} (pass --corpus <folder of PDFs>).`);
  process.exit(1);
}
const files = fs
  .readdirSync(corpus)
  .filter((f) => f.toLowerCase().endsWith(".pdf"))
  .sort()
  .map((f) => path.join(corpus, f));

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const mb = (n: number) => Math.round(n / 1024 / 1024);

/** Text extraction alone, one file after another on one thread (what pdf-parse gives by itself). */
async function bareExtraction() {
  peakRss = 0;
  const t0 = performance.now();
  let pages = 0;
  for (const f of files) pages += (await extractPdf(new Uint8Array(fs.readFileSync(f)))).pageCount;
  const seconds = (performance.now() - t0) / 1000;
  return { pages, seconds, pagesPerSecond: pages / seconds, peakRssMb: mb(peakRss) };
}

/** Text extraction alone through the same worker pool ingestion uses (all cores). */
async function pooledExtraction() {
  const pool = createExtractionPool();
  peakRss = 0;
  const t0 = performance.now();
  const counts = await Promise.all(
    files.map(async (f) => (await pool.extract(new Uint8Array(fs.readFileSync(f)))).pageCount),
  );
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  const pages = counts.reduce((a, b) => a + b, 0);
  return { pages, seconds, pagesPerSecond: pages / seconds, peakRssMb: mb(peakRss), workers: pool.size };
}

async function ingestInto(label: string, url?: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-"));
  let dbUrl = url;
  let dropDb: (() => Promise<void>) | undefined;
  if (url) {
    const name = `lectern_bench_${Date.now()}`;
    const admin = await openDatabase({ url, migrate: false });
    await admin.db.execute(sql.raw(`create database ${name}`));
    await admin.close();
    const u = new URL(url);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    dropDb = async () => {
      const a = await openDatabase({ url, migrate: false });
      await a.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await a.close();
    };
  }
  const handle = await openDatabase({ url: dbUrl, dataDir, role: "bench", prepare: runLibraryUpgrades });
  const pool = createExtractionPool();
  const ctx = createIngestContext(handle, {
    dataDir,
    // the offline default: passages are stored without vectors, and the model is fitted and every vector written
    // once the batch is in (part of the measured time)
    embedder: createLatentEmbedder(),
    chatModel: null,
    extract: pool.extract,
    lookahead: pool.size,
  });
  const inputs: IngestInput[] = files.map((f) => ({
    name: path.basename(f),
    size: fs.statSync(f).size,
    read: async () => new Uint8Array(fs.readFileSync(f)),
  }));
  peakRss = 0;
  const t0 = performance.now();
  const results = await ingestFiles(inputs, ctx);
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  await handle.close();
  await dropDb?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const ok = results.filter((r) => r.status === "ingested");
  const pages = ok.reduce((s, r) => s + r.pages, 0);
  const chunks = ok.reduce((s, r) => s + r.chunks, 0);
  return {
    label,
    files: results.length,
    ingested: ok.length,
    errors: results.filter((r) => r.status === "error").map((r) => `${r.file}: ${r.error}`),
    pages,
    chunks,
    seconds,
    pagesPerSecond: pages / seconds,
    chunksPerSecond: chunks / seconds,
    peakRssMb: mb(peakRss),
  };
}

// Warm-up: the first PDF parse loads pdf.js; keep that out of both measurements alike.
await extractPdf(new Uint8Array(fs.readFileSync(files[0] as string)));
const bare = await bareExtraction();
const pooled = await pooledExtraction();
const runs = [await ingestInto("PGlite (embedded)")];
if (process.env.DATABASE_URL) runs.push(await ingestInto("PostgreSQL + pgvector", process.env.DATABASE_URL));
clearInterval(sampler);

const report = {
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version },
  corpus: { files: files.length },
  bareExtraction: bare,
  pooledExtraction: pooled,
  runs: runs.map((r) => ({
    ...r,
    ratioToBareExtraction: r.seconds / bare.seconds,
    ratioToPooledExtraction: r.seconds / pooled.seconds,
  })),
};
if (values.json) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`corpus: ${files.length} PDFs, ${bare.pages} pages · ${report.machine.cpus} × ${report.machine.cpu}`);
  console.log(
    `bare extraction: ${bare.seconds.toFixed(1)} s · ${bare.pagesPerSecond.toFixed(1)} pages/s · peak RSS ${bare.peakRssMb} MB`,
  );
  console.log(
    `pooled extraction (${pooled.workers} workers): ${pooled.seconds.toFixed(1)} s · ${pooled.pagesPerSecond.toFixed(1)} pages/s · peak RSS ${pooled.peakRssMb} MB`,
  );
  for (const r of report.runs) {
    console.log(
      `${r.label}: ${r.ingested}/${r.files} ingested · ${r.pages} pages · ${r.chunks} chunks · ${r.seconds.toFixed(1)} s · ` +
        `${r.pagesPerSecond.toFixed(1)} pages/s · ${r.chunksPerSecond.toFixed(1)} chunks/s · peak RSS ${r.peakRssMb} MB · ` +
        `${r.ratioToBareExtraction.toFixed(2)}× bare extraction · ${r.ratioToPooledExtraction.toFixed(2)}× pooled extraction`,
    );
    for (const e of r.errors) console.log(`  error: ${e}`);
  }
}

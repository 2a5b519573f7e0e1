import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type DbHandle, openDatabase } from "@/db";
import { getEnv } from "@/lib/env";
import { isLecternError } from "@/lib/errors";
import { runLibraryUpgrades } from "@/lib/library/upgrades";
import { runAudit } from "./commands/audit";
import { runEdit } from "./commands/edit";
import { runEval } from "./commands/eval";
import { runExport } from "./commands/export";
import { runGraph } from "./commands/graph";
import { runIngest } from "./commands/ingest";
import { runOutline } from "./commands/outline";
import { runReembed } from "./commands/reembed";
import { runResearchCommand } from "./commands/research";
import { runSearch } from "./commands/search";
import { runAdd, runArxiv, runImport } from "./commands/sources";
import { runStats } from "./commands/stats";
import { runSweep } from "./commands/sweep";
import { runUser } from "./commands/user";
import { runWorker } from "./commands/worker";
import { type CliIo, info, printJson, withOutput } from "./output";

const HELP = `Lectern CLI — the same library as the web app.

usage: npm run cli -- <command> [options]

commands:
  ingest <files or folders...>   add PDFs (folders are searched recursively for *.pdf): queued as jobs and worked by
                                 this command (--enqueue-only: left to \`npm run worker\` processes)
  worker                         work the job queue until Ctrl-C (downloads, ingestion, the library step and refresh,
                                 re-embedding, the storage sweep)
                                 [--concurrency N]; also \`npm run worker\`
  add <arXiv ids or URLs...>     download papers from arXiv and ingest them with arXiv's metadata [--replace] (an older
                                 version in the library is replaced; without it, reported as "newer version available");
                                 downloads and ingestion are jobs worked by this command (--enqueue-only: by workers)
  arxiv search "<words>"         search arXiv [--author "Name"] [--category cs.CL] [--max 20]; marks what the library has
  import <file.bib|.json|folder> a Zotero/BibTeX/CSL JSON export: PDFs of its entries (file fields, files/ folder) with
                                 the export's metadata; [--download-arxiv] fetches entries that only have an arXiv id;
                                 [--enqueue-only] as for add
  stats                          papers, pages, chunks, index sizes
  edit <paper_id>                correct a paper's metadata [--title] [--authors "A; B"] [--year] [--date] [--categories]
                                 [--doi] [--arxiv] ("none" clears a field); the id stays, a new title is searchable
  search "<query>"               hybrid search [--index content|summary] [--top-k N] [--papers id,id] [--years 2019-2024]
                                 [--include-references] (the papers' reference lists, left out by default)
  eval <questions.json>          retrieval metrics [--retriever fts|vector|hybrid|hybrid-mmr|all]
  research "<question>"          a cited answer, its steps printed as they run; saved, and with --as <email> that
                                 account's run, to open in the app at /research/<run id>
  outline "<question>"           a deep-research outline of knowledge points (edit it, then research --outline file.json)
  research --outline file.json   a sectioned review over an (edited) outline
  export <run_id>                a saved run as --format md (answer + references) or bibtex (cited papers)
  graph build [--papers id,id]   the knowledge graph of the library's claims (offline rules; --model: the LLM)
  graph query --relation R --target "X" [--transitive] | --source "X"
                                 edges with their quotes, best first (improves_on, extends, uses, evaluates_on,
                                 introduces, compares_to)
  graph entity "<name>" | stats  an entity's aliases and relations; counts per type and status
  reembed                        re-embed the whole library with the configured embedder: a job worked by this command
                                 (--enqueue-only: left to \`npm run worker\` processes)
  sweep                          remove stored PDFs no paper names (a failed or killed ingest's), once older than
                                 --grace-minutes N (60); from the data directory or LECTERN_STORAGE_URL's store
  migrate                        apply database migrations (also done automatically)
  user add <email>               an account: --name "…" --role owner|member|viewer, and --password P or --invite (a
                                 one-time link); no password given: one is generated and printed once
  user list | role <email> <role> | remove <email> | reset-password <email> [--password P] | revoke-invite <email>
                                 people and open invites, as the People page manages them (the operator acts as
                                 "command line")
  audit                          the audit trail, newest first [--limit N]

options:
  --json      print exactly one JSON document on stdout (progress goes to stderr)
  -h, --help  this help

Uses DATABASE_URL when set, else the embedded database in LECTERN_DATA_DIR (default ./.data).`;

/**
 * Runs one command as `npm run cli -- …argv` does and returns its exit code. With `io`, what it writes to stdout and
 * stderr goes there (withOutput): tests run the CLI in their own process this way. With `library`, the command uses
 * that open database (after the same library upgrades) and leaves it open, instead of opening and closing the one the
 * environment names: tests running many commands in one process (cli/testing.ts). An unexpected error is printed to
 * stderr as the process prints it, with exit code 1.
 */
export async function run(argv: string[], io?: CliIo, library?: DbHandle): Promise<number> {
  const command = () =>
    runCommand(argv, library).catch((e: unknown) => {
      console.error(e);
      return 1;
    });
  return io ? withOutput(io, command) : command();
}

async function runCommand(argv: string[], library: DbHandle | undefined): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { json: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } },
  });
  const [command] = positionals;
  const json = values.json === true;
  if (!command || values.help) {
    process.stdout.write(`${HELP}\n`);
    return command ? 0 : values.help ? 0 : 2;
  }
  const known = [
    "ingest",
    "edit",
    "stats",
    "reembed",
    "migrate",
    "search",
    "eval",
    "research",
    "outline",
    "export",
    "user",
    "audit",
    "sweep",
    "graph",
    "add",
    "arxiv",
    "import",
    "worker",
  ];
  if (!known.includes(command)) {
    info(`Unknown command "${command}".\n\n${HELP}`);
    return 2;
  }
  const env = getEnv();
  let handle: DbHandle | undefined;
  try {
    // every command (migrate too) upgrades the library after the migrations, as the server's start does
    if (library) await runLibraryUpgrades(library);
    handle =
      library ??
      (await openDatabase({
        url: env.DATABASE_URL,
        dataDir: env.dataDir,
        role: `cli ${command}`,
        prepare: runLibraryUpgrades,
      }));
    switch (command) {
      case "ingest":
        return await runIngest(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "stats":
        return await runStats(handle, json);
      case "edit":
        return await runEdit(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "search":
        return await runSearch(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "eval":
        return await runEval(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "research":
        return await runResearchCommand(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "outline":
        return await runOutline(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "export":
        return await runExport(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "reembed":
        return await runReembed(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "user":
        return await runUser(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "audit":
        return await runAudit(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "sweep":
        return await runSweep(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "graph":
        return await runGraph(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "add":
        return await runAdd(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "arxiv":
        return await runArxiv(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "import":
        return await runImport(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "worker":
        return await runWorker(handle, argv.slice(argv.indexOf(command) + 1), json);
      case "migrate":
        if (json) printJson({ ok: true, database: handle.location });
        else info(`Migrations applied (${handle.driver}: ${handle.location}).`);
        return 0;
    }
    return 2;
  } catch (e) {
    if (isLecternError(e)) {
      if (json) printJson({ error: { code: e.code, message: e.message } });
      info(`Error: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    if (handle !== library) await handle?.close();
  }
}

// Started as a program (`tsx cli/index.ts`), not imported (the tests): run the command and exit with its code.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  run(process.argv.slice(2)).then((code) => process.exit(code));
}

import { Worker } from "node:worker_threads";
import { briefError, LecternError } from "@/lib/errors";
import { threadScript } from "@/lib/thread-script";
import { BIBTEX_READER_ROLE, type BibtexLimits, type RawBibtex } from "./bibtex-read.mjs";

/**
 * A .bib file is parsed in a thread of its own (lib/sources/bibtex-read.mjs), stopped after a time limit: the parser
 * is synchronous, and its time grows with what an entry holds (2,000 ordinary entries: 2.7 s; one title of 332 KB of
 * `$x^{2}$ \emph{a}`: 14.7 s), so on the server's thread an uploaded file would hold every other request. A file the
 * thread has not read within the limit is refused as such; each entry longer than `maxEntryChars` is reported on its
 * own (splitBibtex) and the rest are read.
 */
export const BIBTEX_TIME_LIMIT_MS = 20_000;
/** An entry's longest source text read (a Zotero entry with its abstract and notes is a few KB). */
export const MAX_BIBTEX_ENTRY_CHARS = 64 * 1024;
/**
 * The thread's heap. `@string` macros concatenate (`b = a # a # a # a`), so a file of a few hundred bytes expands to
 * hundreds of MB in the parser (2.6 GB of memory measured); a 20 MB export of ordinary entries needs far less.
 */
export const BIBTEX_HEAP_MB = 1024;

export interface ReadBibtexOptions extends Partial<BibtexLimits> {
  timeoutMs?: number;
  /** Stops the thread (the request went away). */
  signal?: AbortSignal;
}

const SCRIPT = "bibtex-read.mjs";

/** Where the thread's script is (lib/thread-script.ts). */
export function bibtexReaderScript(): string | null {
  return threadScript(import.meta.url, "lib/sources", SCRIPT);
}

type Reply = { ok: RawBibtex } | { error: { name: string; message: string } };

/**
 * Reads a .bib file's text in a new thread, which ends when it answers, fails or passes `timeoutMs`. Its errors are
 * LecternErrors: `bad_request:source` for a file that cannot be read (a parser error, too slow, too much memory),
 * `internal:source` when the thread itself fails.
 */
export function readBibtexInThread(text: string, opts: ReadBibtexOptions = {}): Promise<RawBibtex> {
  const timeoutMs = opts.timeoutMs ?? BIBTEX_TIME_LIMIT_MS;
  const limits: BibtexLimits = {
    maxEntryChars: opts.maxEntryChars ?? MAX_BIBTEX_ENTRY_CHARS,
    maxEntries: opts.maxEntries ?? Number.MAX_SAFE_INTEGER,
  };
  const signal = opts.signal;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const script = bibtexReaderScript();
  if (!script) {
    return Promise.reject(new LecternError("internal:source", `The BibTeX reader is missing (lib/sources/${SCRIPT}).`));
  }
  return new Promise<RawBibtex>((resolve, reject) => {
    // constructed out of the bundler's sight: Turbopack takes `new Worker(<computed path>)` for a worker entry matching
    // every file of the project (and fails the build); the script is run from disk as it is (bibtexReaderScript)
    const worker: Worker = Reflect.construct(Worker, [
      script,
      {
        workerData: { role: BIBTEX_READER_ROLE, text, limits },
        resourceLimits: { maxOldGenerationSizeMb: BIBTEX_HEAP_MB },
      },
    ]);
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      // the parser cannot be interrupted from inside; terminating the thread stops it mid-entry
      void worker.terminate().catch(() => {});
      settle();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new LecternError(
              "bad_request:source",
              `This BibTeX file took too long to read (more than ${formatSeconds(timeoutMs)}). ` +
                "Split it into smaller files, or look for an entry with very long fields.",
            ),
          ),
        ),
      timeoutMs,
    );
    const onAbort = () => finish(() => reject(signal?.reason));
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (msg: Reply) =>
      finish(() => {
        if ("ok" in msg) resolve(msg.ok);
        else
          reject(
            new LecternError("bad_request:source", `The BibTeX file could not be read: ${msg.error.message}`, {
              cause: Object.assign(new Error(msg.error.message), { name: msg.error.name }),
            }),
          );
      }),
    );
    worker.on("error", (err: Error & { code?: string }) =>
      finish(() =>
        reject(
          err.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new LecternError(
                "bad_request:source",
                "This BibTeX file needs too much memory to read (its @string definitions may expand without end).",
                { cause: err },
              )
            : new LecternError("internal:source", `The BibTeX reader failed: ${briefError(err)}`, { cause: err }),
        ),
      ),
    );
    worker.on("exit", (code) =>
      finish(() =>
        reject(new LecternError("internal:source", `The BibTeX reader stopped without an answer (exit code ${code}).`)),
      ),
    );
  });
}

const formatSeconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

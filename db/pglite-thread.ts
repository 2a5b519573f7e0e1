/**
 * The embedded database in a worker thread (db/pglite-host.mjs), behind the part of PGlite's interface the app uses:
 * `query`, `exec`, `transaction`, `listen`, `close`. PGlite runs each statement synchronously in its own thread, so in
 * the web server's thread a refit's index rebuild held every request for seconds; here the server's thread only sends
 * messages and receives rows. drizzle-orm's PGlite driver and pg-boss's PGlite adapter take this object as they take
 * a PGlite instance. Errors keep PostgreSQL's fields (code, detail, constraint…). A thread that dies fails every call
 * waiting on it with `unavailable:database`; the next call starts a new thread on the same directory (PostgreSQL's own
 * recovery brings the database back to its last commit), at most once per `REVIVE_INTERVAL_MS`. A transaction begun
 * on the dead thread stays ended: its statements are refused, never run on the new thread.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { LecternError } from "@/lib/errors";

const SCRIPT = "pglite-host.mjs";

/** Where the host script is: beside this module, or under the project's db/ (a bundle has no file URL). */
export function pgliteHostScript(): string | null {
  const candidates: string[] = [];
  try {
    candidates.push(path.join(/* turbopackIgnore: true */ path.dirname(fileURLToPath(import.meta.url)), SCRIPT));
  } catch {
    // not a file URL (a bundle): the project directory below
  }
  candidates.push(path.join(/* turbopackIgnore: true */ process.cwd(), "db", SCRIPT));
  return candidates.find((c) => fs.existsSync(/* turbopackIgnore: true */ c)) ?? null;
}

export interface ThreadResults<T = Record<string, unknown>> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

interface QueryOptions {
  rowMode?: "object" | "array";
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

type Reply = { id: number; ok: unknown } | { id: number; error: Record<string, string> };
type Message = Reply | { notify: string; payload: string } | { ready: boolean; error?: Record<string, string> };

/** One side of a transaction: statements sent with its id. */
export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<ThreadResults<T>>;
  exec(sql: string): Promise<ThreadResults[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** The least time between two attempts to start a new thread after one died. */
const REVIVE_INTERVAL_MS = 2_000;

/** A symbol for tests to reach the thread (to end it as a crash would). */
export const THREAD_FOR_TESTS = Symbol("lectern.pgliteThread.worker");

function ended(): LecternError {
  return new LecternError("unavailable:database", "The embedded database restarted: this transaction ended with it.");
}

function closedError(): LecternError {
  return new LecternError("unavailable:database", "The embedded database is closed.");
}

/**
 * A query parameter as PGlite in the calling thread would have read it, in a form structured clone copies: class
 * instances (a URL) and objects with `toJSON` lose both on the way, so they go as the text or JSON they stand for.
 */
function cloneable(v: unknown): unknown {
  if (v === null || typeof v !== "object") return typeof v === "symbol" || typeof v === "function" ? String(v) : v;
  if (v instanceof Date || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") return JSON.parse(JSON.stringify(v));
  if (Array.isArray(v)) return v.map(cloneable);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return String(v);
  return JSON.parse(JSON.stringify(v));
}

function errorFrom(e: Record<string, string>): Error {
  const err = new Error(e.message);
  const { message: _m, ...fields } = e;
  return Object.assign(err, fields);
}

/** Checked once per parsers object (drizzle passes the same two on every query). */
const rawTypesOf = new WeakMap<object, number[]>();

/** The type ids whose values a caller keeps as text: only the identity parser can cross to the thread. */
function rawTypes(parsers: QueryOptions["parsers"]): number[] | undefined {
  if (!parsers) return undefined;
  const known = rawTypesOf.get(parsers);
  if (known) return known;
  const ids = Object.keys(parsers).map(Number);
  for (const id of ids) {
    const parse = parsers[id] as (value: string, typeId: number) => unknown;
    if (parse("2024-01-01 00:00:00", id) !== "2024-01-01 00:00:00") {
      throw new Error(`PGliteThread: a parser for type ${id} that is not the identity cannot run in the thread`);
    }
  }
  rawTypesOf.set(parsers, ids);
  return ids;
}

export class PGliteThread {
  #worker: Worker;
  readonly #script: string;
  readonly #dataDir: string | null;
  /** Counts the threads started: a transaction belongs to the one it began on. */
  #generation = 0;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  /** Each channel's LISTEN, awaited by every listen() of it (a second caller must not return before it took effect). */
  readonly #listening = new Map<string, Promise<unknown>>();
  #nextId = 1;
  #dead: Error | null = null;
  /** The new thread being started after one died, and when the last attempt began. */
  #reviving: Promise<void> | null = null;
  #lastRevive = 0;
  #closing: Promise<void> | null = null;
  readonly waitReady: Promise<void>;

  private constructor(script: string, dataDir: string | null) {
    this.#script = script;
    this.#dataDir = dataDir;
    const { worker, ready } = this.#spawn();
    this.#worker = worker;
    this.waitReady = ready;
  }

  /** Starts a thread on the directory; its events count only while it is the current one. */
  #spawn(): { worker: Worker; ready: Promise<void> } {
    // constructed out of the bundler's sight, as the PDF reader's threads are (lib/ingest/extract-pool.ts)
    const worker: Worker = Reflect.construct(Worker, [this.#script, { workerData: { dataDir: this.#dataDir } }]);
    this.#generation++;
    const ready = new Promise<void>((resolve, reject) => {
      const onFirst = (msg: Message) => {
        if (!("ready" in msg)) return;
        worker.off("message", onFirst);
        if (msg.ready) resolve();
        else reject(errorFrom(msg.error ?? { message: "the embedded database did not start" }));
      };
      worker.on("message", onFirst);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`its thread exited (code ${code}) while starting`)));
    });
    ready.catch(() => {});
    worker.on("message", (msg: Message) => {
      if (worker === this.#worker) this.#receive(msg);
    });
    worker.on("error", (err) => {
      if (worker === this.#worker) this.#fail(err);
    });
    worker.on("exit", (code) => {
      if (worker === this.#worker) this.#fail(new Error(`its thread exited (code ${code})`));
    });
    return { worker, ready };
  }

  /** Starts the thread and waits until its database is open. */
  static async open(dataDir: string | null): Promise<PGliteThread> {
    const script = pgliteHostScript();
    if (!script) throw new Error(`the embedded database's thread script (db/${SCRIPT}) is missing`);
    const thread = new PGliteThread(script, dataDir);
    try {
      await thread.waitReady;
      thread.#worker.unref();
    } catch (e) {
      await thread.#worker.terminate().catch(() => {});
      throw e;
    }
    return thread;
  }

  /**
   * After the thread died: a new one on the same directory, its channels listened to again. One attempt at a time,
   * and none within REVIVE_INTERVAL_MS of the last (a database that cannot open is not retried on every call).
   */
  #revive(): Promise<void> {
    if (this.#reviving) return this.#reviving;
    const wait = REVIVE_INTERVAL_MS - (Date.now() - this.#lastRevive);
    if (wait > 0) {
      const again = Math.ceil(wait / 1000);
      return Promise.reject(
        new LecternError(
          "unavailable:database",
          `${this.#dead?.message ?? "The embedded database stopped."} (trying again in ${again} s)`,
          {
            cause: this.#dead,
          },
        ),
      );
    }
    this.#lastRevive = Date.now();
    const previous = this.#worker;
    this.#reviving = (async () => {
      // the old thread is gone before a new one opens the directory (an 'error' event comes before its 'exit')
      await previous.terminate().catch(() => {});
      // a directory that no longer holds the database is not opened: PGlite would make a new, empty one there
      if (
        this.#dataDir !== null &&
        !fs.existsSync(/* turbopackIgnore: true */ path.join(this.#dataDir, "PG_VERSION"))
      ) {
        this.#dead = new LecternError(
          "unavailable:database",
          `The embedded database stopped, and its directory no longer holds it (${this.#dataDir}): restart Lectern.`,
        );
        throw this.#dead;
      }
      if (this.#closing) throw closedError();
      const { worker, ready } = this.#spawn();
      this.#worker = worker;
      try {
        await ready;
      } catch (e) {
        await worker.terminate().catch(() => {});
        if (this.#closing) throw closedError();
        const reason = e instanceof Error ? e.message : String(e);
        this.#dead = new LecternError(
          "unavailable:database",
          `The embedded database stopped and did not restart: ${reason}`,
          {
            cause: e,
          },
        );
        throw this.#dead;
      }
      worker.unref();
      this.#dead = null;
      for (const channel of this.#listeners.keys()) {
        this.#listening.set(channel, this.#call("listen", { channel }));
      }
      await Promise.all(this.#listening.values());
    })().finally(() => {
      this.#reviving = null;
    });
    return this.#reviving;
  }

  get [THREAD_FOR_TESTS](): Worker {
    return this.#worker;
  }

  #receive(msg: Message): void {
    if ("notify" in msg) {
      for (const cb of this.#listeners.get(msg.notify) ?? []) cb(msg.payload);
      return;
    }
    if (!("id" in msg)) return;
    const call = this.#pending.get(msg.id);
    if (!call) return;
    this.#pending.delete(msg.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if ("error" in msg) call.reject(errorFrom(msg.error));
    else call.resolve(msg.ok);
  }

  #fail(err: Error): void {
    this.#dead ??= new LecternError("unavailable:database", `The embedded database stopped: ${err.message}`, {
      cause: err,
    });
    this.#rejectAll(this.#dead);
  }

  /** Every call still waiting is answered with `err` (the thread will not answer it any more). */
  #rejectAll(err: Error): void {
    for (const call of this.#pending.values()) call.reject(err);
    this.#pending.clear();
    this.#worker.unref();
  }

  #call<T>(op: string, args: Record<string, unknown> = {}): Promise<T> {
    if (this.#closing && op !== "close") return Promise.reject(closedError());
    if (this.#dead) {
      // a statement of a transaction that died with the thread fails with it; any other call starts a new thread
      if (this.#closing || args.tx !== undefined) return Promise.reject(this.#dead);
      return this.#revive().then(() => this.#call<T>(op, args));
    }
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      try {
        // (a value structured clone cannot copy throws here: nothing is left waiting for it)
        this.#worker.postMessage({ id, op, ...args });
      } catch (e) {
        reject(e);
        return;
      }
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      // the thread keeps the process alive only while a call waits on it (an idle CLI exits as with PGlite in-thread)
      if (this.#pending.size === 1) this.#worker.ref();
    });
  }

  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<ThreadResults<T>> {
    return this.#query(sql, params, options);
  }

  #query<T>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<ThreadResults<T>> {
    return this.#call("query", {
      sql,
      params: (params ?? []).map(cloneable),
      rowMode: options?.rowMode ?? "object",
      rawTypes: rawTypes(options?.parsers),
      tx,
    });
  }

  /** PGlite's `exec` (its options are not supported: none of the callers passes any). */
  exec(sql: string): Promise<ThreadResults[]> {
    return this.#exec(sql);
  }

  #exec(sql: string, tx?: number): Promise<ThreadResults[]> {
    return this.#call("exec", { sql, tx });
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws (its error rethrown). */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = await this.#call<number>("begin");
    const generation = this.#generation;
    // a transaction of a thread that died ended with it: its statements must not run in the new thread's
    const alive = () => {
      if (generation !== this.#generation) throw this.#dead ?? ended();
    };
    let closed = false;
    const tx: ThreadTransaction = {
      query: async (sql, params, options) => {
        alive();
        return this.#query(sql, params, options, id);
      },
      exec: async (sql) => {
        alive();
        return this.#exec(sql, id);
      },
      rollback: async () => {
        // drizzle rolls back by throwing from the callback; a PGlite-style rollback() is not offered
        throw new Error("PGliteThread: roll a transaction back by throwing from its callback");
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (e) {
      closed = true;
      if (generation === this.#generation) await this.#call("end", { tx: id, commit: false }).catch(() => {});
      throw e;
    }
    closed = true;
    alive();
    await this.#call("end", { tx: id, commit: true });
    return result;
  }

  /** Calls `onPayload` for each notification on `channel`; resolves to the function that stops it. */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    // a channel already listened to on a thread that died is listened to again by the new one, which this waits for
    if (this.#dead && !this.#closing) await this.#revive();
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
      this.#listening.set(channel, this.#call("listen", { channel }));
    }
    set.add(onPayload);
    try {
      await this.#listening.get(channel);
    } catch (e) {
      set.delete(onPayload);
      if (set.size === 0) {
        this.#listeners.delete(channel);
        this.#listening.delete(channel);
      }
      throw e;
    }
    return async () => {
      const s = this.#listeners.get(channel);
      s?.delete(onPayload);
      if (s && s.size === 0) {
        this.#listeners.delete(channel);
        this.#listening.delete(channel);
        await this.#call("unlisten", { channel }).catch(() => {});
      }
    };
  }

  /**
   * Closes the database and ends the thread. Calls made meanwhile or after are refused; calls still waiting when the
   * thread ends are answered with an error (none is left unsettled); a second close() waits for the first. A database
   * that does not close within `timeoutMs` (a transaction whose caller never ends it) has its thread stopped.
   */
  close(timeoutMs = 10_000): Promise<void> {
    this.#closing ??= (async () => {
      if (!this.#dead) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          this.#call("close").catch(() => {}),
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, timeoutMs);
            timer.unref();
          }),
        ]);
        clearTimeout(timer);
      }
      this.#dead ??= closedError();
      this.#rejectAll(this.#dead);
      await this.#worker.terminate().catch(() => {});
    })();
    return this.#closing;
  }
}

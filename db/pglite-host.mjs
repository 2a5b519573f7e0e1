// The embedded database in a thread of its own: PGlite (WebAssembly PostgreSQL) runs every statement synchronously in
// the thread that owns it, so in the app's thread a refit's index rebuild (seconds) or the saving of a paper held the
// web server's event loop. db/pglite-thread.ts starts this script with worker_threads and speaks to it in messages:
//   { id, op: "query", sql, params, rowMode, rawTypes, tx }   → { id, ok: { rows, fields, affectedRows } }
//   { id, op: "exec", sql, tx }                                 → { id, ok: [results] }
//   { id, op: "begin" }                                         → { id, ok: txId } once inside the transaction
//   { id, op: "end", tx, commit }                               → { id, ok: null } once it committed or rolled back
//   { id, op: "listen" | "unlisten", channel }                  → { id, ok: null }; then { notify: channel, payload }
//   { id, op: "close" }                                         → { id, ok: null }
// Errors come back as { id, error: { message, name, code, detail, … } } (structured clone keeps only an Error's message).
// Plain JavaScript, run from disk as it is (like lib/ingest/pdf-read.mjs): the app's bundle is not loaded here.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";

const port = parentPort;
if (!port) throw new Error("pglite-host.mjs runs as a worker thread");

const identity = (value) => value;
/** The types drizzle keeps as PostgreSQL's text (timestamps, dates, intervals and their arrays). */
const parsersFor = (types) => (types?.length ? Object.fromEntries(types.map((t) => [t, identity])) : undefined);

const ERROR_FIELDS = [
  "name",
  "code",
  "internalQuery",
  "internalPosition",
  "severity",
  "detail",
  "hint",
  "position",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "routine",
];
function errorOf(e) {
  // Emscripten's file errors are plain objects ({ name: "ErrnoError", errno: 54 }), not Errors
  const plain = e && typeof e === "object" && !(e instanceof Error);
  const message =
    e instanceof Error
      ? e.message
      : plain
        ? (e.message ?? `${e.name ?? "error"}${e.errno !== undefined ? ` (errno ${e.errno})` : ""}`)
        : String(e);
  const out = { message };
  if (e && typeof e === "object") for (const k of ERROR_FIELDS) if (e[k] !== undefined) out[k] = String(e[k]);
  return out;
}

let db;
try {
  db = new PGlite({ dataDir: workerData.dataDir ?? undefined, extensions: { vector } });
  await db.waitReady;
  port.postMessage({ ready: true });
} catch (e) {
  port.postMessage({ ready: false, error: errorOf(e) });
  process.exit(1);
}

/** The rollback the caller asked for (its own error stays on its side). */
const ROLLBACK = new Error("rolled back");
/** Open transactions: the PGlite transaction object, how to end it, and its outcome. */
const transactions = new Map();
const listeners = new Map();
let nextTx = 1;

function target(tx) {
  if (tx === undefined || tx === null) return db;
  const t = transactions.get(tx);
  if (!t) throw new Error(`transaction ${tx} is not open`);
  return t.tx;
}

const ops = {
  async query({ sql, params, rowMode, rawTypes, tx }) {
    const r = await target(tx).query(sql, params ?? [], {
      rowMode: rowMode ?? "object",
      parsers: parsersFor(rawTypes),
    });
    return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
  },
  async exec({ sql, tx }) {
    const results = await target(tx).exec(sql);
    return results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
  },
  begin() {
    const id = nextTx++;
    return new Promise((resolveBegin, rejectBegin) => {
      let entered = false;
      const t = { tx: null, commit: null, rollback: null, done: null };
      t.done = db.transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            entered = true;
            Object.assign(t, { tx, commit, rollback });
            transactions.set(id, t);
            resolveBegin(id);
          }),
      );
      t.done.then(
        () => transactions.delete(id),
        (e) => {
          transactions.delete(id);
          if (!entered) rejectBegin(e);
        },
      );
    });
  },
  async end({ tx, commit }) {
    const t = transactions.get(tx);
    if (!t) throw new Error(`transaction ${tx} is not open`);
    // PGlite commits when the callback resolves, and rolls back (rethrowing) when it rejects
    if (commit) t.commit();
    else t.rollback(ROLLBACK);
    try {
      await t.done;
    } catch (e) {
      if (e !== ROLLBACK) throw e;
    }
    return null;
  },
  async listen({ channel }) {
    if (listeners.has(channel)) return null;
    const stop = await db.listen(channel, (payload) => port.postMessage({ notify: channel, payload }));
    listeners.set(channel, stop);
    return null;
  },
  async unlisten({ channel }) {
    const stop = listeners.get(channel);
    listeners.delete(channel);
    if (stop) await stop();
    return null;
  },
  async close() {
    await db.close();
    return null;
  },
};

port.on("message", async (msg) => {
  const op = ops[msg.op];
  try {
    if (!op) throw new Error(`unknown operation ${msg.op}`);
    const ok = await op(msg);
    port.postMessage({ id: msg.id, ok });
    if (msg.op === "close") process.exit(0);
  } catch (e) {
    port.postMessage({ id: msg.id, error: errorOf(e) });
  }
});

import fs from "node:fs";
import path from "node:path";
import { LecternError } from "@/lib/errors";

/**
 * PGlite lets one process open a data directory at a time; two would corrupt it. We keep a lock file holding the
 * owner's pid; a lock whose process is gone is stale and taken over.
 */
export interface LockInfo {
  pid: number;
  role: string;
  startedAt: string;
  /** Where the owner serves HTTP, when it is the app. */
  url?: string;
}

const LOCK_NAME = "lectern.lock";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readLock(dataDir: string): LockInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_NAME), "utf8")) as LockInfo;
    return typeof info.pid === "number" ? info : null;
  } catch {
    return null;
  }
}

export function acquireDataDirLock(dataDir: string, role: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_NAME);
  const info: LockInfo = {
    pid: process.pid,
    role,
    startedAt: new Date().toISOString(),
    url: process.env.LECTERN_PUBLIC_URL,
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const current = readLock(dataDir);
        if (current?.pid === process.pid) fs.rmSync(file, { force: true });
      };
      process.once("exit", release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = readLock(dataDir);
      if (owner && owner.pid === process.pid) return () => {};
      if (owner && isAlive(owner.pid)) {
        const where = owner.url ? ` at ${owner.url}` : "";
        throw new LecternError(
          "conflict:database",
          `The embedded database in ${dataDir} is in use by another Lectern process (${owner.role}, pid ${owner.pid}${where}). ` +
            "Only one process can open it at a time. Stop that process first, use the web app for this task, " +
            "or set DATABASE_URL to a PostgreSQL server, which allows many clients.",
        );
      }
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new LecternError("conflict:database", `Could not lock the data directory ${dataDir}.`);
}

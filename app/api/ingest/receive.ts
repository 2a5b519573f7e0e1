import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";

/**
 * An upload's files, streamed to temporary files as they arrive (busboy parses the multipart body): memory holds a
 * chunk or two per file whatever the request's size or claimed length, and a file is refused — the reading stopped,
 * what was written deleted — the moment it passes the limit, not after the whole body has been read.
 */

export interface ReceivedFile {
  /** The file name the client gave (UTF-8), or `upload.pdf`. */
  name: string;
  /** Where its bytes are, in `dir`. */
  path: string;
  size: number;
}

export type Received =
  | { ok: true; files: ReceivedFile[]; cleanup: () => Promise<void> }
  | { ok: false; status: 400 | 413; code: "bad_request:input" | "bad_request:file"; message: string };

export interface ReceiveOptions {
  /** The multipart field holding the files; parts in other fields are read past and dropped. */
  field: string;
  /** A directory for the temporary files (created if missing). */
  dir: string;
  maxFileBytes: number;
  maxFiles: number;
}

function formatMb(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 10 ? `${Math.round(mb)} MB` : `${mb.toFixed(1)} MB`;
}

const UNREADABLE = "The upload could not be read as a form (was it interrupted?).";

/** Reads `request`'s multipart body into temporary files in `dir`; the caller runs `cleanup` when done with them. */
export async function receiveFiles(request: Request, options: ReceiveOptions): Promise<Received> {
  const { field, dir, maxFileBytes, maxFiles } = options;
  if (!request.body) return { ok: false, status: 400, code: "bad_request:input", message: UNREADABLE };
  await fs.promises.mkdir(dir, { recursive: true });

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      // browsers send file names as raw UTF-8
      defParamCharset: "utf8",
      // busboy truncates a file at fileSize and says so ("limit"): that is the moment to stop
      limits: { fileSize: maxFileBytes, files: maxFiles, fields: 100, fieldSize: 64 * 1024 },
    });
  } catch {
    return { ok: false, status: 400, code: "bad_request:input", message: UNREADABLE };
  }

  const files: ReceivedFile[] = [];
  const open: { part: Readable; out: fs.WriteStream; done: Promise<unknown> }[] = [];
  const source = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>);
  const cleanup = async () => {
    for (const { part, out } of open) {
      part.destroy();
      out.destroy();
    }
    await Promise.allSettled(open.map((o) => o.done));
    await Promise.all(files.map((f) => fs.promises.rm(f.path, { force: true })));
  };

  return new Promise<Received>((resolve) => {
    let settled = false;
    const fail = (status: 400 | 413, code: "bad_request:input" | "bad_request:file", message: string) => {
      if (settled) return;
      settled = true;
      // stop reading: no more of the body comes in; what was written goes
      source.unpipe(parser);
      source.destroy();
      void cleanup();
      resolve({ ok: false, status, code, message });
    };

    parser.on("file", (name, part, info) => {
      if (settled || name !== field) {
        part.resume();
        return;
      }
      const file: ReceivedFile = {
        name: info.filename?.trim() || "upload.pdf",
        path: path.join(dir, `${randomUUID()}.upload`),
        size: 0,
      };
      files.push(file);
      part.on("data", (chunk: Buffer) => {
        file.size += chunk.length;
      });
      part.on("limit", () =>
        fail(
          413,
          "bad_request:file",
          `“${file.name}” is too large: the limit is ${formatMb(maxFileBytes)} per file (LECTERN_MAX_UPLOAD_MB). Nothing was stored.`,
        ),
      );
      const out = fs.createWriteStream(file.path, { flags: "wx" });
      const done = pipeline(part, out).catch((e: unknown) => e);
      open.push({ part, out, done });
    });
    parser.on("filesLimit", () => fail(400, "bad_request:input", `Send at most ${maxFiles} files per request.`));
    parser.on("error", () => fail(400, "bad_request:input", UNREADABLE));
    source.on("error", () => fail(400, "bad_request:input", UNREADABLE));
    parser.on("close", async () => {
      const errors = (await Promise.all(open.map((o) => o.done))).filter((e) => e !== undefined);
      if (errors.length > 0) return fail(400, "bad_request:input", UNREADABLE);
      if (settled) return;
      settled = true;
      resolve({ ok: true, files, cleanup });
    });
    source.pipe(parser);
  });
}

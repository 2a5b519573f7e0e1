import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { briefError, LecternError } from "@/lib/errors";
import { assertStorageFolder, assertStorageKey, missingObject } from "./keys";
import { type S3Settings, s3Location } from "./settings";
import type { PdfStorage } from "./types";

export type S3PdfStorage = PdfStorage & {
  /** Closes the client's connections (tests; a process simply exits). */
  destroy(): void;
};

/**
 * PDFs in an S3-compatible bucket, a key `k` at `<prefix>/k`. One PUT stores an object whole or not at all, so no
 * partial object is ever visible under its key; Content-MD5 makes the store refuse bytes damaged on the way.
 */
export function s3PdfStorage(settings: S3Settings): S3PdfStorage {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // Since early 2025 the SDK adds CRC checksums (and, for streams, aws-chunked bodies) that many S3-compatible
    // servers refuse; they are sent only where an operation requires them when the store is not AWS itself.
    ...(settings.endpoint
      ? { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" }
      : {}),
  });
  const location = s3Location(settings);
  const base = settings.prefix ? `${settings.prefix}/` : "";
  const Bucket = settings.bucket;
  const objectKey = (key: string): string => {
    assertStorageKey(key);
    return `${base}${key}`;
  };
  const unavailable = (what: string, e: unknown): unknown => {
    if (e instanceof LecternError || (e as Error)?.name === "AbortError") return e;
    return new LecternError("unavailable:file", `The PDF store ${location} failed to ${what}: ${briefError(e)}`, {
      cause: e,
    });
  };

  return {
    location,

    async put(key, bytes) {
      const Key = objectKey(key);
      const ContentMD5 = createHash("md5").update(bytes).digest("base64");
      try {
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key,
            Body: bytes,
            ContentLength: bytes.byteLength,
            ContentMD5,
            ContentType: "application/pdf",
          }),
        );
      } catch (e) {
        throw unavailable(`store ${key}`, e);
      }
    },

    async head(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { key, size: res.ContentLength ?? 0, lastModified: res.LastModified ?? new Date(0) };
      } catch (e) {
        if (isMissing(e)) return null;
        throw unavailable(`look up ${key}`, e);
      }
    },

    async read(key, opts = {}) {
      const { range, signal } = opts;
      let body: Readable;
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
          signal ? { abortSignal: signal } : {},
        );
        // on Node the body is the HTTP response itself
        if (!(res.Body instanceof Readable)) throw new Error("the response has no body stream");
        body = res.Body;
      } catch (e) {
        if (isMissing(e)) throw missingObject(key);
        throw unavailable(`read ${key}`, e);
      }
      if (signal) {
        if (signal.aborted) body.destroy();
        else signal.addEventListener("abort", () => body.destroy(), { once: true });
      }
      return Readable.toWeb(body) as ReadableStream<Uint8Array>;
    },

    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
      } catch (e) {
        if (isMissing(e)) return;
        throw unavailable(`delete ${key}`, e);
      }
    },

    async *list(folder) {
      assertStorageFolder(folder);
      try {
        for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: `${base}${folder}` })) {
          for (const o of page.Contents ?? []) {
            if (!o.Key?.startsWith(base)) continue;
            yield { key: o.Key.slice(base.length), size: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) };
          }
        }
      } catch (e) {
        throw unavailable(`list ${folder}`, e);
      }
    },

    destroy() {
      client.destroy();
    },
  };
}

/** A 404 of HEAD (no body, so no code) or GET's NoSuchKey. */
function isMissing(e: unknown): boolean {
  if (!(e instanceof S3ServiceException)) return false;
  return e.name === "NoSuchKey" || (e.name === "NotFound" && e.$metadata.httpStatusCode === 404);
}

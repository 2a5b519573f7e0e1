import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "@/lib/storage/settings";

/**
 * An S3-compatible stand-in for one test file: s3rver on a free port of 127.0.0.1, its objects in a temporary
 * directory, one bucket. No network beyond the loopback. `stop` closes it and removes the directory.
 */
export interface TestS3 {
  bucket: string;
  endpoint: string;
  /** What `LECTERN_STORAGE_URL=s3://<bucket>/<prefix>` and the AWS variables give. */
  settings(prefix?: string): S3Settings;
  /** The same as environment variables. */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

export async function startTestS3(bucket = "lectern-test"): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "lectern-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  finishWritesBeforeAnswering(server, directory);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  return {
    bucket,
    endpoint,
    settings: (prefix = "") => ({
      kind: "s3",
      bucket,
      prefix,
      endpoint,
      region: "us-east-1",
      credentials,
      forcePathStyle: true,
    }),
    env: (prefix = "") => ({
      LECTERN_STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ""}`,
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    }),
    async stop() {
      try {
        await server.close();
      } finally {
        await fs.rm(directory, { recursive: true, force: true });
      }
    },
  };
}

/** The part of s3rver's filesystem store that `finishWritesBeforeAnswering` replaces and uses. */
interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: {
    bucket: string;
    key: string;
    metadata: unknown;
    content: Buffer | AsyncIterable<Buffer>;
  }): Promise<{
    size: number;
    md5: string;
  }>;
}

/**
 * s3rver (3.7) answers a PUT once the request body has been read, not once the object's file is written: a GET
 * right after an overwrite could read the file half written, or empty (a test of ours did, once in a few runs).
 * Real S3 reads what a finished PUT wrote. So the stand-in's store writes the object to a file of its own and
 * renames it into place before the PUT is answered.
 */
function finishWritesBeforeAnswering(server: S3rver, directory: string): void {
  const store = (server as unknown as { store: S3rverStore }).store;
  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, "object");
    await fs.mkdir(path.dirname(objectPath), { recursive: true });
    let content: Buffer;
    if (Buffer.isBuffer(object.content)) content = object.content;
    else {
      const chunks: Buffer[] = [];
      for await (const chunk of object.content) chunks.push(Buffer.from(chunk));
      content = Buffer.concat(chunks);
    }
    const md5 = createHash("md5").update(content).digest("hex");
    const part = path.join(directory, `.part-${randomUUID()}`);
    await fs.writeFile(part, content);
    await fs.rename(part, objectPath);
    await store.putMetadata(object.bucket, object.key, object.metadata, md5);
    return { size: content.length, md5 };
  };
}

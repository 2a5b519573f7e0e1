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

/**
 * Which store holds the PDFs, from the settings (lib/env.ts validates them with these functions): the data directory
 * unless `LECTERN_STORAGE_URL=s3://bucket/prefix` names an S3-compatible store, reached with the usual AWS variables.
 * Pure: no environment read here, so env.ts can use it without a cycle.
 */
export interface S3Settings {
  kind: "s3";
  bucket: string;
  /** Without leading or trailing `/`; "" for the bucket's root. */
  prefix: string;
  /** An S3-compatible server (MinIO, Ceph, s3rver…); unset: AWS itself. */
  endpoint?: string;
  region: string;
  /** Unset: the AWS SDK's default chain (shared config files, an instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** `http://host/bucket/key` rather than `http://bucket.host/key`: what most stand-ins serve. */
  forcePathStyle: boolean;
}

export type StorageSettings = { kind: "local" } | S3Settings;

/** A bucket name as S3 allows it: 3–63 lowercase letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[\w-][\w.-]*$/;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** `s3://bucket` or `s3://bucket/some/prefix` (a trailing `/` is allowed). */
export function parseStorageUrl(raw: string): Parsed<{ bucket: string; prefix: string }> {
  const expected = "expected s3://bucket or s3://bucket/prefix (a local directory is the default: leave it unset)";
  const m = /^s3:\/\/([^/?#]*)(\/[^?#]*)?$/.exec(raw.trim());
  if (!m) return { ok: false, message: `"${raw}" is not an S3 location: ${expected}` };
  const [, bucket = "", rest = ""] = m;
  if (!BUCKET.test(bucket) || bucket.includes("..")) {
    return { ok: false, message: `"${bucket}" is not a valid bucket name (3–63 of a-z 0-9 . -): ${expected}` };
  }
  const prefix = rest.replace(/^\/+|\/+$/g, "");
  if (prefix && !prefix.split("/").every((s) => PREFIX_SEGMENT.test(s))) {
    return {
      ok: false,
      message: `"${prefix}" is not a usable prefix (parts of letters, digits, . _ - separated by single /): ${expected}`,
    };
  }
  return { ok: true, value: { bucket, prefix } };
}

export interface StorageEnv {
  LECTERN_STORAGE_URL?: string;
  AWS_ENDPOINT_URL?: string;
  AWS_REGION?: string;
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
  AWS_SESSION_TOKEN?: string;
  LECTERN_S3_FORCE_PATH_STYLE?: "0" | "1";
}

/** The store the settings name, or the problems with them, each with the key at fault. */
export function storageSettingsOf(
  env: StorageEnv,
): { ok: true; value: StorageSettings } | { ok: false; issues: StorageIssue[] } {
  if (!env.LECTERN_STORAGE_URL) return { ok: true, value: { kind: "local" } };
  const issues: StorageIssue[] = [];
  const url = parseStorageUrl(env.LECTERN_STORAGE_URL);
  if (!url.ok) issues.push({ key: "LECTERN_STORAGE_URL", message: url.message });
  if (env.AWS_ENDPOINT_URL && !/^https?:\/\/[^/\s]+/.test(env.AWS_ENDPOINT_URL)) {
    issues.push({ key: "AWS_ENDPOINT_URL", message: "expected an http(s) URL, e.g. http://127.0.0.1:9000" });
  }
  if (Boolean(env.AWS_ACCESS_KEY_ID) !== Boolean(env.AWS_SECRET_ACCESS_KEY)) {
    const missing = env.AWS_ACCESS_KEY_ID ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID";
    issues.push({ key: missing, message: "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together, or neither" });
  }
  if (!url.ok || issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      kind: "s3",
      ...url.value,
      ...(env.AWS_ENDPOINT_URL ? { endpoint: env.AWS_ENDPOINT_URL } : {}),
      region: env.AWS_REGION ?? "us-east-1",
      ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? {
            credentials: {
              accessKeyId: env.AWS_ACCESS_KEY_ID,
              secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
              ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
            },
          }
        : {}),
      // stand-ins at an endpoint of their own rarely serve bucket subdomains; AWS itself prefers them
      forcePathStyle: env.LECTERN_S3_FORCE_PATH_STYLE
        ? env.LECTERN_S3_FORCE_PATH_STYLE === "1"
        : Boolean(env.AWS_ENDPOINT_URL),
    },
  };
}

export interface StorageIssue {
  key: keyof StorageEnv;
  message: string;
}

/** `s3://bucket/prefix`, as the settings name it (for messages). */
export function s3Location(s: Pick<S3Settings, "bucket" | "prefix">): string {
  return `s3://${s.bucket}${s.prefix ? `/${s.prefix}` : ""}`;
}

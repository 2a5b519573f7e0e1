import { afterEach, describe, expect, it, vi } from "vitest";
import { getEnv, resetEnvForTests } from "@/lib/env";
import { parseStorageUrl, storageSettingsOf } from "./settings";

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvForTests();
});

describe("parseStorageUrl", () => {
  it("reads a bucket and an optional prefix", () => {
    expect(parseStorageUrl("s3://lectern")).toEqual({ ok: true, value: { bucket: "lectern", prefix: "" } });
    expect(parseStorageUrl("s3://lectern/")).toEqual({ ok: true, value: { bucket: "lectern", prefix: "" } });
    expect(parseStorageUrl("s3://lab-pdfs/lectern/prod/")).toEqual({
      ok: true,
      value: { bucket: "lab-pdfs", prefix: "lectern/prod" },
    });
  });

  it("refuses what is not an S3 location, with what was expected", () => {
    for (const raw of ["/var/lectern", "https://bucket.s3.amazonaws.com", "s3:/bucket", "s3://", "s3://b?x=1"]) {
      const parsed = parseStorageUrl(raw);
      expect(parsed.ok, raw).toBe(false);
      if (!parsed.ok) expect(parsed.message).toContain("expected s3://bucket or s3://bucket/prefix");
    }
    for (const raw of ["s3://Bucket", "s3://ab", "s3://a_b_c", "s3://x..y", "s3://bucket/a//b", "s3://bucket/../x"]) {
      expect(parseStorageUrl(raw).ok, raw).toBe(false);
    }
  });
});

describe("storageSettingsOf", () => {
  it("is the local directory without LECTERN_STORAGE_URL, whatever the AWS variables say", () => {
    expect(storageSettingsOf({ AWS_ENDPOINT_URL: "not a url" })).toEqual({ ok: true, value: { kind: "local" } });
  });

  it("gives S3 settings: path-style with an endpoint of its own, virtual-host style on AWS", () => {
    const standIn = storageSettingsOf({
      LECTERN_STORAGE_URL: "s3://lectern/pdf",
      AWS_ENDPOINT_URL: "http://127.0.0.1:9000",
      AWS_ACCESS_KEY_ID: "id",
      AWS_SECRET_ACCESS_KEY: "secret",
    });
    expect(standIn).toEqual({
      ok: true,
      value: {
        kind: "s3",
        bucket: "lectern",
        prefix: "pdf",
        endpoint: "http://127.0.0.1:9000",
        region: "us-east-1",
        credentials: { accessKeyId: "id", secretAccessKey: "secret" },
        forcePathStyle: true,
      },
    });
    const aws = storageSettingsOf({ LECTERN_STORAGE_URL: "s3://lectern", AWS_REGION: "eu-west-3" });
    expect(aws).toEqual({
      ok: true,
      value: { kind: "s3", bucket: "lectern", prefix: "", region: "eu-west-3", forcePathStyle: false },
    });
    const forced = storageSettingsOf({ LECTERN_STORAGE_URL: "s3://lectern", LECTERN_S3_FORCE_PATH_STYLE: "1" });
    expect(forced.ok && forced.value.kind === "s3" && forced.value.forcePathStyle).toBe(true);
  });

  it("names each variable at fault", () => {
    const bad = storageSettingsOf({
      LECTERN_STORAGE_URL: "s3://lectern",
      AWS_ENDPOINT_URL: "127.0.0.1:9000",
      AWS_ACCESS_KEY_ID: "id",
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues.map((i) => i.key)).toEqual(["AWS_ENDPOINT_URL", "AWS_SECRET_ACCESS_KEY"]);
  });
});

describe("getEnv", () => {
  it("refuses a malformed LECTERN_STORAGE_URL with a message naming it and the expected form", () => {
    vi.stubEnv("LECTERN_STORAGE_URL", "s3:/lectern/pdfs");
    resetEnvForTests();
    expect(() => getEnv()).toThrow(
      /Invalid configuration \(see \.env\.example\):\n {2}LECTERN_STORAGE_URL: "s3:\/lectern\/pdfs" is not an S3 location: expected s3:\/\/bucket or s3:\/\/bucket\/prefix/,
    );
  });

  it("has the S3 settings when the URL is good, and the local store when it is unset or empty", () => {
    vi.stubEnv("LECTERN_STORAGE_URL", "s3://lectern/lab");
    vi.stubEnv("AWS_ENDPOINT_URL", "http://127.0.0.1:9000");
    resetEnvForTests();
    expect(getEnv().storage).toMatchObject({ kind: "s3", bucket: "lectern", prefix: "lab", forcePathStyle: true });
    vi.stubEnv("LECTERN_STORAGE_URL", "");
    resetEnvForTests();
    expect(getEnv().storage).toEqual({ kind: "local" });
  });
});

import { describe, expect, it } from "vitest";
import { asDatabaseUnavailable, isLecternError, LecternError } from "./errors";

describe("asDatabaseUnavailable", () => {
  const message = "The database is not available.";
  const unavailable = (e: unknown) => {
    const out = asDatabaseUnavailable(e, message);
    return isLecternError(out) && out.code === "unavailable:database" && out.message === message && out.cause === e;
  };

  it("passes on the embedded database's own 'unavailable' from under the query builder's wrapper", () => {
    const gone = new LecternError("unavailable:database", "The embedded database stopped: its thread exited (code 1)");
    const wrapped = Object.assign(new Error("Failed query: select 1"), { cause: gone });
    expect(asDatabaseUnavailable(wrapped, message)).toBe(gone);
    const other = Object.assign(new Error("Failed query: select 1"), {
      cause: new LecternError("not_found:paper", "x"),
    });
    expect(asDatabaseUnavailable(other, message)).toBe(other);
  });

  it("names a lost or refused connection, by its code or node-postgres' words", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "57P01", "53300", "08006"]) {
      expect(unavailable(Object.assign(new Error("x"), { code })), code).toBe(true);
    }
    expect(unavailable({ message: "wrapped", cause: { code: "ECONNREFUSED" } })).toBe(true);
    expect(unavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(unavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(unavailable(new Error("Failed query", { cause: new Error("Connection terminated due to timeout") }))).toBe(
      true,
    );
  });

  it("leaves any other failure as it is", () => {
    const bug = Object.assign(new Error('column "x" does not exist'), { code: "42703" });
    expect(asDatabaseUnavailable(bug, message)).toBe(bug);
    const plain = new Error("boom");
    expect(asDatabaseUnavailable(plain, message)).toBe(plain);
    const known = new LecternError("bad_request:input", "no");
    expect(asDatabaseUnavailable(known, message)).toBe(known);
  });
});

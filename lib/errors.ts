/**
 * One error type with stable codes. `message` is safe to show a user; `cause` carries the details we log.
 * Code format: `<kind>:<subject>`, e.g. `bad_request:pdf`, `not_found:paper`.
 */
export type ErrorKind =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "unavailable"
  | "timeout"
  | "internal";
export type ErrorSubject =
  | "pdf"
  | "paper"
  | "query"
  | "database"
  | "embedding"
  | "llm"
  | "file"
  | "run"
  | "input"
  | "outline"
  | "feedback"
  | "session"
  | "role"
  | "user"
  | "invite"
  | "share"
  /** An outside source of papers (arXiv, an imported bibliography). */
  | "source";
export type ErrorCode = `${ErrorKind}:${ErrorSubject}`;

const statusByKind: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

/** The HTTP status of an error code (`bad_request:query` → 400). */
export function statusOfCode(code: ErrorCode): number {
  return statusByKind[code.split(":")[0] as ErrorKind] ?? 500;
}

export class LecternError extends Error {
  readonly code: ErrorCode;
  /** The input field at fault, when one is (a form marks it). */
  readonly field?: string;
  /** Seconds until a rate-limited request may be retried (`Retry-After`). */
  readonly retryAfter?: number;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; field?: string; retryAfter?: number }) {
    super(message, options);
    this.name = "LecternError";
    this.code = code;
    if (options?.field) this.field = options.field;
    if (options?.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
  get kind(): ErrorKind {
    return this.code.split(":")[0] as ErrorKind;
  }
  get status(): number {
    return statusByKind[this.kind];
  }
}

export function isLecternError(e: unknown): e is LecternError {
  return e instanceof LecternError;
}

/** A message fit for a user, whatever was thrown. Unknown errors get a generic line (details go to the log). */
export function userMessage(e: unknown): string {
  if (isLecternError(e)) return e.message;
  return "Something went wrong on our side. The details were logged.";
}

/** Typed results for server actions and route handlers: expected failures are values, not exceptions. */
export type Result<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: ErrorCode; message: string; field?: string } };

export function toErrorResult(e: unknown): { ok: false; error: { code: ErrorCode; message: string; field?: string } } {
  if (isLecternError(e)) {
    return { ok: false, error: { code: e.code, message: e.message, ...(e.field ? { field: e.field } : {}) } };
  }
  console.error(e);
  return { ok: false, error: { code: "internal:input", message: userMessage(e) } };
}

/** One line about an unexpected error: the driver's own message rather than the whole failed SQL statement. */
export function briefError(e: unknown): string {
  const err = e as { message?: string; cause?: { message?: string } };
  const msg = err.cause?.message ?? err.message ?? String(e);
  const line = msg.split("\n")[0] ?? msg;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * `e` as a LecternError `unavailable:database` (with `message`) when it is a lost or refused database connection
 * (node-postgres' socket and lookup errors and its "Connection terminated…" / pool timeout, PostgreSQL's admin
 * shutdown, too-many-connections and connection-exception codes); otherwise `e` itself.
 */
export function asDatabaseUnavailable(e: unknown, message: string): unknown {
  if (isLecternError(e)) return e;
  const err = e as { code?: unknown; cause?: { code?: unknown } };
  // the query builder wraps what the driver threw: the embedded database's thread gone is said by its cause
  if (isLecternError(err?.cause) && err.cause.code === "unavailable:database") return err.cause;
  const code = typeof err?.code === "string" ? err.code : err?.cause?.code;
  if (
    typeof code === "string" &&
    /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN|57P0[1-3]|53300|08\d\d\d)$/.test(code)
  ) {
    return new LecternError("unavailable:database", message, { cause: e });
  }
  // node-postgres and its pool say these without a code
  const text = `${(e as Error)?.message ?? ""} ${(err?.cause as Error | undefined)?.message ?? ""}`;
  if (/Connection terminated|timeout exceeded when trying to connect/i.test(text)) {
    return new LecternError("unavailable:database", message, { cause: e });
  }
  return e;
}

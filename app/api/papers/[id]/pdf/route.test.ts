import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookie } from "@/app/testing";
import type { DbHandle } from "@/db";
import { createAppTestDatabase } from "@/db/testing";
import { GET, HEAD } from "./route";

let handle: DbHandle;

/** A viewer's session: reading the library's PDFs is every role's. */
let cookie = "";

function get(id: string, method: "GET" | "HEAD" = "GET", as = cookie): Promise<Response> {
  const request = new Request(`http://localhost/api/papers/${encodeURIComponent(id)}/pdf`, {
    method,
    headers: { cookie: as },
  });
  return (method === "GET" ? GET : HEAD)(request, { params: Promise.resolve({ id }) });
}

beforeAll(async () => {
  handle = await createAppTestDatabase();
  cookie = await sessionCookie(handle.db, "viewer");
});

afterAll(async () => {
  await handle?.close();
});

describe("GET /api/papers/<id>/pdf, ids that are not ids", () => {
  it("a malformed percent escape (a bare `%`, as Next passes /api/papers/%25/pdf) is a bad request, not a 500", async () => {
    for (const id of ["%", "%E0%A4%A", "abc%zz"]) {
      for (const method of ["GET", "HEAD"] as const) {
        const res = await get(id, method);
        expect(res.status).toBe(400);
        if (method === "GET") expect(await res.text()).toBe("Invalid paper id.");
      }
    }
  });

  it("a well-formed id of no paper is 404", async () => {
    const res = await get("%25");
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("No such paper.");
  });

  it("is refused without a session (401)", async () => {
    expect((await get("%25", "GET", "")).status).toBe(401);
  });
});

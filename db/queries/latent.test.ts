import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, DbHandle } from "@/db";
import { createTestDatabase } from "@/db/testing";
import { createRng } from "@/lib/random";
import { getLatentModelInfo, loadLatentModel, replaceLatentModel } from "./latent";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

describe("the stored latent model", () => {
  it("comes back bit for bit: every float32 of a model large enough for base64 line breaks", async () => {
    const rng = createRng(7);
    const terms = Array.from({ length: 300 }, (_, i) => `term${i}`);
    const dimensions = 16;
    const idf = Float32Array.from(terms, () => rng() * 10);
    // negative, tiny, huge and exact values: nothing may be rounded on the way
    const projection = Float32Array.from({ length: terms.length * dimensions }, (_, i) =>
      i % 7 === 0 ? -(rng() * 1e-30) : i % 11 === 0 ? rng() * 3e38 : rng() - 0.5,
    );
    const model = { id: "m1", dimensions, rank: 12, rows: 40, terms, idf, projection };
    await handle.db.transaction((tx) => replaceLatentModel(tx as unknown as Database, { ...model, model: "lsa-v1" }));
    expect(await getLatentModelInfo(handle.db)).toMatchObject({ id: "m1", dimensions, rows: 40 });
    const loaded = await loadLatentModel(handle.db, { id: "m1" });
    expect(loaded?.terms).toEqual(terms);
    expect(loaded && Buffer.from(loaded.projection.buffer).equals(Buffer.from(projection.buffer))).toBe(true);
    expect(loaded && Buffer.from(loaded.idf.buffer).equals(Buffer.from(idf.buffer))).toBe(true);
    expect(loaded).toMatchObject({ dimensions, rank: 12, rows: 40 });
    expect(await loadLatentModel(handle.db, { id: "missing" })).toBeNull();
  });
});

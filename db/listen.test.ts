import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, LISTENER_APPLICATION_NAME, queryRows } from "@/db";
import { createTestDatabase } from "@/db/testing";

/**
 * DbHandle.listen on both drivers: a NOTIFY committed once listen() has returned reaches the listener (also for a
 * second caller that asked while the channel's LISTEN was still on its way), stop() ends it, and on PostgreSQL a lost
 * listening connection is replaced with its channels listened to again. A notification that never came would hold a
 * test until its own 60 s limit.
 */

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const notify = (channel: string, payload: string) => handle.db.execute(sql`select pg_notify(${channel}, ${payload})`);

/** Resolves with the first payload equal to `want` on `channel`; also its listener's stop. */
async function receiver(channel: string, want: string) {
  let got!: () => void;
  const received = new Promise<void>((resolve) => {
    got = resolve;
  });
  const stop = await handle.listen(channel, (payload) => {
    if (payload === want) got();
  });
  return { received, stop };
}

describe("DbHandle.listen", () => {
  it("delivers what is notified after it returns, to each caller; stop() ends a caller's share", async () => {
    const seen: string[] = [];
    const stop = await handle.listen("lectern_listen_test", (p) => seen.push(p));
    const other = await receiver("lectern_listen_test", "two");
    await notify("lectern_listen_test", "one");
    await notify("lectern_listen_test", "two");
    await other.received;
    await stop();
    await notify("lectern_listen_test", "three");
    const last = await receiver("lectern_listen_test", "four");
    await notify("lectern_listen_test", "four");
    await last.received;
    expect(seen).toEqual(["one", "two"]);
    await other.stop();
    await last.stop();
  });

  it("a caller that asks while the channel's LISTEN is on its way returns only once it listens", async () => {
    const channel = "lectern_listen_race";
    const first = receiver(channel, "now");
    const second = await receiver(channel, "now");
    // sent as soon as the second caller returns: it must already be listening
    await notify(channel, "now");
    await second.received;
    await (await first).received;
    await second.stop();
    await (await first).stop();
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "PostgreSQL: a lost listening connection is replaced, and its channels listened to again",
    async () => {
      const channel = "lectern_listen_lost";
      const seen = new Set<string>();
      const stop = await handle.listen(channel, (p) => seen.add(p));
      await notify(channel, "before");
      while (!seen.has("before")) await new Promise((resolve) => setTimeout(resolve, 20));
      const terminated = await queryRows<{ ok: boolean }>(
        handle.db,
        sql`select pg_terminate_backend(pid) as ok from pg_stat_activity
            where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
      );
      expect(terminated).toEqual([{ ok: true }]);
      // nobody calls listen() again: the handle reconnects on its own (after a second); until then nothing arrives
      for (let i = 0; ![...seen].some((p) => p.startsWith("after")); i++) {
        await notify(channel, `after ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // and it is one listening connection again
      const listening = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from pg_stat_activity
            where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
      );
      expect(listening).toEqual([{ n: 1 }]);
      await stop();
    },
    60_000,
  );
});

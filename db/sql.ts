import { type SQL, sql } from "drizzle-orm";
import type { Database } from "@/db";

/** `$1, $2, …`: a parameter list for `in (…)`. Callers make sure it is not empty. */
export function sqlList(values: readonly (string | number | boolean | null)[]): SQL {
  return sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
}

/** `array[$1, $2, …]::type[]` (an empty array of the type when there are no values). */
export function sqlArray(
  values: readonly (string | number | boolean | null)[],
  type: "text" | "int" | "float8" | "bool",
): SQL {
  const cast = sql.raw(`${type}[]`);
  return values.length === 0 ? sql`array[]::${cast}` : sql`array[${sqlList(values)}]::${cast}`;
}

/**
 * `$1::type[]`: the values as ONE array parameter, however many there are. Where a statement takes many values (the
 * search's candidate ids and query terms), each `$n` of `sqlList`/`sqlArray` costs the query builder, the driver and
 * the server's parser a little, per statement. Values are sent as data, never spliced into the SQL.
 */
export function sqlArrayParam(values: readonly (string | number)[], type: "text" | "int" | "float8"): SQL {
  return sql`${sql.param([...values])}::${sql.raw(`${type}[]`)}`;
}

/**
 * Sets planner and extension settings for the rest of the current transaction only (`SET LOCAL`, through
 * `set_config(…, true)`), in one round trip. Names are ours, never user input.
 */
export async function setLocal(tx: Pick<Database, "execute">, settings: Record<string, string>): Promise<void> {
  const entries = Object.entries(settings);
  if (entries.length === 0) return;
  await tx.execute(
    sql`select ${sql.join(
      entries.map(([name, value]) => sql`set_config(${name}, ${value}, true)`),
      sql`, `,
    )}`,
  );
}

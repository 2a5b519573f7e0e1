/** Items as a sentence lists them: "A", "A and B", "A, B and C" (or "A, B or C"). */
export function joinList(items: readonly string[], conjunction: "and" | "or" = "and"): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** Words quoted and listed: "“salesman” or “capacitated”". */
export function quotedList(words: readonly string[], conjunction: "and" | "or" = "or"): string {
  return joinList(
    words.map((w) => `“${w}”`),
    conjunction,
  );
}

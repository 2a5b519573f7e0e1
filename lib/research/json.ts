import type { z } from "zod";

/**
 * Extracts the JSON a model was asked for from whatever it wrote: code fences stripped, then the first balanced
 * `{…}` or `[…]` (models add prose around JSON), parsed and validated. Throws an Error saying what was wrong.
 */
export function extractJson(text: string): unknown {
  const unfenced = text.replace(/```(?:json|JSON)?\s*([\s\S]*?)```/g, "$1").trim();
  try {
    return JSON.parse(unfenced);
  } catch {
    // fall through to the first balanced value
  }
  const start = unfenced.search(/[{[]/);
  if (start < 0) throw new Error("The model's reply holds no JSON.");
  const open = unfenced[start] as "{" | "[";
  const close = open === "{" ? "}" : "]";
  let depth = 0;
  let inString = false;
  for (let i = start; i < unfenced.length; i++) {
    const c = unfenced[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === open) depth++;
    else if (c === close) {
      depth--;
      if (depth === 0) {
        const slice = unfenced.slice(start, i + 1);
        try {
          return JSON.parse(slice);
        } catch (e) {
          throw new Error(`The model's JSON does not parse: ${(e as Error).message}`);
        }
      }
    }
  }
  throw new Error("The model's JSON is cut off.");
}

export function parseModelJson<S extends z.ZodType>(text: string, schema: S): z.infer<S> {
  const value = extractJson(text);
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`The model's JSON has the wrong shape: ${issue?.path.join(".") || "value"}: ${issue?.message}`);
  }
  return r.data;
}

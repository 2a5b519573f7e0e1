"use server";

import type { SearchResponse } from "@/components/search/types";
import type { SessionUser } from "@/lib/auth/session";
import { type Result, toErrorResult } from "@/lib/errors";
import { requireUser } from "../../access";
import type { SearchInput } from "./schema";
import { searchFor } from "./search-for";

/**
 * Searches the library's page passages (`content`) or its summaries (`summaries`). Bad queries — empty, too long,
 * nothing but symbols — come back as `bad_request:query` with a message for the user, never as an exception.
 */
export async function searchAction(input: SearchInput): Promise<Result<SearchResponse>> {
  let user: SessionUser;
  try {
    user = await requireUser("library:read");
  } catch (e) {
    return toErrorResult(e);
  }
  return searchFor(user, input);
}

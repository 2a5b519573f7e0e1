"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the server's markup is shown (and while it hydrates), true once React owns the page. A form whose
 * submit is React's keeps its button disabled until then (the sign-in form: a native submit would be lost, or worse);
 * a field whose typing, Enter and "/" are React's handlers marks itself `data-hydrated` with it, so that a browser test
 * does not type into markup that drops what it typed.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

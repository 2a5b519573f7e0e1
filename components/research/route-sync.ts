/**
 * Keeping the shown run in step with the address. The page changes its own address when a run starts
 * (`replaceState` to `/research/<id>`, no navigation); navigations that land on the same page component (the header's
 * Research link, a recent run, the browser's back button) keep its state, so the view decides what to do:
 *
 * - `none`: the address is the page's own doing, or nothing changed
 * - `show`: show the run the server rendered for this address (or none, on `/research`)
 * - `refresh`: what the page holds was rendered for another address (back to an entry whose address the page had
 *   replaced): ask the server for this one — once, so a server that disagrees cannot loop us
 */
export type RouteSync = "none" | "show" | "refresh";

/** The run id of `/research/<id>`; null for `/research` and anything else. */
export function runIdFromPath(pathname: string): string | null {
  const m = /^\/research\/([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1] as string);
  } catch {
    return m[1] as string;
  }
}

export function routeSync({
  pathname,
  previousPath,
  ownPath,
  renderedRunId,
  initialChanged,
  refreshedFor,
}: {
  pathname: string;
  previousPath: string;
  /** The address the page gave itself, if any. */
  ownPath: string | null;
  /** The run the server rendered the page for (null on `/research`). */
  renderedRunId: string | null;
  /** The server rendered the page again (new props). */
  initialChanged: boolean;
  /** The address a refresh was last asked for. */
  refreshedFor: string | null;
}): RouteSync {
  if (pathname === ownPath) return "none";
  const pathChanged = pathname !== previousPath;
  if (!pathChanged && !initialChanged) return "none";
  if (runIdFromPath(pathname) !== renderedRunId) return refreshedFor === pathname ? "none" : "refresh";
  return "show";
}

/**
 * What vitest gives the app's code for Next's request-bound modules (vitest.config.ts aliases `next/headers`,
 * `next/cache` and `server-only` to this file): outside a Next request the real ones throw. The request's headers
 * (set by app/testing.ts's `signInAs`) and the cookies the app's code sets are this module's, emptied before each test
 * file (`resetRequest`, vitest's setupFiles); `revalidatePath` has no page to refresh and does nothing. Never imported
 * by the app itself.
 */

export const request = { headers: new Headers() };
const jar = new Map<string, string>();

/** A request with no headers and no cookies, as each test file starts (files that share a worker share this module). */
export function resetRequest(): void {
  request.headers = new Headers();
  jar.clear();
}

// next/headers
export async function headers(): Promise<Headers> {
  return request.headers;
}

export async function cookies() {
  return {
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) as string } : undefined),
    set: (name: string, value: string) => {
      jar.set(name, value);
    },
    delete: (name: string) => {
      jar.delete(name);
    },
  };
}

// next/cache
export function revalidatePath(_path: string, _type?: "page" | "layout"): void {}

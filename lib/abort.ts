/**
 * Time limits as abort signals that are sure to fire.
 *
 * Node's `AbortSignal.timeout` holds its signal only weakly (so an unused one can be collected), and inside
 * `AbortSignal.any` the timeout signal can be garbage-collected before it fires (nodejs/node#57736): the composite
 * then never aborts and a model call runs past its limit (seen on a loaded CI machine). Here the timer holds the
 * controller until it fires or the parent aborts; the timer is unref'd, so it never keeps a process alive.
 */

/** A signal that aborts with a `TimeoutError` after `ms`, or with `parent`'s reason when `parent` aborts first. */
export function timeoutSignal(ms: number, parent?: AbortSignal): AbortSignal {
  const ctrl = new AbortController();
  if (parent?.aborted) {
    ctrl.abort(parent.reason);
    return ctrl.signal;
  }
  const onParent = () => {
    clearTimeout(timer);
    ctrl.abort(parent?.reason);
  };
  const timer = setTimeout(() => {
    parent?.removeEventListener("abort", onParent);
    ctrl.abort(new DOMException(`The operation timed out after ${ms} ms.`, "TimeoutError"));
  }, ms);
  timer.unref?.();
  parent?.addEventListener("abort", onParent, { once: true });
  return ctrl.signal;
}

/** True when `reason` is the abort reason of a time limit (ours or `AbortSignal.timeout`'s). */
export function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === "TimeoutError";
}

import { formatDate } from "@/components/library/format";
import type { ShareLink } from "@/lib/auth/share";

/** `YYYY-MM-DD` of a date in the browser's time zone (the value of an `<input type="date">`). */
export function dateInputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The expiry of a new link from the date picked: the end of that day where the author is, as an ISO instant (the
 * server checks it is in the future by its own clock). Empty: the link does not expire.
 */
export function expiryFromDateInput(
  value: string,
  now = new Date(),
): { ok: true; expiresAt: string | null } | { ok: false; message: string } {
  if (value.trim() === "") return { ok: true, expiresAt: null };
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return { ok: false, message: "Pick a date for the link to expire, or leave it empty." };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const end = new Date(y, mo - 1, d, 23, 59, 59, 999);
  if (end.getFullYear() !== y || end.getMonth() !== mo - 1 || end.getDate() !== d) {
    return { ok: false, message: "That is not a date." };
  }
  if (end.getTime() <= now.getTime()) return { ok: false, message: "Pick a date in the future (or none)." };
  return { ok: true, expiresAt: end.toISOString() };
}

export const shareStateLabels: Record<ShareLink["state"], string> = {
  active: "Active",
  expired: "Expired",
  revoked: "Revoked",
};

/** The line under a link in the list: when it was made, and when it ends or ended. */
export function describeShareLink(link: ShareLink): string {
  const made = `Created ${formatDate(link.createdAt, true)}`;
  if (link.state === "revoked" && link.revokedAt) return `${made} · revoked ${formatDate(link.revokedAt, true)}`;
  if (link.state === "expired" && link.expiresAt) return `${made} · expired ${formatDate(link.expiresAt, true)}`;
  return `${made} · ${link.expiresAt ? `expires ${formatDate(link.expiresAt, true)}` : "no expiry"}`;
}

/** The absolute address of a share link: the configured public address of the app, else the page's own origin. */
export function shareUrl(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, "")}${path}`;
}

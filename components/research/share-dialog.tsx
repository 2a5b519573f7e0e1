"use client";

import { CheckIcon, CopyIcon, Share2Icon } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState, useTransition } from "react";
import { sharePath } from "@/components/paper/paper-links";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ShareLink } from "@/lib/auth/share";
import type { Result } from "@/lib/errors";
import { copyText } from "./copy-text";
import { dateInputValue, describeShareLink, expiryFromDateInput, shareStateLabels, shareUrl } from "./share-state";
import type { RunOwnerActions } from "./types";

type ShareActions = Pick<RunOwnerActions, "listShareLinks" | "createShareLink" | "revokeShareLink">;

/** A server action's answer, or a clear failure when the server cannot be reached at all. */
function reach<T>(call: () => Promise<Result<T>>): Promise<Result<T>> {
  return call().catch(
    (): Result<T> => ({
      ok: false,
      error: { code: "unavailable:run", message: "Could not reach the server. Is Lectern still running?" },
    }),
  );
}

/**
 * The run's share links, for its author: a dialog that lists them (never their tokens: only a short label), makes a
 * new one — with an optional expiry date — whose address is shown once with a Copy button, and revokes one after a
 * confirmation (dead at once).
 */
export function ShareRunButton({
  runId,
  actions,
  origin,
}: {
  runId: string;
  actions: ShareActions;
  /** The app's public address (LECTERN_PUBLIC_URL) for absolute links; null: the page's own origin. */
  origin: string | null;
}) {
  const [open, setOpen] = useState(false);
  const [links, setLinks] = useState<ShareLink[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [expiry, setExpiry] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ url: string; linkId: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<ShareLink | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [creating, startCreate] = useTransition();
  const [revokePending, startRevoke] = useTransition();
  const ids = useId();
  const expiryField = useRef<HTMLInputElement>(null);
  const urlField = useRef<HTMLInputElement>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  /** Set when a link was just revoked: its Revoke button is gone, so focus goes back to the list. */
  const focusList = useRef(false);

  useEffect(() => {
    if (!open) return;
    let current = true;
    setLinks(null);
    setLoadError(null);
    void reach(() => actions.listShareLinks(runId)).then((r) => {
      if (!current) return;
      if (r.ok) setLinks(r.data);
      else setLoadError(r.error.message);
    });
    return () => {
      current = false;
    };
  }, [open, runId, actions]);

  // the new address, selected: ready to copy with the keyboard too
  useEffect(() => {
    if (created) urlField.current?.select();
  }, [created]);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      // the token is shown once: closing the dialog forgets it
      setCreated(null);
      setCopied(false);
      setExpiry("");
      setFormError(null);
    }
  };

  const create = (event: FormEvent) => {
    event.preventDefault();
    const parsed = expiryFromDateInput(expiry);
    if (!parsed.ok) {
      setFormError(parsed.message);
      expiryField.current?.focus();
      return;
    }
    setFormError(null);
    setCopied(false);
    startCreate(async () => {
      const r = await reach(() => actions.createShareLink(runId, parsed.expiresAt));
      if (!r.ok) {
        setFormError(r.error.message);
        return;
      }
      setCreated({ url: shareUrl(origin ?? window.location.origin, sharePath(r.data.token)), linkId: r.data.link.id });
      setLinks((list) => [r.data.link, ...(list ?? [])]);
      setExpiry("");
    });
  };

  const revoke = () => {
    const link = revoking;
    if (!link) return;
    setRevokeError(null);
    startRevoke(async () => {
      const r = await reach(() => actions.revokeShareLink(runId, link.id));
      if (!r.ok) {
        setRevokeError(r.error.message);
        return;
      }
      setLinks((list) => list?.map((l) => (l.id === r.data.id ? r.data : l)) ?? null);
      setCreated((c) => (c?.linkId === r.data.id ? null : c));
      focusList.current = true;
      setRevoking(null);
    });
  };

  const copy = async () => {
    if (!created) return;
    await copyText(created.url);
    setCopied(true);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" data-testid="research-share">
          <Share2Icon />
          Share
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl" data-testid="share-dialog">
        <DialogHeader>
          <DialogTitle>Share this run</DialogTitle>
          <DialogDescription>
            Anyone with a link reads this run — the question, the steps, the answer with its citations and the pages of
            the papers it cites — without an account, and changes nothing. Revoke a link to stop it at once.
          </DialogDescription>
        </DialogHeader>

        <form onSubmit={create} className="flex flex-wrap items-end gap-3" noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`${ids}-expiry`}>Expires (optional)</Label>
            <Input
              ref={expiryField}
              id={`${ids}-expiry`}
              type="date"
              value={expiry}
              min={dateInputValue(new Date())}
              onChange={(e) => setExpiry(e.target.value)}
              aria-invalid={formError ? true : undefined}
              aria-describedby={formError ? `${ids}-form-error` : undefined}
              className="w-44"
              data-testid="share-expiry"
            />
          </div>
          <Button type="submit" disabled={creating} data-testid="share-create">
            {creating ? "Creating…" : "Create link"}
          </Button>
          {formError && (
            <p
              id={`${ids}-form-error`}
              role="alert"
              className="basis-full text-destructive text-sm"
              data-testid="share-form-error"
            >
              {formError}
            </p>
          )}
        </form>

        {created && (
          <div className="space-y-1.5 rounded-md border bg-muted/40 p-3" data-testid="share-created">
            <Label htmlFor={`${ids}-url`}>New link — copy it now: it is not shown again</Label>
            <div className="flex gap-2">
              <Input
                ref={urlField}
                id={`${ids}-url`}
                readOnly
                value={created.url}
                onFocus={(e) => e.currentTarget.select()}
                className="font-mono text-xs"
                data-testid="share-url"
              />
              <Button variant="outline" onClick={() => void copy()} data-testid="share-copy">
                {copied ? <CheckIcon className="text-success" /> : <CopyIcon />}
                {copied ? "Copied" : "Copy"}
              </Button>
            </div>
            <p className="sr-only" role="status">
              {copied ? "The share link is on the clipboard." : ""}
            </p>
          </div>
        )}

        <section aria-labelledby={`${ids}-links`} className="space-y-2">
          <h3 id={`${ids}-links`} ref={listHeading} tabIndex={-1} className="font-semibold text-sm outline-none">
            Links to this run
          </h3>
          {loadError ? (
            <p role="alert" className="text-destructive text-sm" data-testid="share-links-error">
              {loadError}
            </p>
          ) : links === null ? (
            <p className="text-muted-foreground text-sm" role="status" data-testid="share-links-loading">
              Loading the links…
            </p>
          ) : links.length === 0 ? (
            <p className="text-muted-foreground text-sm" data-testid="share-links-empty">
              No links yet: this run is private to you.
            </p>
          ) : (
            <ul className="divide-y rounded-md border" data-testid="share-links">
              {links.map((link) => (
                <li
                  key={link.id}
                  className="flex items-center gap-3 px-3 py-2"
                  data-testid="share-link"
                  data-link-id={link.id}
                  data-state={link.state}
                >
                  <div className="min-w-0 flex-1 space-y-0.5">
                    <p className="flex flex-wrap items-center gap-2 text-sm">
                      <span className="font-mono" data-testid="share-link-label">
                        Link {link.label}
                      </span>
                      <Badge
                        variant={link.state === "active" ? "success" : "outline"}
                        className={link.state === "active" ? undefined : "text-muted-foreground"}
                      >
                        {shareStateLabels[link.state]}
                      </Badge>
                      {created?.linkId === link.id && <span className="text-muted-foreground text-xs">new</span>}
                    </p>
                    <p className="text-muted-foreground text-xs" suppressHydrationWarning>
                      {describeShareLink(link)}
                    </p>
                  </div>
                  {link.state === "active" && (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-destructive hover:text-destructive"
                      onClick={() => {
                        setRevokeError(null);
                        setRevoking(link);
                      }}
                      aria-label={`Revoke link ${link.label}`}
                      data-testid="share-revoke"
                    >
                      Revoke
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>

        <AlertDialog
          open={revoking !== null}
          onOpenChange={(next) => {
            if (revokePending) return;
            if (!next) setRevoking(null);
          }}
        >
          <AlertDialogContent
            data-testid="share-revoke-dialog"
            onCloseAutoFocus={(e) => {
              if (!focusList.current) return;
              focusList.current = false;
              e.preventDefault();
              listHeading.current?.focus();
            }}
          >
            <AlertDialogHeader>
              <AlertDialogTitle>Revoke link {revoking?.label}?</AlertDialogTitle>
              <AlertDialogDescription>
                Anyone opening it from now on gets “not found”, including people who already have it. This cannot be
                undone; you can make a new link.
              </AlertDialogDescription>
            </AlertDialogHeader>
            {revokeError && (
              <p role="alert" className="text-destructive text-sm" data-testid="share-revoke-error">
                {revokeError}
              </p>
            )}
            <AlertDialogFooter>
              <AlertDialogCancel disabled={revokePending} data-testid="share-revoke-cancel">
                Keep it
              </AlertDialogCancel>
              {/* a plain button: the dialog stays open until the link is revoked */}
              <Button
                variant="destructive"
                onClick={revoke}
                disabled={revokePending}
                data-testid="share-revoke-confirm"
              >
                {revokePending ? "Revoking…" : "Revoke link"}
              </Button>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </DialogContent>
    </Dialog>
  );
}

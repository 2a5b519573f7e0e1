"use client";

import { CheckIcon, CopyIcon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { formatDate } from "@/components/library/format";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";

/**
 * A new invite's link, shown once (only its hash is stored): the absolute address at which this page was reached, a
 * Copy button, and Done to put it away. It takes the focus when it appears, so a keyboard user lands on it.
 */
export function InviteLinkPanel({
  email,
  roleLabel,
  path,
  expiresAt,
  onDone,
}: {
  email: string;
  roleLabel: string;
  path: string;
  expiresAt: string;
  onDone: () => void;
}) {
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [url, setUrl] = useState(path);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);

  useEffect(() => {
    setUrl(`${window.location.origin}${path}`);
    field.current?.focus();
    field.current?.select();
  }, [path]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("yes");
    } catch {
      // no clipboard API (a plain-http address other than localhost): select the text, copy the old way
      field.current?.focus();
      field.current?.select();
      setCopied(document.execCommand("copy") ? "yes" : "failed");
    }
  };

  return (
    <section
      className="space-y-3 rounded-lg border border-primary/40 bg-primary/5 p-4"
      aria-labelledby={`${id}-title`}
      data-testid="invite-link-panel"
    >
      <h3 id={`${id}-title`} className="font-medium text-sm">
        Invite link for {email} ({roleLabel.toLowerCase()})
      </h3>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-url`} className="sr-only">
          Invite link
        </Label>
        {/* the whole link visible (wrapped), to check it before sending it */}
        <Textarea
          ref={field}
          id={`${id}-url`}
          readOnly
          rows={2}
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className="min-h-0 resize-none break-all bg-background font-mono text-xs md:text-xs"
          data-testid="invite-link-url"
        />
      </div>
      <p className="text-muted-foreground text-xs">
        Shown only now: copy it and send it to them. It works once, until {formatDate(expiresAt, true)}; they choose
        their name and password when they open it.
      </p>
      <p
        role="status"
        className={cn("text-destructive text-xs", copied !== "failed" && "sr-only")}
        data-testid="invite-link-copy-status"
      >
        {copied === "yes"
          ? "The invite link is on the clipboard."
          : copied === "failed"
            ? "Could not copy: the link is selected, press Ctrl+C (⌘C) to copy it."
            : ""}
      </p>
      <div className="flex gap-2">
        <Button size="sm" onClick={() => void copy()} data-testid="invite-link-copy">
          {copied === "yes" ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
          {copied === "yes" ? "Copied" : "Copy the link"}
        </Button>
        <Button size="sm" variant="outline" onClick={onDone} data-testid="invite-link-done">
          Done
        </Button>
      </div>
    </section>
  );
}

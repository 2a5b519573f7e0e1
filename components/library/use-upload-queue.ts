"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { IngestFileResult, IngestStage, LibraryStage } from "@/lib/ingest/progress";
import { formatBytes } from "./format";
import { INGEST_FILES_FIELD, type IngestStreamEvent } from "./ingest-events";

export type UploadPhase =
  | { kind: "queued" }
  | { kind: "uploading"; loaded: number; total: number }
  /** Uploaded; waiting for the server's first event. */
  | { kind: "processing" }
  | { kind: "stage"; stage: IngestStage; done?: number; of?: number }
  /** Stored; the library step after the batch (vectors, then their neighbours) is running. */
  | { kind: "library"; stage: LibraryStage; done?: number; of?: number }
  | { kind: "done"; result: IngestFileResult }
  | { kind: "failed"; message: string }
  | { kind: "cancelled" };

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  phase: UploadPhase;
}

export function isFinished(phase: UploadPhase): boolean {
  return phase.kind === "done" || phase.kind === "failed" || phase.kind === "cancelled";
}

let nextId = 0;

/**
 * Uploads files one at a time to `POST /api/ingest` and follows each through the server's stages. XMLHttpRequest,
 * not fetch, because only it reports upload progress; its responseText grows as NDJSON lines arrive.
 */
export function useUploadQueue({ maxUploadBytes }: { maxUploadBytes: number }) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const files = useRef(new Map<string, File>());
  const active = useRef<{ id: string; xhr: XMLHttpRequest } | null>(null);
  /** The server's batches this page's uploads became (the server queue panel leaves them to the upload list). */
  const followedBatches = useRef(new Set<string>());
  const [followed, setFollowed] = useState<ReadonlySet<string>>(new Set());

  const update = useCallback((id: string, phase: UploadPhase) => {
    setItems((prev) => prev.map((it) => (it.id === id ? { ...it, phase } : it)));
  }, []);

  const addFiles = useCallback(
    (list: Iterable<File>) => {
      const added: UploadItem[] = [];
      for (const file of list) {
        const id = `upload-${++nextId}`;
        if (file.size > maxUploadBytes) {
          // Known before sending anything: no point uploading a file the server will refuse.
          added.push({
            id,
            name: file.name,
            size: file.size,
            phase: {
              kind: "failed",
              message: `This file is ${formatBytes(file.size)}, larger than the ${formatBytes(maxUploadBytes)} upload limit.`,
            },
          });
          continue;
        }
        files.current.set(id, file);
        added.push({ id, name: file.name, size: file.size, phase: { kind: "queued" } });
      }
      if (added.length) setItems((prev) => [...prev, ...added]);
    },
    [maxUploadBytes],
  );

  const cancel = useCallback(
    (id: string) => {
      if (active.current?.id === id) active.current.xhr.abort();
      else if (files.current.delete(id)) update(id, { kind: "cancelled" });
    },
    [update],
  );

  const clearFinished = useCallback(() => {
    setItems((prev) => prev.filter((it) => !isFinished(it.phase)));
  }, []);

  // The queue runner: whenever nothing is uploading, start the next queued file.
  useEffect(() => {
    if (active.current) return;
    const next = items.find((it) => it.phase.kind === "queued");
    if (!next) return;
    const file = files.current.get(next.id);
    if (!file) return;
    const xhr = new XMLHttpRequest();
    active.current = { id: next.id, xhr };
    update(next.id, { kind: "uploading", loaded: 0, total: file.size });

    let consumed = 0;
    let finalPhase: UploadPhase | null = null;
    let fileResult: IngestFileResult | null = null;
    const applyEvent = (event: IngestStreamEvent) => {
      switch (event.type) {
        case "queued":
          followedBatches.current.add(event.batch_id);
          setFollowed(new Set(followedBatches.current));
          break;
        case "file_start":
          update(next.id, { kind: "processing" });
          break;
        case "file_stage":
          update(next.id, { kind: "stage", stage: event.stage, done: event.done, of: event.of });
          break;
        case "file_done":
          // a stored paper still goes through the library step after the batch (its vectors with the offline latent
          // embedder, then their neighbours): the item is done when the stream says so
          fileResult = event.result;
          if (event.result.status !== "ingested" && event.result.status !== "replaced") {
            finalPhase = { kind: "done", result: event.result };
            update(next.id, finalPhase);
          } else {
            update(next.id, { kind: "library", stage: "embedding" });
          }
          break;
        case "library_stage":
          if (!finalPhase) update(next.id, { kind: "library", stage: event.stage, done: event.done, of: event.of });
          break;
        case "library_done":
        case "library_error":
        case "done": {
          const result = fileResult ?? (event.type === "done" ? event.results[0] : undefined);
          if (!finalPhase && result) {
            finalPhase = { kind: "done", result };
            update(next.id, finalPhase);
          }
          break;
        }
        case "fatal":
          finalPhase = { kind: "failed", message: event.error.message };
          update(next.id, finalPhase);
          break;
      }
    };
    const readLines = (final: boolean) => {
      const text = xhr.responseText;
      let nl = text.indexOf("\n", consumed);
      while (nl !== -1) {
        const line = text.slice(consumed, nl).trim();
        consumed = nl + 1;
        if (line) {
          try {
            applyEvent(JSON.parse(line) as IngestStreamEvent);
          } catch {
            // a malformed line is skipped; the final status still arrives
          }
        }
        nl = text.indexOf("\n", consumed);
      }
      if (final && consumed < text.length) {
        const rest = text.slice(consumed).trim();
        consumed = text.length;
        if (rest) {
          try {
            applyEvent(JSON.parse(rest) as IngestStreamEvent);
          } catch {
            /* ignored, as above */
          }
        }
      }
    };
    const finish = (phase?: UploadPhase) => {
      if (phase && !finalPhase) update(next.id, phase);
      files.current.delete(next.id);
      active.current = null;
      // new papers (or none, on error): either way the list may have changed
      void queryClient.invalidateQueries({ queryKey: ["papers"] });
      // wake the runner for the next file
      setItems((prev) => [...prev]);
    };

    xhr.upload.onprogress = (e) => {
      update(next.id, { kind: "uploading", loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    };
    xhr.upload.onload = () => update(next.id, { kind: "processing" });
    xhr.onprogress = () => {
      if (xhr.status === 200) readLines(false);
    };
    xhr.onload = () => {
      if (xhr.status === 200) {
        readLines(true);
        finish({ kind: "failed", message: "The server closed the connection before the file was processed." });
        return;
      }
      let message = `The upload failed (HTTP ${xhr.status}).`;
      try {
        const body = JSON.parse(xhr.responseText) as { error?: { message?: string } };
        if (body.error?.message) message = body.error.message;
      } catch {
        /* not JSON: keep the generic message */
      }
      finish({ kind: "failed", message });
    };
    xhr.onerror = () => finish({ kind: "failed", message: "Could not reach the server. Is Lectern still running?" });
    xhr.onabort = () => finish({ kind: "cancelled" });

    const form = new FormData();
    form.append(INGEST_FILES_FIELD, file, file.name);
    xhr.open("POST", "/api/ingest");
    xhr.send(form);
  }, [items, update, queryClient]);

  // Leaving the page stops the upload in flight (the server aborts its ingest when the connection closes).
  useEffect(() => () => active.current?.xhr.abort(), []);

  return { items, addFiles, cancel, clearFinished, followedBatches: followed };
}

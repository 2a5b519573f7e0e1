"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileUpIcon, SearchIcon, XIcon } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { useSlashToFocus } from "@/components/ui/use-slash-to-focus";
import type { DeletePaper } from "./delete-paper-button";
import { JobQueue } from "./job-queue";
import { PaperList } from "./paper-list";
import { type SearchArxiv, SourcesPanel } from "./sources-panel";
import { type ApiResult, type PaperRow, type PaperSort, paperSorts, sortLabels } from "./types";
import { hasFiles, UploadDropZone } from "./upload-drop-zone";
import { UploadQueue } from "./upload-queue";
import { isFinished, useUploadQueue } from "./use-upload-queue";

async function fetchPapers({ q, sort }: { q: string; sort: PaperSort }): Promise<PaperRow[]> {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (sort !== "added") params.set("sort", sort);
  const res = await fetch(`/api/papers?${params}`, { cache: "no-store" });
  const body = (await res.json().catch(() => null)) as ApiResult<PaperRow[]> | null;
  if (!body) throw new Error(`The library could not be loaded (HTTP ${res.status}).`);
  if (!body.ok) throw new Error(body.error.message);
  return body.data;
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

function isSort(v: string | null): v is PaperSort {
  return (paperSorts as readonly string[]).includes(v ?? "");
}

/** Drag files anywhere over the page to add them. */
function usePageDrop(onFiles: (files: File[]) => void): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault(); // allows the drop
      if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setDragging(false);
      // a drop target on the page (the drop zone) has handled it already
      if (!hasFiles(e) || e.defaultPrevented) return;
      e.preventDefault(); // or the browser opens the PDF in place of the app
      onFiles(Array.from(e.dataTransfer?.files ?? []));
    };
    window.addEventListener("dragenter", enter);
    window.addEventListener("dragleave", leave);
    window.addEventListener("dragover", over);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragenter", enter);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("dragover", over);
      window.removeEventListener("drop", drop);
    };
  }, [onFiles]);
  return dragging;
}

export function LibraryView({
  initialPapers,
  initialQuery,
  loadError,
  maxUploadBytes,
  deletePaper,
  canUpload = true,
  searchArxiv = null,
}: {
  initialPapers: PaperRow[];
  initialQuery: { q: string; sort: PaperSort };
  /** Why the server could not load the list (e.g. the database is in use by another process). */
  loadError: string | null;
  maxUploadBytes: number;
  /** Null when the person's role may not delete papers. */
  deletePaper: DeletePaper | null;
  /** False when the person's role may not upload (a viewer). */
  canUpload?: boolean;
  /** Searches arXiv for the "Add from arXiv" panel; null hides the panel (a viewer). */
  searchArxiv?: SearchArxiv | null;
}) {
  const queryClient = useQueryClient();
  const searchParams = useSearchParams();
  const [filter, setFilter] = useState(initialQuery.q);
  const q = useDebounced(filter.trim(), 250);
  const urlSort = searchParams.get("sort");
  const sort: PaperSort = isSort(urlSort) ? urlSort : "added";
  const filterRef = useRef<HTMLInputElement>(null);
  const [announcement, setAnnouncement] = useState("");

  // The URL is the shareable state of the list. replaceState updates useSearchParams without a server round trip.
  const setUrl = useCallback((next: { q: string; sort: PaperSort }) => {
    const params = new URLSearchParams(window.location.search);
    if (next.q) params.set("q", next.q);
    else params.delete("q");
    if (next.sort !== "added") params.set("sort", next.sort);
    else params.delete("sort");
    const qs = params.toString();
    const url = `${window.location.pathname}${qs ? `?${qs}` : ""}`;
    if (url !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(null, "", url);
  }, []);

  useEffect(() => {
    setUrl({ q, sort });
  }, [q, sort, setUrl]);

  const isInitial = q === initialQuery.q && sort === initialQuery.sort && !loadError;
  const papersQuery = useQuery({
    queryKey: ["papers", { q, sort }],
    queryFn: () => fetchPapers({ q, sort }),
    initialData: isInitial ? initialPapers : undefined,
    placeholderData: keepPreviousData,
    // a paper still being processed (e.g. by the CLI) changes on its own: look again until it settles
    refetchInterval: (query) => (query.state.data?.some((p) => p.status === "processing") ? 3_000 : false),
  });

  const uploads = useUploadQueue({ maxUploadBytes });
  const ignoreDrop = useCallback((_files: File[]) => {}, []);
  const pageDragging = usePageDrop(canUpload ? uploads.addFiles : ignoreDrop);

  // Tell screen readers how each upload ended (the rows themselves update too often to be live regions).
  const announced = useRef(new Set<string>());
  useEffect(() => {
    for (const item of uploads.items) {
      if (!isFinished(item.phase) || announced.current.has(item.id)) continue;
      announced.current.add(item.id);
      const p = item.phase;
      const what =
        p.kind === "done"
          ? p.result.status === "error"
            ? `failed: ${p.result.error ?? "error"}`
            : p.result.status === "unchanged"
              ? "already in library"
              : p.result.status
          : p.kind === "failed"
            ? `failed: ${p.message}`
            : "cancelled";
      setAnnouncement(`${item.name} ${what}`);
    }
  }, [uploads.items]);

  // "/" focuses the filter, as in many reading tools
  useSlashToFocus(filterRef);

  const onDeleted = useCallback(
    (id: string, title: string) => {
      queryClient.setQueriesData<PaperRow[]>({ queryKey: ["papers"] }, (old) => old?.filter((p) => p.id !== id));
      void queryClient.invalidateQueries({ queryKey: ["papers"] });
      setAnnouncement(`Deleted “${title}”.`);
    },
    [queryClient],
  );

  const papers = papersQuery.data;
  const libraryEmpty = papers !== undefined && papers.length === 0 && !q;
  const error = papersQuery.error?.message ?? (papers === undefined ? loadError : null);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-semibold text-2xl tracking-tight">Library</h1>
          <p className="text-muted-foreground text-sm" data-testid="library-count">
            {papers === undefined
              ? "Loading…"
              : q
                ? `${papers.length} ${papers.length === 1 ? "paper matches" : "papers match"} “${q}”`
                : `${papers.length} ${papers.length === 1 ? "paper" : "papers"}`}
          </p>
        </div>
        {!libraryEmpty && (
          <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
            <div className="relative min-w-0 flex-1 sm:w-72 sm:flex-none">
              <SearchIcon
                className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-2.5 size-4 text-muted-foreground"
                aria-hidden
              />
              <Input
                ref={filterRef}
                type="search"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Escape" && filter) {
                    e.preventDefault();
                    setFilter("");
                  }
                }}
                placeholder="Filter by title or author"
                aria-label="Filter papers by title or author"
                aria-keyshortcuts="/"
                className="pl-8"
                data-testid="library-filter"
              />
            </div>
            <Select value={sort} onValueChange={(v) => isSort(v) && setUrl({ q, sort: v })}>
              <SelectTrigger aria-label="Sort papers" data-testid="library-sort" className="w-40">
                <span className="text-muted-foreground">Sort:</span>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {paperSorts.map((s) => (
                  <SelectItem key={s} value={s} data-testid={`sort-${s}`}>
                    {sortLabels[s]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        )}
      </div>

      {canUpload && (
        <>
          <UploadDropZone onFiles={uploads.addFiles} maxUploadBytes={maxUploadBytes} large={libraryEmpty} />
          <UploadQueue items={uploads.items} onCancel={uploads.cancel} onClearFinished={uploads.clearFinished} />
          {searchArxiv && <SourcesPanel searchArxiv={searchArxiv} folded={initialPapers.length > 0} />}
        </>
      )}
      <JobQueue exclude={uploads.followedBatches} />

      {error && (
        <Alert variant="destructive" data-testid="library-error">
          <AlertTitle>The library could not be loaded</AlertTitle>
          <AlertDescription>
            <p>{error}</p>
            <Button variant="outline" size="sm" className="mt-1" onClick={() => void papersQuery.refetch()}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      )}

      {papers === undefined && !error ? (
        <div className="space-y-2" aria-hidden>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      ) : papers && papers.length > 0 ? (
        <PaperList papers={papers} deletePaper={deletePaper} onDeleted={onDeleted} />
      ) : papers && q ? (
        <div className="rounded-xl border border-dashed px-6 py-10 text-center" data-testid="no-matches">
          <p className="font-medium">No papers match “{q}”.</p>
          <Button variant="link" onClick={() => setFilter("")}>
            <XIcon />
            Clear the filter
          </Button>
        </div>
      ) : libraryEmpty ? (
        <p className="text-center text-muted-foreground text-sm" data-testid="empty-library">
          Your library is empty. Papers you add are split into passages and summarized, so you can read and search them
          here.
        </p>
      ) : null}

      {pageDragging && (
        <div
          className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-background/80 backdrop-blur-sm"
          aria-hidden
        >
          <div className="flex flex-col items-center gap-3 rounded-2xl border-2 border-primary border-dashed bg-card px-12 py-10">
            <FileUpIcon className="size-10 text-primary" />
            <p className="font-medium text-lg">Drop PDFs to add them to the library</p>
          </div>
        </div>
      )}

      <div className="sr-only" aria-live="polite" role="status">
        {announcement}
      </div>
    </div>
  );
}

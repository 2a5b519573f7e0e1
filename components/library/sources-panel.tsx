"use client";

import { BookMarkedIcon, ChevronUpIcon, LibraryIcon, PlusIcon, SearchIcon } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useId, useRef, useState } from "react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import type { Result } from "@/lib/errors";
import type { ArxivSearchHit } from "@/lib/sources/arxiv-search";
import { IMPORT_FILES_FIELD } from "./source-events";
import { SourceItems } from "./source-items";
import { useSourceRun } from "./use-source-run";

export type SearchArxiv = (input: {
  query?: string;
  author?: string;
  category?: string;
}) => Promise<Result<{ total: number; results: ArxivSearchHit[] }>>;

function postArxiv(ids: string[] | string, replace: boolean) {
  return (signal: AbortSignal) =>
    fetch("/api/sources/arxiv", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ids, replace }),
      signal,
    });
}

function ArxivTab({ searchArxiv }: { searchArxiv: SearchArxiv }) {
  const add = useSourceRun();
  const idsId = useId();
  // `?arxiv=<id>`: a paper offered for adding elsewhere (a research answer's web source on arxiv.org), prefilled
  const prefill = useSearchParams().get("arxiv");
  const [ids, setIds] = useState(() => prefill?.slice(0, 200) ?? "");
  const [query, setQuery] = useState("");
  const [author, setAuthor] = useState("");
  const [category, setCategory] = useState("");
  const [searching, setSearching] = useState(false);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [hits, setHits] = useState<{ total: number; results: ArxivSearchHit[] } | null>(null);
  const [added, setAdded] = useState<Set<string>>(new Set());

  const addIds = (list: string[] | string, replace = false) => {
    if (typeof list === "string" ? !list.trim() : list.length === 0) return;
    if (Array.isArray(list)) setAdded((s) => new Set([...s, ...list]));
    void add.run(postArxiv(list, replace));
  };

  const search = async () => {
    setSearching(true);
    setSearchError(null);
    try {
      const r = await searchArxiv({ query, author, category });
      if (r.ok) setHits(r.data);
      else setSearchError(r.error.message);
    } catch {
      setSearchError("The search failed. Is the server running?");
    } finally {
      setSearching(false);
    }
  };

  return (
    <div className="space-y-4">
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          addIds(ids);
        }}
      >
        <Label htmlFor={idsId}>arXiv ids or links</Label>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <Textarea
            id={idsId}
            value={ids}
            onChange={(e) => setIds(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
                e.preventDefault();
                addIds(ids);
              }
            }}
            rows={2}
            placeholder="2106.09685, https://arxiv.org/abs/1706.03762 — one or many, any separator"
            className="min-h-10 flex-1 font-mono text-sm"
            aria-describedby={`${idsId}-hint`}
            data-testid="arxiv-ids"
          />
          <Button type="submit" disabled={add.running || !ids.trim()} data-testid="arxiv-add">
            <PlusIcon />
            Add
          </Button>
        </div>
        <p id={`${idsId}-hint`} className="text-muted-foreground text-xs">
          Ids (with or without a version), abs or pdf links. The PDF is downloaded from arXiv and its metadata taken
          from the arXiv API. Ctrl+Enter adds.
        </p>
      </form>

      {add.error && (
        <Alert variant="destructive" data-testid="arxiv-error">
          <AlertDescription>{add.error}</AlertDescription>
        </Alert>
      )}
      <SourceItems
        title="Adding from arXiv"
        items={add.items}
        running={add.running}
        onReplace={(id) => addIds([id.replace(/v\d+$/, "")], true)}
      />

      <form
        role="search"
        aria-label="Search arXiv"
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <p className="font-medium text-sm">Search arXiv</p>
        <div className="grid gap-2 sm:grid-cols-[1fr_12rem_8rem_auto]">
          <Input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Words, e.g. low-rank adaptation"
            aria-label="Words to search arXiv for"
            data-testid="arxiv-search-query"
          />
          <Input
            value={author}
            onChange={(e) => setAuthor(e.target.value)}
            placeholder="Author (optional)"
            aria-label="Author"
          />
          <Input
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            placeholder="cs.CL"
            aria-label="arXiv category (optional)"
          />
          <Button type="submit" variant="secondary" disabled={searching} data-testid="arxiv-search">
            <SearchIcon />
            {searching ? "Searching…" : "Search"}
          </Button>
        </div>
      </form>
      {searchError && (
        <Alert variant="destructive" data-testid="arxiv-search-error">
          <AlertDescription>{searchError}</AlertDescription>
        </Alert>
      )}
      {hits && (
        <section aria-label="arXiv results" className="space-y-1" data-testid="arxiv-results">
          <p className="text-muted-foreground text-xs" aria-live="polite">
            {hits.total === 0
              ? "Nothing on arXiv matches."
              : `${hits.total} ${hits.total === 1 ? "paper matches" : "papers match"}${hits.total > hits.results.length ? `; the first ${hits.results.length}` : ""}.`}
          </p>
          <ul className="divide-y rounded-lg border">
            {hits.results.map((h) => (
              <li key={h.arxiv_id} className="flex items-start gap-3 px-3 py-2.5" data-testid="arxiv-result">
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-sm">{h.title}</p>
                  <p className="truncate text-muted-foreground text-xs">
                    {h.authors.slice(0, 4).join(", ")}
                    {h.authors.length > 4 ? " et al." : ""} · {h.published?.slice(0, 4) ?? "—"} · {h.arxiv_id} ·{" "}
                    {h.categories.slice(0, 3).join(", ")}
                  </p>
                </div>
                {h.in_library ? (
                  <Badge variant="secondary">In library</Badge>
                ) : (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => addIds([h.arxiv_id])}
                    disabled={add.running || added.has(h.arxiv_id)}
                    aria-label={`Add “${h.title}”`}
                    data-testid="arxiv-result-add"
                  >
                    <PlusIcon />
                    {added.has(h.arxiv_id) ? "Added" : "Add"}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function ImportTab() {
  const imp = useSourceRun();
  const fetchArxiv = useSourceRun();
  const inputId = useId();
  const switchId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [downloadArxiv, setDownloadArxiv] = useState(false);
  const bibs = files.filter((f) => /\.(bib|json)$/i.test(f.name));
  const pdfs = files.filter((f) => /\.pdf$/i.test(f.name));
  const problem =
    files.length === 0
      ? null
      : bibs.length === 0
        ? "Choose the .bib or CSL .json file too."
        : bibs.length > 1
          ? "Choose one bibliography at a time."
          : null;

  const start = () => {
    const form = new FormData();
    for (const f of files) form.append(IMPORT_FILES_FIELD, f, f.name);
    void imp.run((signal) =>
      fetch(`/api/sources/import${downloadArxiv ? "?download_arxiv=1" : ""}`, { method: "POST", body: form, signal }),
    );
  };

  const results = imp.items.flatMap((it) => (it.result ? [it.result] : []));
  const n = (...s: string[]) => results.filter((r) => s.includes(r.status)).length;

  return (
    <div className="space-y-3">
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          start();
        }}
      >
        <Label htmlFor={inputId}>A Zotero or BibTeX export and its PDFs</Label>
        <p className="text-muted-foreground text-xs" id={`${inputId}-hint`}>
          Select the <code>.bib</code> (BibTeX/BibLaTeX, e.g. Zotero's export with “Export Files”) or CSL{" "}
          <code>.json</code> file together with the PDFs from its <code>files/</code> folder; PDFs are matched to
          entries by file name. Zotero RDF is not read.
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            multiple
            accept=".bib,.json,.pdf,application/pdf,application/json"
            aria-describedby={`${inputId}-hint`}
            className="max-w-full text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5 file:font-medium file:text-sm"
            onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
            data-testid="import-files"
          />
          {files.length > 0 && (
            <span className="text-muted-foreground text-xs" data-testid="import-selection">
              {bibs[0]?.name ?? "no bibliography"} + {pdfs.length} {pdfs.length === 1 ? "PDF" : "PDFs"}
            </span>
          )}
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-2">
            <Switch id={switchId} checked={downloadArxiv} onCheckedChange={setDownloadArxiv} />
            <Label htmlFor={switchId} className="font-normal">
              Download entries without a PDF from arXiv when they have an arXiv id
            </Label>
          </div>
          <Button
            type="submit"
            disabled={imp.running || files.length === 0 || problem !== null}
            data-testid="import-start"
          >
            <LibraryIcon />
            Import
          </Button>
        </div>
        {problem && <p className="text-destructive text-xs">{problem}</p>}
      </form>
      {imp.error && (
        <Alert variant="destructive" data-testid="import-error">
          <AlertDescription>{imp.error}</AlertDescription>
        </Alert>
      )}
      {!imp.running && results.length > 0 && (
        <p className="text-sm" data-testid="import-summary" aria-live="polite">
          {n("ingested", "replaced")} ingested, {n("already_in_library")} already present, {n("no_pdf")} no PDF
          {n("arxiv_available") > 0 ? `, ${n("arxiv_available")} on arXiv` : ""}, {n("error")} failed.
        </p>
      )}
      <SourceItems
        title="Import"
        items={imp.items}
        running={imp.running || fetchArxiv.running}
        onFetchFromArxiv={(id) => void fetchArxiv.run(postArxiv([id], false))}
      />
      {fetchArxiv.error && (
        <Alert variant="destructive">
          <AlertDescription>{fetchArxiv.error}</AlertDescription>
        </Alert>
      )}
      <SourceItems title="Fetching from arXiv" items={fetchArxiv.items} running={fetchArxiv.running} />
    </div>
  );
}

/**
 * Papers from outside the machine: add by arXiv id or from an arXiv search, or import a reference manager's export.
 * `folded` (a library that has papers): only the heading and its two
 * tabs show, so the paper list stays near the top of the page; choosing a tab opens the panel on it. A link that offers
 * a paper (`?arxiv=<id>`) opens it.
 */
export function SourcesPanel({ searchArxiv, folded = false }: { searchArxiv: SearchArxiv; folded?: boolean }) {
  const offered = useSearchParams().get("arxiv") !== null;
  const [open, setOpen] = useState(!folded || offered);
  const [tab, setTab] = useState("arxiv");
  const bodyId = useId();
  return (
    <section
      id="add-from-arxiv"
      aria-labelledby="sources-heading"
      className={cn("rounded-xl border bg-card px-4", open ? "py-3" : "py-2")}
      data-testid="sources-panel"
      data-open={open}
    >
      {/* (folded, no tab shows as chosen: the panel is not open on one) */}
      <Tabs
        value={open ? tab : ""}
        onValueChange={(v) => {
          setTab(v);
          setOpen(true);
        }}
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="sources-heading" className="flex items-center gap-2 font-medium text-sm">
            <BookMarkedIcon className="size-4 text-muted-foreground" aria-hidden />
            Add from elsewhere
          </h2>
          <div className="flex items-center gap-1">
            {/* (a tab chosen while the panel is folded opens it: a click on the tab already chosen changes no value) */}
            <TabsList>
              <TabsTrigger value="arxiv" onClick={() => setOpen(true)} data-testid="sources-tab-arxiv">
                Add from arXiv
              </TabsTrigger>
              <TabsTrigger value="import" onClick={() => setOpen(true)} data-testid="sources-tab-import">
                Import a library
              </TabsTrigger>
            </TabsList>
            {open && folded && (
              <Button
                variant="ghost"
                size="icon"
                className="size-8"
                aria-label="Fold adding from elsewhere"
                aria-expanded={open}
                aria-controls={bodyId}
                onClick={() => setOpen(false)}
                data-testid="sources-fold"
              >
                <ChevronUpIcon />
              </Button>
            )}
          </div>
        </div>
        <div id={bodyId} hidden={!open}>
          <TabsContent value="arxiv" forceMount className="pt-1">
            <ArxivTab searchArxiv={searchArxiv} />
          </TabsContent>
          <TabsContent value="import" forceMount className="pt-1">
            <ImportTab />
          </TabsContent>
        </div>
      </Tabs>
    </section>
  );
}

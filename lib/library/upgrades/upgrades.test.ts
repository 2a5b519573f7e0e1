import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type DbHandle, queryRows } from "@/db";
import { getMeta, setMeta } from "@/db/queries/meta";
import { chunks, pages, papers, summaryChunks } from "@/db/schema";
import { createTestDatabase } from "@/db/testing";
import { sentenceTermEnds } from "@/lib/ingest/chunk";
import { passageSearchText, searchText } from "@/lib/text/terms";
import { AUTHORS_VERSION, backfillAuthors } from "./authors";
import { runLibraryUpgrades } from "./index";
import { backfillSearchText, SEARCH_TEXT_VERSION } from "./search-text";
import { backfillSections, SECTIONS_VERSION } from "./sections";

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
  // a new library, as the server's start and the CLI open it: migrated, then upgraded (every version recorded)
  await runLibraryUpgrades(handle);
});
afterAll(async () => {
  await handle?.close();
});

/** A stored paper's row, as the tests need it (the files themselves are never read here). */
function paperRow(id: string, title: string, pageCount = 1) {
  return {
    id,
    docId: id.padEnd(64, "0"),
    title,
    filePath: `papers/${id}.pdf`,
    fileName: `${id}.pdf`,
    fileSize: 1,
    pageCount,
    status: "ready" as const,
  };
}

/** The names of the chunks table's indexes, in order. */
async function chunkIndexes(db: Database): Promise<string[]> {
  const rows = await queryRows<{ indexname: string }>(
    db,
    sql`select indexname from pg_indexes where schemaname = current_schema() and tablename = 'chunks'
        order by indexname`,
  );
  return rows.map((r) => r.indexname);
}

describe("runLibraryUpgrades", () => {
  it("records every upgrade's version in a new library, and then finds nothing to do", async () => {
    const { db } = handle;
    expect(await getMeta(db, { key: "search_text_version" })).toBe(SEARCH_TEXT_VERSION);
    expect(await getMeta(db, { key: "chunk_sections_version" })).toBe(SECTIONS_VERSION);
    expect(await getMeta(db, { key: "paper_authors_version" })).toBe(AUTHORS_VERSION);
    const meta = sql`select key, xmin::text as xmin from library_meta order by key`;
    const before = await queryRows<{ key: string; xmin: string }>(db, meta);
    await runLibraryUpgrades(handle);
    expect(await queryRows<{ key: string; xmin: string }>(db, meta)).toEqual(before);
  });
});

describe("backfillSearchText", () => {
  it("indexes rows stored before search_text existed, in batches, and then has nothing left to do", async () => {
    const { db } = handle;
    await db.insert(papers).values(paperRow("p1", "Old rows"));
    const texts = [
      "Reciprocal rank fusion merges rankings.",
      "Dense retrievers embed passages.",
      "Citations open the page.",
    ];
    // as a library migrated from 0002 holds them: no search_text, so an empty tsvector
    await db.insert(chunks).values(
      texts.map((text, i) => ({
        chunkUid: `c${i}`,
        paperId: "p1",
        pageNumber: 1,
        chunkIndex: i,
        text,
        charStart: 0,
        charEnd: text.length,
        tokenCount: 5,
      })),
    );
    await db.insert(summaryChunks).values({
      chunkUid: "s0",
      paperId: "p1",
      chunkIndex: 0,
      text: "A summary about fusion.",
      charStart: 0,
      charEnd: 23,
    });
    const before = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from chunks where tsv @@ to_tsquery('simple', 'fusion')`,
    );
    expect(before[0]?.n).toBe(0);

    expect(await backfillSearchText(db, { batch: 2 })).toBe(4);

    const [c0] = await db
      .select({ s: chunks.searchText, ends: chunks.sentenceEnds })
      .from(chunks)
      .where(eq(chunks.chunkUid, "c0"));
    // the paper's title first (a contextual header), then the passage
    expect(c0?.s).toBe(passageSearchText("Old rows", texts[0] as string));
    // and the sentence ends, which count those terms, read with them (the library's annotations are current)
    expect(c0?.ends).toEqual(sentenceTermEnds(texts[0] as string));
    expect(c0?.s).toBe(`old row ${searchText(texts[0] as string)}`);
    const found = await queryRows<{ uid: string }>(
      db,
      sql`select chunk_uid as uid from chunks where tsv @@ to_tsquery('simple', 'fusion')`,
    );
    expect(found.map((r) => r.uid)).toEqual(["c0"]);
    const summary = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from summary_chunks where tsv @@ to_tsquery('simple', 'fusion')`,
    );
    expect(summary[0]?.n).toBe(1);

    expect(await backfillSearchText(db)).toBe(0);
  });

  it("above the threshold, drops the table's HNSW and GIN indexes, fills the rows and recreates the indexes", async () => {
    const { db } = handle;
    await db.execute(sql`update chunks set search_text = null`);
    const before = await chunkIndexes(db);
    expect(before).toEqual(expect.arrayContaining(["chunks_embedding_hnsw", "chunks_tsv_gin"]));

    expect(await backfillSearchText(db, { batch: 2, rebuildIndexesAbove: 1 })).toBe(3);

    expect(await chunkIndexes(db)).toEqual(before);
    const found = await queryRows<{ uid: string }>(
      db,
      sql`select chunk_uid as uid from chunks where tsv @@ to_tsquery('simple', 'fusion')`,
    );
    expect(found.map((r) => r.uid)).toEqual(["c0"]);
  });

  it("refills every row, title first, when the library's search text is an older version", async () => {
    const { db } = handle;
    // as a library indexed before the title was added holds them: the passage's terms only
    await db.execute(sql`update chunks set search_text = 'reciprocal rank fusion merg ranking' where chunk_uid = 'c0'`);
    await setMeta(db, { key: "search_text_version", value: 1 });
    const titled = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from chunks where tsv @@ to_tsquery('simple', 'old & row')`,
    );
    expect(titled[0]?.n).toBe(2);

    await setMeta(db, { key: "latent_fit_version", value: 2 });
    const unchanged = await queryRows<{ uid: string; xmin: string }>(
      db,
      sql`select chunk_uid as uid, xmin::text as xmin from chunks where chunk_uid <> 'c0' order by chunk_uid`,
    );

    // every row is examined, and only the one whose terms differ is written
    expect(await backfillSearchText(db, { batch: 2 })).toBe(1);

    const all = await queryRows<{ uid: string }>(
      db,
      sql`select chunk_uid as uid from chunks where tsv @@ to_tsquery('simple', 'old & row') order by chunk_uid`,
    );
    expect(all.map((r) => r.uid)).toEqual(["c0", "c1", "c2"]);
    expect(
      await queryRows<{ uid: string; xmin: string }>(
        db,
        sql`select chunk_uid as uid, xmin::text as xmin from chunks where chunk_uid <> 'c0' order by chunk_uid`,
      ),
    ).toEqual(unchanged);
    expect(await getMeta(db, { key: "search_text_version" })).toBe(SEARCH_TEXT_VERSION);
    // the latent model was fitted on the old terms: marked for a refit
    expect(await getMeta(db, { key: "latent_fit_version" })).toBe(1);
    expect(await backfillSearchText(db)).toBe(0);
  });

  it("after a tokenizer change that alters no row's terms, writes nothing and leaves the latent model alone", async () => {
    const { db } = handle;
    const sectionsBefore = await getMeta(db, { key: "chunk_sections_version" });
    await setMeta(db, { key: "search_text_version", value: SEARCH_TEXT_VERSION - 1 });
    await setMeta(db, { key: "latent_fit_version", value: 2 });
    await setMeta(db, { key: "chunk_sections_version", value: SECTIONS_VERSION });
    expect(await backfillSearchText(db, { batch: 2 })).toBe(0);
    expect(await getMeta(db, { key: "search_text_version" })).toBe(SEARCH_TEXT_VERSION);
    expect(await getMeta(db, { key: "latent_fit_version" })).toBe(2);
    // nor sends the whole library through the sections backfill (at 100k chunks: an index rebuild)
    expect(await getMeta(db, { key: "chunk_sections_version" })).toBe(SECTIONS_VERSION);
    await setMeta(db, { key: "chunk_sections_version", value: sectionsBefore ?? 0 });
  });

  it("rewrites the terms of a passage the old tokenizer read wrongly (mathematical letters)", async () => {
    const { db } = handle;
    const sectionsBefore = await getMeta(db, { key: "chunk_sections_version" });
    const text = "The 𝐀𝐭𝐭𝐞𝐧𝐭𝐢𝐨𝐧 layer.";
    // a paper of its own: its chunks' annotations are read again, no other paper's
    await db.insert(papers).values(paperRow("p9", "Old rows"));
    await db.insert(chunks).values({
      chunkUid: "c9",
      paperId: "p9",
      pageNumber: 1,
      chunkIndex: 9,
      text,
      charStart: 0,
      charEnd: text.length,
      tokenCount: 3,
      // what lower-casing before NFKC produced, and sentence ends that do not fit the text (to see them read again)
      searchText: "old row Attention layer",
      sentenceEnds: [9],
    });
    await setMeta(db, { key: "search_text_version", value: 2 });
    await setMeta(db, { key: "latent_fit_version", value: 2 });
    await setMeta(db, { key: "chunk_sections_version", value: SECTIONS_VERSION });
    expect(await backfillSearchText(db)).toBe(1);
    const [row] = await db
      .select({ s: chunks.searchText, ends: chunks.sentenceEnds })
      .from(chunks)
      .where(eq(chunks.chunkUid, "c9"));
    expect(row?.s).toBe(passageSearchText("Old rows", text));
    expect(row?.s).toBe("old row attention lay");
    // its sentence ends, which count these terms, are read again with it
    expect(row?.ends).toEqual(sentenceTermEnds(text));
    expect(row?.ends).toEqual([2]);
    expect(await getMeta(db, { key: "latent_fit_version" })).toBe(1);
    expect(await getMeta(db, { key: "chunk_sections_version" })).toBe(SECTIONS_VERSION);
    await db.delete(chunks).where(eq(chunks.chunkUid, "c9"));
    await db.delete(papers).where(eq(papers.id, "p9"));
    await setMeta(db, { key: "chunk_sections_version", value: sectionsBefore ?? 0 });
  });
});

describe("backfillSections", () => {
  it("finds each stored page chunk's section in its paper's pages, once", async () => {
    const { db } = handle;
    await db.insert(papers).values(paperRow("p2", "Agents", 2));
    const page1 = "Agents\nAbstract\nWe study agents.\n1 Introduction\nSearch is hard.\n";
    const page2 = "More of the same.\n2 Method\nTwo agents work.\n2.1 Crawler Agent\nSelects papers for the user.\n";
    await db.insert(pages).values([
      { paperId: "p2", pageNumber: 1, text: page1 },
      { paperId: "p2", pageNumber: 2, text: page2 },
    ]);
    const at = (pageNumber: number, text: string, chunkIndex: number) => {
      const charStart = (pageNumber === 1 ? page1 : page2).indexOf(text);
      const chunkUid = `d${pageNumber}${chunkIndex}`;
      return {
        chunkUid,
        paperId: "p2",
        pageNumber,
        chunkIndex,
        text,
        charStart,
        charEnd: charStart + text.length,
        tokenCount: 3,
      };
    };
    // as a library indexed before sections holds them
    await db
      .insert(chunks)
      .values([
        at(1, "Agents", 0),
        at(1, "Search is hard.", 1),
        at(2, "More of the same.", 0),
        at(2, "Selects papers for the user.", 1),
      ]);
    await setMeta(db, { key: "chunk_sections_version", value: 0 });
    const before = await chunkIndexes(db);

    // three of the four have a section (the title line comes before the first heading), and all four get their
    // sentences' ends (the other paper's three got theirs with their search terms); the indexes are rebuilt
    expect(await backfillSections(db, { rebuildIndexesAbove: 1 })).toBe(4);

    const stored = await db
      .select({ section: chunks.section })
      .from(chunks)
      .where(eq(chunks.paperId, "p2"))
      .orderBy(chunks.chunkUid);
    expect(stored.map((r) => r.section)).toEqual([
      null,
      "1 Introduction",
      "1 Introduction",
      "2 Method › 2.1 Crawler Agent",
    ]);
    expect(await chunkIndexes(db)).toEqual(before);
    // the rows of the paper without headings are left alone, and the search text is unchanged
    const [p1] = await db
      .select({ section: chunks.section, s: chunks.searchText })
      .from(chunks)
      .where(eq(chunks.chunkUid, "c1"));
    expect(p1?.section).toBeNull();
    expect(p1?.s).toBe(passageSearchText("Old rows", "Dense retrievers embed passages."));
    expect(await getMeta(db, { key: "chunk_sections_version" })).toBe(SECTIONS_VERSION);
    expect(await backfillSections(db)).toBe(0);
  });

  it("finds them again for a newer section finder, clearing labels it no longer finds (indexes kept in place)", async () => {
    const { db } = handle;
    // a label an older finder gave the title line, which comes before the first heading
    await db.update(chunks).set({ section: "1 Stale" }).where(eq(chunks.chunkUid, "d10"));
    await setMeta(db, { key: "chunk_sections_version", value: SECTIONS_VERSION - 1 });
    const started: number[] = [];
    expect(await backfillSections(db, { onStart: (n) => started.push(n) })).toBe(1);
    expect(started).toEqual([7]);
    const [d10] = await db.select({ section: chunks.section }).from(chunks).where(eq(chunks.chunkUid, "d10"));
    expect(d10?.section).toBeNull();
  });

  it("a failure leaves the sections and the version as they were; the next run does the work", async () => {
    const { db } = handle;
    await db.update(chunks).set({ section: null }).where(eq(chunks.paperId, "p2"));
    await setMeta(db, { key: "chunk_sections_version", value: 0 });
    // the sections are written, then recording the version fails: all of it is rolled back
    await db.execute(sql`create function lectern_refuse() returns trigger language plpgsql as $$
      begin raise exception 'version write refused'; end $$`);
    await db.execute(sql`create trigger lectern_refuse_version before insert or update on library_meta
      for each row when (new.key = 'chunk_sections_version') execute function lectern_refuse()`);
    try {
      await expect(backfillSections(db)).rejects.toMatchObject({
        cause: expect.objectContaining({ message: expect.stringMatching(/version write refused/) }),
      });
    } finally {
      await db.execute(sql`drop trigger lectern_refuse_version on library_meta`);
      await db.execute(sql`drop function lectern_refuse()`);
    }
    const after = await db.select({ section: chunks.section }).from(chunks).where(eq(chunks.paperId, "p2"));
    expect(after.every((r) => r.section === null)).toBe(true);
    expect(await getMeta(db, { key: "chunk_sections_version" })).toBe(0);

    expect(await backfillSections(db)).toBe(3);
    expect(await getMeta(db, { key: "chunk_sections_version" })).toBe(SECTIONS_VERSION);
  });

  it("two runs at once do the work once", async () => {
    const { db } = handle;
    await db.update(chunks).set({ section: null }).where(eq(chunks.paperId, "p2"));
    await setMeta(db, { key: "chunk_sections_version", value: 0 });
    const runs = await Promise.all([backfillSections(db), backfillSections(db)]);
    expect(runs.sort()).toEqual([0, 3]);
  });

  it("flags the chunks of a paper's reference list, not the supplement after it", async () => {
    const { db } = handle;
    await db.insert(papers).values(paperRow("p5", "Cited"));
    const entries =
      "A. Vaswani and N. Shazeer. 2017. Attention is all you need. In NeurIPS 2017. J. Devlin and M. Chang. 2019. " +
      "BERT: pre-training of deep bidirectional transformers. In NAACL 2019.";
    const supplement = `Figure 9 shows the ablation: ${"accuracy rises with width and depth. ".repeat(12)}`;
    const text = `1 Introduction\nWe cite others.\nReferences\n${entries}\n${supplement}`;
    await db.insert(pages).values({ paperId: "p5", pageNumber: 1, text });
    const chunk = (uid: string, part: string, chunkIndex: number) => ({
      chunkUid: uid,
      paperId: "p5",
      pageNumber: 1,
      chunkIndex,
      text: part,
      charStart: text.indexOf(part),
      charEnd: text.indexOf(part) + part.length,
      tokenCount: 3,
    });
    // as a library indexed before the flag holds them: every chunk content
    await db
      .insert(chunks)
      .values([chunk("f0", "We cite others.", 0), chunk("f1", entries, 1), chunk("f2", supplement.trim(), 2)]);
    await setMeta(db, { key: "chunk_sections_version", value: SECTIONS_VERSION - 1 });
    // (a lone numbered heading is not taken for a section: the first chunk keeps none, but gets its sentences)
    expect(await backfillSections(db)).toBe(3);
    const stored = await db
      .select({
        uid: chunks.chunkUid,
        section: chunks.section,
        bibliography: chunks.bibliography,
        ends: chunks.sentenceEnds,
      })
      .from(chunks)
      .where(eq(chunks.paperId, "p5"))
      .orderBy(chunks.chunkUid);
    expect(stored).toEqual([
      { uid: "f0", section: null, bibliography: false, ends: [2] },
      { uid: "f1", section: "References", bibliography: true, ends: sentenceTermEnds(entries) },
      { uid: "f2", section: "References", bibliography: false, ends: sentenceTermEnds(supplement.trim()) },
    ]);
    // the sentences' ends are stored too (for the best-sentence ranking), the same as ingestion writes them
    expect(stored[2]?.ends?.length).toBe(12);
    // a flag changed: the latent model, fitted without the reference lists, is to be fitted again
    expect(await getMeta(db, { key: "latent_fit_version" })).toBe(1);
    await setMeta(db, { key: "latent_fit_version", value: 2 });
    await setMeta(db, { key: "chunk_sections_version", value: SECTIONS_VERSION - 1 });
    expect(await backfillSections(db)).toBe(0);
    expect(await getMeta(db, { key: "latent_fit_version" })).toBe(2);
  });
});

describe("backfillAuthors", () => {
  it("reads the authors of papers stored without any from their first page, and leaves the others alone", async () => {
    const { db } = handle;
    const paper = (id: string, title: string, authors: string[], editedFields: string[] = []) => ({
      ...paperRow(id, title),
      authors,
      editedFields,
    });
    await db.insert(papers).values([
      paper("ga", "DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning", []),
      paper("gb", "A Paper Read Well Before", ["Ada Lovelace"]),
      paper("gc", "A Study Without Named Authors", []),
      // its user cleared the authors on purpose
      paper("gd", "DeepSeek-R1 Cleared by Its User", [], ["authors"]),
      paper("ge", "Scaling Collective Reasoning with One Very Long Title Line", []),
    ]);
    const abstract = "Abstract\nWe study how reasoning emerges from reinforcement learning without supervision.";
    await db.insert(pages).values([
      {
        paperId: "ga",
        pageNumber: 1,
        // the first page as the DeepSeek-R1 paper's reads: a collective author under a title wrapped over two lines
        text: `DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via\nReinforcement Learning\nDeepSeek-AI\nresearch@deepseek.com\n${abstract}`,
      },
      {
        paperId: "gb",
        pageNumber: 1,
        // read now, this page would give "DeepSeek-AI": the author stored before is kept all the same
        text: `A Paper Read Well Before on Learning via\nReinforcement Learning\nDeepSeek-AI\nresearch@deepseek.com\n${abstract}`,
      },
      { paperId: "gc", pageNumber: 1, text: `A Study Without Named Authors\n${abstract}` },
      {
        paperId: "gd",
        pageNumber: 1,
        text: `DeepSeek-R1 Cleared by Its User\nDeepSeek-AI\nresearch@deepseek.com\n${abstract}`,
      },
      {
        paperId: "ge",
        pageNumber: 1,
        // version 2 of the reading: a collective author under a title of one line
        text: `Scaling Collective Reasoning with One Very Long Title Line\nOrbital-AI\nhello@orbital.example\n${abstract}`,
      },
    ]);
    await setMeta(db, { key: "paper_authors_version", value: 0 });
    expect(await backfillAuthors(db)).toBe(2);
    const rows = await db
      .select({ id: papers.id, authors: papers.authors })
      .from(papers)
      .where(sql`${papers.id} in ('ga', 'gb', 'gc', 'gd', 'ge')`)
      .orderBy(papers.id);
    expect(rows).toEqual([
      { id: "ga", authors: ["DeepSeek-AI"] },
      { id: "gb", authors: ["Ada Lovelace"] },
      { id: "gc", authors: [] },
      { id: "gd", authors: [] },
      { id: "ge", authors: ["Orbital-AI"] },
    ]);
    expect(await getMeta(db, { key: "paper_authors_version" })).toBe(AUTHORS_VERSION);
    // done once per version of the reading
    await db.update(papers).set({ authors: [] }).where(eq(papers.id, "ga"));
    expect(await backfillAuthors(db)).toBe(0);
    await db.delete(papers).where(sql`${papers.id} in ('ga', 'gb', 'gc', 'gd', 'ge')`);
  });
});

-- Full-text search over the library's own terms (lib/text/terms.ts) instead of Postgres's English stemmer: the
-- application writes search_text with every row; rows stored before this migration are filled by the backfill that
-- runs right after migrations (db/index.ts), until then they are not found by full text. Dropping tsv drops its GIN
-- index, so both are recreated.
ALTER TABLE "chunks" ADD COLUMN "search_text" text;--> statement-breakpoint
ALTER TABLE "summary_chunks" ADD COLUMN "search_text" text;--> statement-breakpoint
ALTER TABLE "chunks" DROP COLUMN "tsv";--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce("search_text", ''))) STORED;--> statement-breakpoint
ALTER TABLE "summary_chunks" DROP COLUMN "tsv";--> statement-breakpoint
ALTER TABLE "summary_chunks" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce("search_text", ''))) STORED;--> statement-breakpoint
CREATE INDEX "chunks_tsv_gin" ON "chunks" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "summary_chunks_tsv_gin" ON "summary_chunks" USING gin ("tsv");

CREATE TABLE "chunks" (
	"chunk_uid" text PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"page_number" integer NOT NULL,
	"chunk_index" integer NOT NULL,
	"text" text NOT NULL,
	"char_start" integer NOT NULL,
	"char_end" integer NOT NULL,
	"token_count" integer NOT NULL,
	"embedding" vector(512),
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "text")) STORED
);
--> statement-breakpoint
CREATE TABLE "library_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"paper_id" text NOT NULL,
	"page_number" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "pages_paper_id_page_number_pk" PRIMARY KEY("paper_id","page_number")
);
--> statement-breakpoint
CREATE TABLE "papers" (
	"id" text PRIMARY KEY NOT NULL,
	"doc_id" text NOT NULL,
	"arxiv_id" text,
	"title" text NOT NULL,
	"authors" text[] DEFAULT '{}'::text[] NOT NULL,
	"abstract" text,
	"published_date" date,
	"year" integer,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"doi" text,
	"file_path" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"page_count" integer NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "papers_doc_id_unique" UNIQUE("doc_id")
);
--> statement-breakpoint
CREATE TABLE "summaries" (
	"paper_id" text PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"method" text NOT NULL,
	"model" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "summary_chunks" (
	"chunk_uid" text PRIMARY KEY NOT NULL,
	"paper_id" text NOT NULL,
	"chunk_index" integer NOT NULL,
	"text" text NOT NULL,
	"char_start" integer NOT NULL,
	"char_end" integer NOT NULL,
	"pages" integer[] DEFAULT '{}'::int[] NOT NULL,
	"embedding" vector(512),
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "text")) STORED
);
--> statement-breakpoint
ALTER TABLE "chunks" ADD CONSTRAINT "chunks_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "pages" ADD CONSTRAINT "pages_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "summaries" ADD CONSTRAINT "summaries_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "summary_chunks" ADD CONSTRAINT "summary_chunks_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "chunks_paper_page_idx" ON "chunks" USING btree ("paper_id","page_number");--> statement-breakpoint
CREATE INDEX "chunks_embedding_hnsw" ON "chunks" USING hnsw ("embedding" vector_cosine_ops);--> statement-breakpoint
CREATE INDEX "chunks_tsv_gin" ON "chunks" USING gin ("tsv");--> statement-breakpoint
CREATE INDEX "papers_year_idx" ON "papers" USING btree ("year");--> statement-breakpoint
CREATE INDEX "papers_created_idx" ON "papers" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "summary_chunks_paper_idx" ON "summary_chunks" USING btree ("paper_id");--> statement-breakpoint
CREATE INDEX "summary_chunks_embedding_hnsw" ON "summary_chunks" USING hnsw ("embedding" vector_cosine_ops);--> statement-breakpoint
CREATE INDEX "summary_chunks_tsv_gin" ON "summary_chunks" USING gin ("tsv");
CREATE TABLE "graph_papers" (
	"paper_id" text PRIMARY KEY NOT NULL,
	"doc_id" text NOT NULL,
	"extractor" text NOT NULL,
	"edges" integer NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "graph_papers" ADD CONSTRAINT "graph_papers_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;
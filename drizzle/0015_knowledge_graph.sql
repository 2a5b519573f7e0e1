CREATE TABLE "graph_alias_suggestions" (
	"id" serial PRIMARY KEY NOT NULL,
	"entity_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"similarity" real,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "graph_edges" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"relation" text NOT NULL,
	"paper_id" text NOT NULL,
	"page" integer NOT NULL,
	"quote" text NOT NULL,
	"char_start" integer NOT NULL,
	"char_end" integer NOT NULL,
	"confidence" real NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"extractor" text NOT NULL,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "graph_entities" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"canonical_name" text NOT NULL,
	"type" text NOT NULL,
	"description" text,
	"embedding" vector(512),
	"alias_of" integer,
	"alias_tier" text,
	"alias_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "graph_entities_canonical_name_unique" UNIQUE("canonical_name")
);
--> statement-breakpoint
CREATE TABLE "graph_mentions" (
	"entity_id" integer NOT NULL,
	"paper_id" text NOT NULL,
	"page" integer,
	"count" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "graph_mentions_entity_id_paper_id_pk" PRIMARY KEY("entity_id","paper_id")
);
--> statement-breakpoint
ALTER TABLE "graph_alias_suggestions" ADD CONSTRAINT "graph_alias_suggestions_entity_id_graph_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."graph_entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graph_alias_suggestions" ADD CONSTRAINT "graph_alias_suggestions_candidate_id_graph_entities_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."graph_entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graph_edges" ADD CONSTRAINT "graph_edges_source_id_graph_entities_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."graph_entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graph_edges" ADD CONSTRAINT "graph_edges_target_id_graph_entities_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."graph_entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graph_edges" ADD CONSTRAINT "graph_edges_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "graph_entities" ADD CONSTRAINT "graph_entities_alias_of_graph_entities_id_fk" FOREIGN KEY ("alias_of") REFERENCES "public"."graph_entities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graph_mentions" ADD CONSTRAINT "graph_mentions_entity_id_graph_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "public"."graph_entities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graph_mentions" ADD CONSTRAINT "graph_mentions_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE UNIQUE INDEX "graph_alias_suggestions_pair_idx" ON "graph_alias_suggestions" USING btree ("entity_id","candidate_id");--> statement-breakpoint
CREATE INDEX "graph_edges_target_idx" ON "graph_edges" USING btree ("target_id","relation");--> statement-breakpoint
CREATE INDEX "graph_edges_source_idx" ON "graph_edges" USING btree ("source_id","relation");--> statement-breakpoint
CREATE INDEX "graph_edges_paper_idx" ON "graph_edges" USING btree ("paper_id");--> statement-breakpoint
CREATE INDEX "graph_entities_alias_idx" ON "graph_entities" USING btree ("alias_of");--> statement-breakpoint
CREATE INDEX "graph_entities_type_idx" ON "graph_entities" USING btree ("type");--> statement-breakpoint
CREATE INDEX "graph_mentions_paper_idx" ON "graph_mentions" USING btree ("paper_id");
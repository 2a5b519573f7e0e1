CREATE TABLE "research_citations" (
	"run_id" text NOT NULL,
	"position" integer NOT NULL,
	"paper_id" text NOT NULL,
	"page" integer NOT NULL,
	"chunk_uid" text,
	"marker" text NOT NULL,
	"claim" text NOT NULL,
	"quote" text NOT NULL,
	"char_start" integer,
	"char_end" integer,
	"supported" boolean NOT NULL,
	"support" real NOT NULL,
	"reason" text,
	CONSTRAINT "research_citations_run_id_position_pk" PRIMARY KEY("run_id","position")
);
--> statement-breakpoint
CREATE TABLE "research_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"question" text NOT NULL,
	"status" text NOT NULL,
	"mode" text NOT NULL,
	"model" text NOT NULL,
	"parent_id" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"answer_markdown" text DEFAULT '' NOT NULL,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"retrieved" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" jsonb,
	"feedback_rating" text,
	"feedback_comment" text,
	"feedback_at" timestamp with time zone,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"duration_ms" integer
);
--> statement-breakpoint
CREATE TABLE "research_steps" (
	"run_id" text NOT NULL,
	"step_id" text NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"duration_ms" integer,
	"payload" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "research_steps_run_id_step_id_pk" PRIMARY KEY("run_id","step_id")
);
--> statement-breakpoint
ALTER TABLE "research_citations" ADD CONSTRAINT "research_citations_run_id_research_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."research_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_steps" ADD CONSTRAINT "research_steps_run_id_research_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."research_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "research_citations_paper_idx" ON "research_citations" USING btree ("paper_id");--> statement-breakpoint
CREATE INDEX "research_runs_started_idx" ON "research_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "research_runs_parent_idx" ON "research_runs" USING btree ("parent_id");
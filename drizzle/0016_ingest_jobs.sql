CREATE TABLE "ingest_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"actor_id" text,
	"origin" text NOT NULL,
	"total" integer NOT NULL,
	"library_status" text DEFAULT 'waiting' NOT NULL,
	"library_stage" text,
	"library_done" integer,
	"library_of" integer,
	"library_result" jsonb,
	"library_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingest_files" (
	"id" text PRIMARY KEY NOT NULL,
	"batch_id" text NOT NULL,
	"position" integer NOT NULL,
	"file_name" text NOT NULL,
	"size" integer,
	"upload_key" text,
	"metadata" jsonb,
	"status" text DEFAULT 'queued' NOT NULL,
	"stage" text,
	"stage_done" integer,
	"stage_of" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"paper_id" text,
	"title" text,
	"pages" integer,
	"chunks" integer,
	"error" text,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ingest_batches" ADD CONSTRAINT "ingest_batches_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_files" ADD CONSTRAINT "ingest_files_batch_id_ingest_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."ingest_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingest_batches_created_idx" ON "ingest_batches" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ingest_files_batch_idx" ON "ingest_files" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "ingest_files_status_idx" ON "ingest_files" USING btree ("status","updated_at");
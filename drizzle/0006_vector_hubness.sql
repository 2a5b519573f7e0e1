CREATE TABLE "chunk_hubness" (
	"chunk_uid" text PRIMARY KEY NOT NULL,
	"hubness" real NOT NULL
);
--> statement-breakpoint
CREATE TABLE "summary_chunk_hubness" (
	"chunk_uid" text PRIMARY KEY NOT NULL,
	"hubness" real NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chunk_hubness" ADD CONSTRAINT "chunk_hubness_chunk_uid_chunks_chunk_uid_fk" FOREIGN KEY ("chunk_uid") REFERENCES "public"."chunks"("chunk_uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "summary_chunk_hubness" ADD CONSTRAINT "summary_chunk_hubness_chunk_uid_summary_chunks_chunk_uid_fk" FOREIGN KEY ("chunk_uid") REFERENCES "public"."summary_chunks"("chunk_uid") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "research_runs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "research_runs" ADD COLUMN "lease_expires_at" timestamp with time zone;
ALTER TABLE "research_citations" ADD COLUMN "relevance" text;--> statement-breakpoint
ALTER TABLE "research_citations" ADD COLUMN "relevance_reason" text;
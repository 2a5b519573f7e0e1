-- Research steps are a union discriminated by kind (lib/research/types.ts): deep research's outline and framing steps
-- get kinds of their own, a knowledge point's search the stage "point", and a step without data stores null.
UPDATE "research_steps" SET "type" = 'outline', "payload" = jsonb_set("payload", '{type}', '"outline"')
WHERE "step_id" = 'outline' AND "type" = 'analysis';
--> statement-breakpoint
UPDATE "research_steps" SET "type" = 'framing', "payload" = jsonb_set("payload", '{type}', '"framing"')
WHERE "step_id" = 'framing' AND "type" = 'synthesis';
--> statement-breakpoint
UPDATE "research_steps" SET "payload" = jsonb_set("payload", '{stage}', '"point"')
WHERE "type" = 'rag_search' AND "step_id" LIKE 'point\_%';
--> statement-breakpoint
UPDATE "research_steps" SET "payload" = jsonb_set("payload", '{data}', 'null'::jsonb)
WHERE "payload"->'data' = '{}'::jsonb;
--> statement-breakpoint
UPDATE "research_steps" SET "payload" = jsonb_set("payload", '{data,method}', '"extractive"')
WHERE "type" = 'synthesis' AND jsonb_typeof("payload"->'data') = 'object' AND NOT ("payload"->'data' ? 'method');
--> statement-breakpoint
-- runs a restart left behind were marked failed with this message; they are `interrupted` now
UPDATE "research_runs" SET "status" = 'interrupted',
  "error" = jsonb_build_object('code', 'interrupted', 'message', "error"->>'message', 'hint', 'Run it again for a complete answer.')
WHERE "status" = 'failed' AND "error"->>'message' LIKE 'The run was interrupted%';

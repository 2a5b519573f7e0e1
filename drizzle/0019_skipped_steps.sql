-- Steps a run ended before reaching were left `pending` in runs saved before the `skipped` status (a run now marks
-- them itself when it ends, lib/research/lifecycle.ts): an ended run's pending steps are skipped.
UPDATE "research_steps" AS s
SET "status" = 'skipped', "payload" = s."payload" || '{"status": "skipped"}'::jsonb
FROM "research_runs" AS r
WHERE r."id" = s."run_id" AND r."status" <> 'running' AND s."status" = 'pending';

-- HNSW with a denser graph (db/schema.ts, HNSW_OPTIONS: m 32, ef_construction 128), and on PostgreSQL over
-- half-precision vectors: at 100k chunks pgvector's defaults (m 16, ef_construction 64) never reached recall@15 0.95
-- against exact search; this index reaches 0.96 at ef_search 800 in ~43 ms, 40 % smaller. PGlite (WebAssembly, no
-- hardware half-float conversion: half precision is 5x slower there) keeps full precision with the same graph
-- settings (db/schema.ts, HnswPrecision). The cast takes the columns' current dimension, which re-embedding may have
-- changed from the schema's 512. A larger maintenance_work_mem keeps the graph in memory while it is built (64 MB
-- holds ~23k vectors of 512 dimensions); the build is serial, because a parallel build puts a graph of that size in
-- shared memory, which a container's default /dev/shm (64 MB) cannot hold — the app migrates at start and would not
-- come up.
DO $$
DECLARE
  t text;
  dims int;
  key text;
BEGIN
  PERFORM set_config('maintenance_work_mem', '512MB', true);
  PERFORM set_config('max_parallel_maintenance_workers', '0', true);
  FOREACH t IN ARRAY ARRAY['chunks', 'summary_chunks'] LOOP
    SELECT atttypmod INTO dims FROM pg_attribute WHERE attrelid = t::regclass AND attname = 'embedding';
    IF version() LIKE '%wasm32%' THEN
      key := 'embedding vector_cosine_ops';
    ELSE
      key := format('(embedding::halfvec(%s)) halfvec_cosine_ops', dims);
    END IF;
    EXECUTE format('DROP INDEX IF EXISTS %I', t || '_embedding_hnsw');
    EXECUTE format('CREATE INDEX %I ON %I USING hnsw (%s) WITH (m = 32, ef_construction = 128)',
      t || '_embedding_hnsw', t, key);
  END LOOP;
END $$;

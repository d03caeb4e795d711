-- Log details and statistics (DESIGN.md "Log details and statistics"), written by hand like
-- the init migration (docs/database.md).

-- request_logs is partitioned: columns added to the parent reach every partition, and with a
-- constant default (or none) this is a catalogue change, not a rewrite.
ALTER TABLE "request_logs" ADD COLUMN "query" VARCHAR(2048) NOT NULL DEFAULT '';
ALTER TABLE "request_logs" ADD COLUMN "message" VARCHAR(1024);
ALTER TABLE "request_logs" ADD COLUMN "error_node_id" VARCHAR(100);

-- Per-minute (span_s 60) and per-hour (span_s 3600) aggregates of request_logs, written by
-- log-ingest in the transaction that inserts the rows. Two groupings per span: the whole
-- project (method '', status 0) and per method and status. `latency_histogram` maps a bucket
-- of flowgate_latency_bucket to its count. `shard` is the log-ingest writer slot that wrote
-- the row: concurrent transactions add to different rows instead of waiting for each
-- other's locks; readers sum the shards.
CREATE TABLE "request_log_rollups" (
    "project_id" UUID NOT NULL,
    "span_s" INTEGER NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "method" VARCHAR(16) NOT NULL,
    "status" SMALLINT NOT NULL,
    "shard" SMALLINT NOT NULL,
    "count" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "latency_histogram" JSONB NOT NULL,

    CONSTRAINT "request_log_rollups_pkey" PRIMARY KEY ("project_id","span_s","method","status","bucket","shard")
);

-- Log-spaced latency buckets: 0 below 0.01 ms, then bucket b covers
-- [0.01 * 1.08^(b-1), 0.01 * 1.08^b) ms, up to 255 (≈ 50 minutes and beyond). Reading a
-- bucket as its geometric middle is within 4 % of any value in it. Must match
-- libs/db/src/request-log-rollups.ts (a test compares them).
CREATE FUNCTION "flowgate_latency_bucket"(ms REAL)
RETURNS SMALLINT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT CASE WHEN ms < 0.01 THEN 0
                ELSE least(255, 1 + floor(ln(ms::float8 / 0.01::float8) / ln(1.08::float8)))
           END::smallint
$$;

-- Adds two latency histograms bucket by bucket (the upsert of a rollup row).
CREATE FUNCTION "flowgate_merge_latency_histograms"(a JSONB, b JSONB)
RETURNS JSONB
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT a || coalesce((SELECT jsonb_object_agg(key, value::int + coalesce((a ->> key)::int, 0))
                            FROM jsonb_each_text(b)), '{}'::jsonb)
$$;

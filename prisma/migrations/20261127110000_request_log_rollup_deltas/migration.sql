-- What log-ingest adds to the stats rollups, appended in the transaction of the rows instead
-- of upserted there (docs/log-pipeline.md, "Stats rollups"). One row per write, project,
-- environment, UTC minute, method and status: `count` requests (all errors when status ≥ 400)
-- and their latency histogram as two arrays, bucket of flowgate_latency_bucket → count.
-- A fold (foldRequestLogRollupDeltas, libs/db/src/request-log-rollups.ts) moves them into
-- request_log_rollups and deletes them in one statement; readers add the rows not folded yet, so stats stay exact.
-- `write_id` tells apart the rows of two writes of the same cell; the primary key is also the
-- index readers find a project's rows by.
CREATE TABLE "request_log_rollup_deltas" (
    "project_id" UUID NOT NULL,
    "environment" VARCHAR(8) NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "method" VARCHAR(16) NOT NULL,
    "status" SMALLINT NOT NULL,
    "write_id" UUID NOT NULL,
    "count" INTEGER NOT NULL,
    "latency_buckets" SMALLINT[],
    "latency_counts" INTEGER[],

    CONSTRAINT "request_log_rollup_deltas_pkey" PRIMARY KEY ("project_id","environment","bucket","method","status","write_id")
);

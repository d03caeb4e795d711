-- Hand-written in the form `prisma migrate dev` generates for prisma/schema.prisma (see
-- docs/database.md). request_logs is partitioned by day, which Prisma cannot express; the
-- partition helpers at the end are called by the worker's retention job.

-- CreateEnum
CREATE TYPE "integration_kind" AS ENUM ('text_generation', 'email');

-- CreateEnum
CREATE TYPE "http_method" AS ENUM ('GET', 'POST', 'PUT', 'PATCH', 'DELETE');

-- CreateEnum
CREATE TYPE "endpoint_auth" AS ENUM ('none', 'user', 'admin');

-- CreateEnum
CREATE TYPE "key_permission" AS ENUM ('user', 'admin');

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "subdomain" VARCHAR(63) NOT NULL,
    "require_auth" BOOLEAN NOT NULL DEFAULT false,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "integrations" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "kind" "integration_kind" NOT NULL,
    "provider" VARCHAR(32) NOT NULL,
    "secret_encrypted" TEXT NOT NULL,
    "secret_last4" VARCHAR(4) NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endpoints" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "method" "http_method" NOT NULL DEFAULT 'GET',
    "path" VARCHAR(255) NOT NULL,
    "auth" "endpoint_auth" NOT NULL DEFAULT 'none',
    "query_params" JSONB NOT NULL DEFAULT '[]',
    "flow" JSONB NOT NULL,
    "live_version" INTEGER,
    "draft_changed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endpoint_versions" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "method" "http_method" NOT NULL,
    "path" VARCHAR(255) NOT NULL,
    "auth" "endpoint_auth" NOT NULL,
    "query_params" JSONB NOT NULL,
    "flow" JSONB NOT NULL,
    "compiled" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "endpoint_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" VARCHAR(50) NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "display_prefix" VARCHAR(16) NOT NULL,
    "ratelimit_min" INTEGER NOT NULL DEFAULT 60,
    "permission" "key_permission" NOT NULL DEFAULT 'user',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable (partitioned by day on "time"; the primary key must contain the partition key)
CREATE TABLE "request_logs" (
    "id" UUID NOT NULL,
    "time" TIMESTAMPTZ(3) NOT NULL,
    "project_id" UUID NOT NULL,
    "endpoint_id" UUID,
    "path" VARCHAR(2048) NOT NULL,
    "method" VARCHAR(16) NOT NULL,
    "status" SMALLINT NOT NULL,
    "code" VARCHAR(64),
    "duration_ms" REAL NOT NULL,
    "key_id" UUID,

    CONSTRAINT "request_logs_pkey" PRIMARY KEY ("time","id")
) PARTITION BY RANGE ("time");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts"("email");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");

-- CreateIndex
CREATE INDEX "sessions_account_id_idx" ON "sessions"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "projects_subdomain_key" ON "projects"("subdomain");

-- CreateIndex
CREATE INDEX "projects_account_id_idx" ON "projects"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "integrations_project_id_kind_key" ON "integrations"("project_id", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "endpoints_project_id_method_path_key" ON "endpoints"("project_id", "method", "path");

-- CreateIndex
CREATE UNIQUE INDEX "endpoint_versions_endpoint_id_version_key" ON "endpoint_versions"("endpoint_id", "version");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_project_id_created_at_idx" ON "api_keys"("project_id", "created_at");

-- CreateIndex (on the partitioned parent: every partition gets it)
CREATE INDEX "request_logs_project_id_time_id_idx" ON "request_logs"("project_id", "time" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_logs_project_id_path_time_id_idx" ON "request_logs"("project_id", "path", "time" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_logs_project_id_status_time_id_idx" ON "request_logs"("project_id", "status", "time" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_logs_project_id_method_time_id_idx" ON "request_logs"("project_id", "method", "time" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "projects" ADD CONSTRAINT "projects_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_versions" ADD CONSTRAINT "endpoint_versions_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- request_logs partitions. A row whose day has no partition lands in the DEFAULT partition,
-- so ingestion never fails; creating that day's partition later moves such rows into it.
CREATE TABLE "request_logs_default" PARTITION OF "request_logs" DEFAULT;

-- Creates the daily partitions request_logs_pYYYYMMDD for `days` UTC days from `from_day`
-- (existing ones are kept) and returns the names it created. Idempotent and serialised.
CREATE FUNCTION "flowgate_ensure_request_log_partitions"(from_day DATE, days INTEGER)
RETURNS SETOF TEXT
LANGUAGE plpgsql
AS $$
DECLARE
    parent REGCLASS := 'request_logs'::regclass;
    schema_name TEXT;
    locked BOOLEAN := false;
    day DATE;
    part TEXT;
    lower_bound TIMESTAMPTZ;
    upper_bound TIMESTAMPTZ;
    strays BOOLEAN;
BEGIN
    IF from_day IS NULL OR days IS NULL OR days < 0 THEN
        RAISE EXCEPTION 'flowgate_ensure_request_log_partitions: from_day must be a date and days >= 0';
    END IF;
    -- One creator at a time (the worker may run on several replicas).
    PERFORM pg_advisory_xact_lock(hashtextextended('flowgate:request_log_partitions', 0));
    SELECT n.nspname INTO schema_name
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.oid = parent;

    FOR i IN 0 .. days - 1 LOOP
        day := from_day + i;
        part := 'request_logs_p' || to_char(day, 'YYYYMMDD');
        CONTINUE WHEN to_regclass(format('%I.%I', schema_name, part)) IS NOT NULL;

        IF NOT locked THEN
            -- Adding a partition locks the parent anyway; taking it first makes the check of
            -- the default partition below race-free against concurrent inserts.
            EXECUTE format('LOCK TABLE %I.request_logs IN ACCESS EXCLUSIVE MODE', schema_name);
            locked := true;
        END IF;

        lower_bound := day::timestamp AT TIME ZONE 'UTC';
        upper_bound := (day + 1)::timestamp AT TIME ZONE 'UTC';
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I.request_logs_default WHERE "time" >= $1 AND "time" < $2)', schema_name)
           INTO strays USING lower_bound, upper_bound;

        IF strays THEN
            -- Rows for this day already sit in the default partition: move them into a new
            -- table, then attach it (attaching creates the parent's indexes on it).
            EXECUTE format('CREATE TABLE %I.%I (LIKE %I.request_logs INCLUDING DEFAULTS INCLUDING CONSTRAINTS)',
                           schema_name, part, schema_name);
            EXECUTE format('WITH moved AS (DELETE FROM %I.request_logs_default WHERE "time" >= $1 AND "time" < $2 RETURNING *) '
                           'INSERT INTO %I.%I SELECT * FROM moved', schema_name, schema_name, part)
               USING lower_bound, upper_bound;
            EXECUTE format('ALTER TABLE %I.request_logs ATTACH PARTITION %I.%I FOR VALUES FROM (%L) TO (%L)',
                           schema_name, schema_name, part, lower_bound, upper_bound);
        ELSE
            EXECUTE format('CREATE TABLE %I.%I PARTITION OF %I.request_logs FOR VALUES FROM (%L) TO (%L)',
                           schema_name, part, schema_name, lower_bound, upper_bound);
        END IF;
        RETURN NEXT part;
    END LOOP;
END;
$$;

-- Retention: drops the daily partitions of days before `older_than` (UTC) and deletes rows
-- older than it from the default partition, which itself is never dropped. Returns the
-- names of the dropped partitions.
CREATE FUNCTION "flowgate_drop_request_log_partitions"(older_than DATE)
RETURNS SETOF TEXT
LANGUAGE plpgsql
AS $$
DECLARE
    parent REGCLASS := 'request_logs'::regclass;
    schema_name TEXT;
    cutoff TIMESTAMPTZ;
    part RECORD;
BEGIN
    IF older_than IS NULL THEN
        RAISE EXCEPTION 'flowgate_drop_request_log_partitions: older_than must be a date';
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('flowgate:request_log_partitions', 0));
    SELECT n.nspname INTO schema_name
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.oid = parent;
    cutoff := older_than::timestamp AT TIME ZONE 'UTC';

    FOR part IN
        SELECT c.relname
          FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = parent
           AND c.relname ~ '^request_logs_p[0-9]{8}$'
           AND to_date(substring(c.relname FROM 15), 'YYYYMMDD') < older_than
         ORDER BY c.relname
    LOOP
        EXECUTE format('DROP TABLE %I.%I', schema_name, part.relname);
        RETURN NEXT part.relname;
    END LOOP;

    EXECUTE format('DELETE FROM %I.request_logs_default WHERE "time" < $1', schema_name) USING cutoff;
END;
$$;

-- Partitions from yesterday to a week ahead; the worker's daily job keeps the window moving.
SELECT count(*) AS "created_partitions"
  FROM "flowgate_ensure_request_log_partitions"(((now() AT TIME ZONE 'UTC')::date) - 1, 9);

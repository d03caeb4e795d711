-- Secrets and the preview address (docs/secrets-and-preview.md), written by hand like the
-- earlier migrations (docs/database.md).

-- A project's named secrets. Values are sealed with the secret box (AES-256-GCM,
-- FLOWGATE_ENCRYPTION_KEY), like the integrations' API keys; no column holds a value in clear.
CREATE TABLE "secrets" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "description" VARCHAR(500),
    "value_encrypted" TEXT NOT NULL,
    "preview_value_encrypted" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "secrets_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "secrets_project_id_name_key" ON "secrets"("project_id", "name");

ALTER TABLE "secrets" ADD CONSTRAINT "secrets_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Where a request was served: 'live' ({subdomain}.…) or 'preview' ({subdomain}--preview.…).
-- A constant default on the partitioned parent is a catalogue change, not a rewrite; rows
-- written before this migration are live ones.
ALTER TABLE "request_logs" ADD COLUMN "environment" VARCHAR(8) NOT NULL DEFAULT 'live';

-- Rollups are kept per environment, so the stats of one never mix with the other's.
ALTER TABLE "request_log_rollups" ADD COLUMN "environment" VARCHAR(8) NOT NULL DEFAULT 'live';
ALTER TABLE "request_log_rollups" DROP CONSTRAINT "request_log_rollups_pkey";
ALTER TABLE "request_log_rollups" ADD CONSTRAINT "request_log_rollups_pkey" PRIMARY KEY ("project_id","span_s","environment","method","status","bucket","shard");

-- Functions and schedules (docs/functions-and-schedules.md): drafts with their deployed
-- versions, as endpoints have; request_logs gains what started each run.
CREATE TABLE "functions" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "description" VARCHAR(1000) NOT NULL DEFAULT '',
    "inputs" JSONB NOT NULL DEFAULT '[]',
    "flow" JSONB NOT NULL,
    "live_version" INTEGER,
    "draft_changed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "functions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "function_versions" (
    "id" UUID NOT NULL,
    "function_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "description" VARCHAR(1000) NOT NULL,
    "inputs" JSONB NOT NULL,
    "flow" JSONB NOT NULL,
    "compiled" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "function_versions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "schedules" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "cron" VARCHAR(100) NOT NULL,
    "timezone" VARCHAR(64) NOT NULL DEFAULT 'UTC',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "flow" JSONB NOT NULL,
    "live_version" INTEGER,
    "draft_changed_at" TIMESTAMPTZ(3),
    "last_run_at" TIMESTAMPTZ(3),
    "last_run_status" VARCHAR(32),
    "last_run_ms" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "schedules_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "schedule_versions" (
    "id" UUID NOT NULL,
    "schedule_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "cron" VARCHAR(100) NOT NULL,
    "timezone" VARCHAR(64) NOT NULL,
    "flow" JSONB NOT NULL,
    "compiled" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "schedule_versions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "functions_project_id_name_key" ON "functions"("project_id", "name");
CREATE UNIQUE INDEX "function_versions_function_id_version_key" ON "function_versions"("function_id", "version");
CREATE UNIQUE INDEX "schedules_project_id_name_key" ON "schedules"("project_id", "name");
CREATE UNIQUE INDEX "schedule_versions_schedule_id_version_key" ON "schedule_versions"("schedule_id", "version");

ALTER TABLE "functions" ADD CONSTRAINT "functions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "function_versions" ADD CONSTRAINT "function_versions_function_id_fkey" FOREIGN KEY ("function_id") REFERENCES "functions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "schedule_versions" ADD CONSTRAINT "schedule_versions_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A constant default: PostgreSQL stores it in the catalogue, no partition is rewritten.
ALTER TABLE "request_logs" ADD COLUMN "trigger" VARCHAR(8) NOT NULL DEFAULT 'http';

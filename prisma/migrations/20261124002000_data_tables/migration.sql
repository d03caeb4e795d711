-- Data tables: the definitions live here beside the project; the rows in DATA_DATABASE_URL.
CREATE TABLE "data_tables" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" VARCHAR(63) NOT NULL,
    "columns" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "data_tables_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "data_tables_project_id_name_key" ON "data_tables"("project_id", "name");

ALTER TABLE "data_tables" ADD CONSTRAINT "data_tables_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- request_logs: the path and status indexes in ascending time order (docs/database.md,
-- "request_logs: partitions and retention"). Reads are unchanged: a project's rows newest first
-- under a path or a status are a backward scan of the ascending index, as they are of the
-- primary key. Writes are cheaper: a request's row lands at the end of its (project, path) and
-- (project, status) runs, where a B-tree splits a full page after the new entry and keeps the
-- pages full; in descending order every row landed at the start of its run, each split left two
-- half-empty pages, and PostgreSQL spent ~2 µs more CPU per stored row (measured with the
-- log-ingest writer, batches of 750: 8.3–8.6 → 6.0–6.7 µs per row).
--
-- On a large table this builds both indexes on every partition (a lock on request_logs for the
-- duration of the migration).
DROP INDEX "request_logs_project_id_path_time_id_idx";
DROP INDEX "request_logs_project_id_status_time_id_idx";
CREATE INDEX "request_logs_project_id_path_time_id_idx" ON "request_logs" ("project_id", "path", "time", "id");
CREATE INDEX "request_logs_project_id_status_time_id_idx" ON "request_logs" ("project_id", "status", "time", "id");

-- Stats filtered by a status class or a method read every cell of a time range: by time, not
-- by method (the primary key would scan the project's cells of all time). docs/database.md.
CREATE INDEX "request_log_rollups_project_id_span_s_bucket_idx" ON "request_log_rollups"("project_id", "span_s", "bucket");

-- request_logs: two B-trees fewer to maintain for every stored request (docs/log-pipeline.md,
-- "What a logged request costs"). Each index of the table costs PostgreSQL ~2–3 µs of CPU per
-- inserted row; the table had five.
--
-- The primary key now leads with project_id. A redelivered event carries the same project, time
-- and id, so INSERT … ON CONFLICT DO NOTHING still finds it. The key also serves every read the
-- (project_id, time DESC, id DESC) index served — a project's rows newest first is a backward
-- scan of it — so that index goes.
--
-- The method index goes too: a method filter is read along the primary key with the method as
-- a filter (every method is a large share of a project's traffic, or the filter's page is short);
-- status and path (the Logs page's common filters, often selective) keep their indexes.
--
-- On a large table this rebuilds the primary key of every partition (a lock on request_logs
-- for the duration of the migration).
ALTER TABLE "request_logs" DROP CONSTRAINT "request_logs_pkey";
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_pkey" PRIMARY KEY ("project_id", "time", "id");
DROP INDEX "request_logs_project_id_time_id_idx";
DROP INDEX "request_logs_project_id_method_time_id_idx";

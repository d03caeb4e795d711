-- request_logs: the status index holds only the rows that are not a plain 200 (docs/database.md,
-- "request_logs: partitions and retention"). Most requests answer 200, and every row in an index
-- costs PostgreSQL CPU and WAL when it is stored; people filter for errors, other successes
-- (201, 204) and redirects, which are found in this index as before. A filter for 200 or for the
-- 2xx class is read along the primary key (project_id, time, id) with the status as a filter:
-- where 200 is most of a project's traffic, a page of it is found after a short scan.
--
-- The queries reach the index with the status as a value PostgreSQL sees when it plans (Prisma's
-- node-postgres adapter sends unnamed statements, planned with their parameters), so it can tell
-- that `status = 404` or `status BETWEEN 400 AND 499` lies within the index's rows.
--
-- On a large table this builds the index on every partition (a lock on request_logs for the
-- duration of the migration).
DROP INDEX "request_logs_project_id_status_time_id_idx";
CREATE INDEX "request_logs_project_id_status_time_id_idx" ON "request_logs" ("project_id", "status", "time", "id") WHERE (status <> 200);

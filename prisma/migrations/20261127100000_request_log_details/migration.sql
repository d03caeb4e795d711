-- What a request-log row holds beyond the line in the list: the request's headers, query and a
-- bounded body prefix with the answer's size (one JSON value, stored as the gateway wrote it:
-- json, not jsonb, which would parse and rebuild it on every write), whether
-- the answer was a stream, and whether the response cache served it.
ALTER TABLE "request_logs" ADD COLUMN "streamed" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "request_logs" ADD COLUMN "cache" VARCHAR(4);
ALTER TABLE "request_logs" ADD COLUMN "details" JSON;

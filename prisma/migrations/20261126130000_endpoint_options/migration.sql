-- Endpoint settings beyond routing (docs/inbound.md): `body_schema`, `signature` and `cache`,
-- kept as one JSON object per draft and per version so that a setting added later needs no
-- migration. A constant default is a catalogue change, not a rewrite: existing endpoints have none.
ALTER TABLE "endpoints" ADD COLUMN "options" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "endpoint_versions" ADD COLUMN "options" JSONB NOT NULL DEFAULT '{}';

-- Keyword search of the staff list (issue 30: 5,000 staff, p95 < 25 ms): staff number and position
-- get trigram indexes like person's name and tel (migrations 0003 and 0011), so `ilike '%…%'`
-- does not read every employment row. pg_trgm is in schema public on both engines (PGlite loads
-- it in open-database.ts); created here too when missing, so this file stands on its own.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS person_company_staff_number_trgm_idx ON person_company USING gin (staff_number public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS person_company_position_trgm_idx ON person_company USING gin (position public.gin_trgm_ops);

-- The staff list's keyword (issue 30 budget: 5,000 staff, p95 < 25 ms) is matched against one
-- column, person_company.search: staff number, the person's name and tel, and position,
-- lower-cased and joined by chr(31), so the list asks `search like lower('%…%')` (what `ilike`
-- does: lower() of both sides) on person_company alone, instead of a union of four trigram
-- lookups (two of them through person, which also holds every resident of the estate) that had
-- to be joined, de-duplicated and counted. The column is kept by the two triggers below, in the
-- writer's own transaction, whoever writes (the api, an import, a script).
CREATE OR REPLACE FUNCTION person_company_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT lower(concat_ws(chr(31), NEW.staff_number, p.name, p.tel, NEW.position)) INTO NEW.search
    FROM person p WHERE p.id = NEW.person_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER person_company_search BEFORE INSERT OR UPDATE OF staff_number, position, person_id ON person_company
  FOR EACH ROW EXECUTE FUNCTION person_company_search();
--> statement-breakpoint
-- A person renamed or given another tel: their employments' search text follows.
CREATE OR REPLACE FUNCTION person_staff_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE person_company pc SET search = lower(concat_ws(chr(31), pc.staff_number, NEW.name, NEW.tel, pc.position))
    WHERE pc.person_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER person_staff_search AFTER UPDATE OF name, tel ON person
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.tel IS DISTINCT FROM NEW.tel)
  EXECUTE FUNCTION person_staff_search();
--> statement-breakpoint
UPDATE person_company pc SET search = lower(concat_ws(chr(31), pc.staff_number, p.name, p.tel, pc.position))
  FROM person p WHERE p.id = pc.person_id;
--> statement-breakpoint
-- A trigram index for rare keywords (a staff number, a phone). New entries wait in the index's
-- pending list, written to the index in bulk when it passes gin_pending_list_limit (or by a
-- vacuum, which PGlite never runs by itself); every search reads the whole pending list, and the
-- default limit (4 MB: thousands of staff after an import) made the planner and the scan read
-- every pending row, which is why migration 0023's per-column indexes went unused. 256 kB keeps
-- that read short; an index without a pending list (fastupdate off) made an import of 5,000 staff
-- three times slower.
CREATE INDEX IF NOT EXISTS person_company_search_trgm_idx ON person_company
  USING gin (search public.gin_trgm_ops) WITH (gin_pending_list_limit = 256);
--> statement-breakpoint
-- Migration 0023's per-column indexes: nothing matches staff_number or position alone any more.
DROP INDEX IF EXISTS person_company_staff_number_trgm_idx;
--> statement-breakpoint
DROP INDEX IF EXISTS person_company_position_trgm_idx;

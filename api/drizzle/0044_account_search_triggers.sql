-- The account tab's keyword (issue 30 budget: 5,000 accounts, p95 < 25 ms) is matched against one
-- column, account.search: the account name and the person's name, lower-cased and joined by
-- chr(31) (account_search_text, one formula as staff_search_text of migration 0035), so the tab
-- asks `search like lower('%…%')` (what `ilike` does) on account alone, instead of an `ilike` on
-- the username or on person.name that had to join every account of the estate to its person
-- before it could page or count. The column is kept by the two triggers below, in the writer's own
-- transaction, whoever writes (the api, the seeds, a script).
CREATE OR REPLACE FUNCTION account_search_text(username text, name text) RETURNS text
  LANGUAGE sql STABLE AS $$ SELECT lower(concat_ws(chr(31), username, name)) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION account_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := account_search_text(NEW.username, (SELECT p.name FROM person p WHERE p.id = NEW.person_id));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER account_search BEFORE INSERT OR UPDATE OF username, person_id ON account
  FOR EACH ROW EXECUTE FUNCTION account_search();
--> statement-breakpoint
-- A person renamed (the account form, the staff form, their own record, an import): their
-- accounts' search text follows; only the accounts whose text it changes are written.
CREATE OR REPLACE FUNCTION person_account_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account a SET search = account_search_text(a.username, NEW.name)
    WHERE a.person_id = NEW.id
      AND a.search IS DISTINCT FROM account_search_text(a.username, NEW.name);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER person_account_search AFTER UPDATE OF name ON person
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION person_account_search();
--> statement-breakpoint
UPDATE account a SET search = account_search_text(a.username, p.name)
  FROM person p WHERE p.id = a.person_id;
--> statement-breakpoint
-- A trigram index for the keyword, with the short pending list of the staff search's index
-- (migration 0034: every search reads the whole pending list, and PGlite never vacuums by itself).
CREATE INDEX IF NOT EXISTS account_search_trgm_idx ON account
  USING gin (search public.gin_trgm_ops) WITH (gin_pending_list_limit = 256);

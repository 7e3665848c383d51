-- The audit trail is append-only (issue 30): the database itself refuses to change or delete an
-- event, whatever the caller (api, script, console). No retention prunes audit_event (README
-- "Audit trail"), so nothing of the product needs either.
CREATE OR REPLACE FUNCTION audit_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_event is append-only: % refused', TG_OP;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_event_no_change BEFORE UPDATE OR DELETE ON audit_event
  FOR EACH ROW EXECUTE FUNCTION audit_event_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_event_no_truncate BEFORE TRUNCATE ON audit_event
  FOR EACH STATEMENT EXECUTE FUNCTION audit_event_append_only();
--> statement-breakpoint
-- The list's totals per estate, kind and actor (audit_total), kept in the inserting transaction; the
-- trail only grows, so inserts are all there is to count.
CREATE OR REPLACE FUNCTION audit_event_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_total AS t (company_id, housing_estate_id, kind, actor_account_id, actor_name, n)
    SELECT company_id, housing_estate_id, kind, actor_account_id, actor_name, count(*)::int FROM new_rows
    GROUP BY company_id, housing_estate_id, kind, actor_account_id, actor_name
  ON CONFLICT (company_id, housing_estate_id, kind, actor_account_id, actor_name) DO UPDATE SET n = t.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_event_totals AFTER INSERT ON audit_event
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_event_totals();

-- Counters behind status totals and unfiltered list totals (DESIGN §6: 1,000,000 rows).
-- Kept by the database itself, in the transaction of every insert, update and delete, so no
-- code path (api, seed, bulk load) can forget them. Rows whose counts reach 0 stay (harmless).
-- complain: one statement trigger per event; each adds the changed rows' counts to work_total.
CREATE FUNCTION complain_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO work_total AS t (kind, company_id, housing_estate_id, status, type, person_type, n)
      SELECT 'complaint', company_id, housing_estate_id, complain_status, 0::smallint, person_type, -count(*)::int
      FROM old_rows GROUP BY company_id, housing_estate_id, complain_status, 0::smallint, person_type
    ON CONFLICT (kind, housing_estate_id, status, type, person_type) DO UPDATE SET n = t.n + excluded.n;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO work_total AS t (kind, company_id, housing_estate_id, status, type, person_type, n)
      SELECT 'complaint', company_id, housing_estate_id, complain_status, 0::smallint, person_type, count(*)::int
      FROM new_rows GROUP BY company_id, housing_estate_id, complain_status, 0::smallint, person_type
    ON CONFLICT (kind, housing_estate_id, status, type, person_type) DO UPDATE SET n = t.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER complain_totals_insert AFTER INSERT ON complain REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION complain_totals();
--> statement-breakpoint
CREATE TRIGGER complain_totals_update AFTER UPDATE ON complain REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION complain_totals();
--> statement-breakpoint
CREATE TRIGGER complain_totals_delete AFTER DELETE ON complain REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION complain_totals();
--> statement-breakpoint
INSERT INTO work_total (kind, company_id, housing_estate_id, status, type, person_type, n)
  SELECT 'complaint', company_id, housing_estate_id, complain_status, 0::smallint, person_type, count(*)::int
  FROM complain GROUP BY company_id, housing_estate_id, complain_status, 0::smallint, person_type;
--> statement-breakpoint
-- event_order: one statement trigger per event; each adds the changed rows' counts to work_total.
CREATE FUNCTION event_order_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO work_total AS t (kind, company_id, housing_estate_id, status, type, person_type, n)
      SELECT 'eventOrder', company_id, housing_estate_id, event_status, type, person_type, -count(*)::int
      FROM old_rows GROUP BY company_id, housing_estate_id, event_status, type, person_type
    ON CONFLICT (kind, housing_estate_id, status, type, person_type) DO UPDATE SET n = t.n + excluded.n;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO work_total AS t (kind, company_id, housing_estate_id, status, type, person_type, n)
      SELECT 'eventOrder', company_id, housing_estate_id, event_status, type, person_type, count(*)::int
      FROM new_rows GROUP BY company_id, housing_estate_id, event_status, type, person_type
    ON CONFLICT (kind, housing_estate_id, status, type, person_type) DO UPDATE SET n = t.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER event_order_totals_insert AFTER INSERT ON event_order REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_order_totals();
--> statement-breakpoint
CREATE TRIGGER event_order_totals_update AFTER UPDATE ON event_order REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_order_totals();
--> statement-breakpoint
CREATE TRIGGER event_order_totals_delete AFTER DELETE ON event_order REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION event_order_totals();
--> statement-breakpoint
INSERT INTO work_total (kind, company_id, housing_estate_id, status, type, person_type, n)
  SELECT 'eventOrder', company_id, housing_estate_id, event_status, type, person_type, count(*)::int
  FROM event_order GROUP BY company_id, housing_estate_id, event_status, type, person_type;

CREATE TABLE "work_day_total" (
	"kind" text NOT NULL,
	"company_id" integer NOT NULL,
	"housing_estate_id" integer NOT NULL,
	"day" date NOT NULL,
	"status" smallint NOT NULL,
	"type" smallint NOT NULL,
	"n" integer NOT NULL,
	"deal_minutes" double precision NOT NULL,
	"deal_n" integer NOT NULL,
	"complete_minutes" double precision NOT NULL,
	"complete_n" integer NOT NULL,
	CONSTRAINT "work_day_total_kind_housing_estate_id_day_status_type_pk" PRIMARY KEY("kind","housing_estate_id","day","status","type")
);

--> statement-breakpoint
-- hand-written: the dashboard charts' per-day counters (issue 22), kept by statement triggers on
-- complain and event_order like work_total (0002): each write subtracts its old rows' counts and
-- minutes and adds its new rows', by the estate's local report day, status and type; then the
-- rows already there are counted once. Rows whose counts reach 0 stay (harmless).
--> statement-breakpoint
CREATE FUNCTION complain_day_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO work_day_total AS t (kind, company_id, housing_estate_id, day, status, type, n, deal_minutes, deal_n, complete_minutes, complete_n)
      SELECT 'complaint', r.company_id, r.housing_estate_id, (r.report_time AT TIME ZONE he.time_zone)::date, r.complain_status, 0::smallint,
             -count(*)::int, -coalesce(sum(extract(epoch FROM (r.deal_time - r.report_time)) / 60), 0)::double precision,
             -count(r.deal_time)::int, -coalesce(sum(extract(epoch FROM (r.complete_time - r.report_time)) / 60), 0)::double precision,
             -count(r.complete_time)::int
      FROM old_rows r JOIN housing_estate he ON he.id = r.housing_estate_id
      GROUP BY r.company_id, r.housing_estate_id, 4, r.complain_status, 6
    ON CONFLICT (kind, housing_estate_id, day, status, type) DO UPDATE SET n = t.n + excluded.n,
      deal_minutes = t.deal_minutes + excluded.deal_minutes, deal_n = t.deal_n + excluded.deal_n,
      complete_minutes = t.complete_minutes + excluded.complete_minutes, complete_n = t.complete_n + excluded.complete_n;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO work_day_total AS t (kind, company_id, housing_estate_id, day, status, type, n, deal_minutes, deal_n, complete_minutes, complete_n)
      SELECT 'complaint', r.company_id, r.housing_estate_id, (r.report_time AT TIME ZONE he.time_zone)::date, r.complain_status, 0::smallint,
             count(*)::int, coalesce(sum(extract(epoch FROM (r.deal_time - r.report_time)) / 60), 0)::double precision,
             count(r.deal_time)::int, coalesce(sum(extract(epoch FROM (r.complete_time - r.report_time)) / 60), 0)::double precision,
             count(r.complete_time)::int
      FROM new_rows r JOIN housing_estate he ON he.id = r.housing_estate_id
      GROUP BY r.company_id, r.housing_estate_id, 4, r.complain_status, 6
    ON CONFLICT (kind, housing_estate_id, day, status, type) DO UPDATE SET n = t.n + excluded.n,
      deal_minutes = t.deal_minutes + excluded.deal_minutes, deal_n = t.deal_n + excluded.deal_n,
      complete_minutes = t.complete_minutes + excluded.complete_minutes, complete_n = t.complete_n + excluded.complete_n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER complain_day_totals_insert AFTER INSERT ON complain REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION complain_day_totals();
--> statement-breakpoint
CREATE TRIGGER complain_day_totals_update AFTER UPDATE ON complain REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION complain_day_totals();
--> statement-breakpoint
CREATE TRIGGER complain_day_totals_delete AFTER DELETE ON complain REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION complain_day_totals();
--> statement-breakpoint
INSERT INTO work_day_total AS t (kind, company_id, housing_estate_id, day, status, type, n, deal_minutes, deal_n, complete_minutes, complete_n)
      SELECT 'complaint', r.company_id, r.housing_estate_id, (r.report_time AT TIME ZONE he.time_zone)::date, r.complain_status, 0::smallint,
             count(*)::int, coalesce(sum(extract(epoch FROM (r.deal_time - r.report_time)) / 60), 0)::double precision,
             count(r.deal_time)::int, coalesce(sum(extract(epoch FROM (r.complete_time - r.report_time)) / 60), 0)::double precision,
             count(r.complete_time)::int
      FROM complain r JOIN housing_estate he ON he.id = r.housing_estate_id
      GROUP BY r.company_id, r.housing_estate_id, 4, r.complain_status, 6
    ON CONFLICT (kind, housing_estate_id, day, status, type) DO UPDATE SET n = t.n + excluded.n,
      deal_minutes = t.deal_minutes + excluded.deal_minutes, deal_n = t.deal_n + excluded.deal_n,
      complete_minutes = t.complete_minutes + excluded.complete_minutes, complete_n = t.complete_n + excluded.complete_n;
--> statement-breakpoint
CREATE FUNCTION event_order_day_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO work_day_total AS t (kind, company_id, housing_estate_id, day, status, type, n, deal_minutes, deal_n, complete_minutes, complete_n)
      SELECT 'eventOrder', r.company_id, r.housing_estate_id, (r.report_time AT TIME ZONE he.time_zone)::date, r.event_status, coalesce(r.type, 0)::smallint,
             -count(*)::int, -coalesce(sum(extract(epoch FROM (r.deal_time - r.report_time)) / 60), 0)::double precision,
             -count(r.deal_time)::int, -coalesce(sum(extract(epoch FROM (r.complete_time - r.report_time)) / 60), 0)::double precision,
             -count(r.complete_time)::int
      FROM old_rows r JOIN housing_estate he ON he.id = r.housing_estate_id
      GROUP BY r.company_id, r.housing_estate_id, 4, r.event_status, 6
    ON CONFLICT (kind, housing_estate_id, day, status, type) DO UPDATE SET n = t.n + excluded.n,
      deal_minutes = t.deal_minutes + excluded.deal_minutes, deal_n = t.deal_n + excluded.deal_n,
      complete_minutes = t.complete_minutes + excluded.complete_minutes, complete_n = t.complete_n + excluded.complete_n;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO work_day_total AS t (kind, company_id, housing_estate_id, day, status, type, n, deal_minutes, deal_n, complete_minutes, complete_n)
      SELECT 'eventOrder', r.company_id, r.housing_estate_id, (r.report_time AT TIME ZONE he.time_zone)::date, r.event_status, coalesce(r.type, 0)::smallint,
             count(*)::int, coalesce(sum(extract(epoch FROM (r.deal_time - r.report_time)) / 60), 0)::double precision,
             count(r.deal_time)::int, coalesce(sum(extract(epoch FROM (r.complete_time - r.report_time)) / 60), 0)::double precision,
             count(r.complete_time)::int
      FROM new_rows r JOIN housing_estate he ON he.id = r.housing_estate_id
      GROUP BY r.company_id, r.housing_estate_id, 4, r.event_status, 6
    ON CONFLICT (kind, housing_estate_id, day, status, type) DO UPDATE SET n = t.n + excluded.n,
      deal_minutes = t.deal_minutes + excluded.deal_minutes, deal_n = t.deal_n + excluded.deal_n,
      complete_minutes = t.complete_minutes + excluded.complete_minutes, complete_n = t.complete_n + excluded.complete_n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER event_order_day_totals_insert AFTER INSERT ON event_order REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_order_day_totals();
--> statement-breakpoint
CREATE TRIGGER event_order_day_totals_update AFTER UPDATE ON event_order REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_order_day_totals();
--> statement-breakpoint
CREATE TRIGGER event_order_day_totals_delete AFTER DELETE ON event_order REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION event_order_day_totals();
--> statement-breakpoint
INSERT INTO work_day_total AS t (kind, company_id, housing_estate_id, day, status, type, n, deal_minutes, deal_n, complete_minutes, complete_n)
      SELECT 'eventOrder', r.company_id, r.housing_estate_id, (r.report_time AT TIME ZONE he.time_zone)::date, r.event_status, coalesce(r.type, 0)::smallint,
             count(*)::int, coalesce(sum(extract(epoch FROM (r.deal_time - r.report_time)) / 60), 0)::double precision,
             count(r.deal_time)::int, coalesce(sum(extract(epoch FROM (r.complete_time - r.report_time)) / 60), 0)::double precision,
             count(r.complete_time)::int
      FROM event_order r JOIN housing_estate he ON he.id = r.housing_estate_id
      GROUP BY r.company_id, r.housing_estate_id, 4, r.event_status, 6
    ON CONFLICT (kind, housing_estate_id, day, status, type) DO UPDATE SET n = t.n + excluded.n,
      deal_minutes = t.deal_minutes + excluded.deal_minutes, deal_n = t.deal_n + excluded.deal_n,
      complete_minutes = t.complete_minutes + excluded.complete_minutes, complete_n = t.complete_n + excluded.complete_n;
--> statement-breakpoint
-- An estate that changes its time zone has its reports counted again by their new local days.
CREATE FUNCTION housing_estate_day_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.time_zone IS DISTINCT FROM OLD.time_zone THEN
    DELETE FROM work_day_total WHERE housing_estate_id = NEW.id;
    INSERT INTO work_day_total (kind, company_id, housing_estate_id, day, status, type, n, deal_minutes, deal_n, complete_minutes, complete_n)
      SELECT 'complaint', r.company_id, r.housing_estate_id, (r.report_time AT TIME ZONE NEW.time_zone)::date, r.complain_status, 0::smallint,
             count(*)::int, coalesce(sum(extract(epoch FROM (r.deal_time - r.report_time)) / 60), 0)::double precision,
             count(r.deal_time)::int, coalesce(sum(extract(epoch FROM (r.complete_time - r.report_time)) / 60), 0)::double precision,
             count(r.complete_time)::int
      FROM complain r WHERE r.housing_estate_id = NEW.id
      GROUP BY r.company_id, r.housing_estate_id, 4, r.complain_status, 6;
    INSERT INTO work_day_total (kind, company_id, housing_estate_id, day, status, type, n, deal_minutes, deal_n, complete_minutes, complete_n)
      SELECT 'eventOrder', r.company_id, r.housing_estate_id, (r.report_time AT TIME ZONE NEW.time_zone)::date, r.event_status, coalesce(r.type, 0)::smallint,
             count(*)::int, coalesce(sum(extract(epoch FROM (r.deal_time - r.report_time)) / 60), 0)::double precision,
             count(r.deal_time)::int, coalesce(sum(extract(epoch FROM (r.complete_time - r.report_time)) / 60), 0)::double precision,
             count(r.complete_time)::int
      FROM event_order r WHERE r.housing_estate_id = NEW.id
      GROUP BY r.company_id, r.housing_estate_id, 4, r.event_status, 6;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER housing_estate_day_totals AFTER UPDATE OF time_zone ON housing_estate FOR EACH ROW EXECUTE FUNCTION housing_estate_day_totals();

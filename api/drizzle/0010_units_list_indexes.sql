CREATE TABLE "unit_total" (
	"company_id" integer NOT NULL,
	"housing_estate_id" integer NOT NULL,
	"block_id" integer NOT NULL,
	"house_status" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "unit_total_pk" PRIMARY KEY("company_id","housing_estate_id","block_id","house_status")
);
--> statement-breakpoint
DROP INDEX "unit_housing_estate_id_block_id_floor_id_id_index";--> statement-breakpoint
DROP INDEX "unit_housing_estate_id_house_status_index";--> statement-breakpoint
CREATE INDEX "unit_estate_block_floor_id_idx" ON "unit" USING btree ("housing_estate_id","block_id","floor_id","id","company_id");--> statement-breakpoint
CREATE INDEX "unit_estate_status_block_floor_id_idx" ON "unit" USING btree ("housing_estate_id","house_status","block_id","floor_id","id","company_id");--> statement-breakpoint
-- Written by hand (drizzle cannot express them): the house lists' keywords with trigram indexes
-- (pg_trgm, migration 0003), so `ilike '%…%'` does not scan 100,000 units (or every space/shop).
CREATE INDEX unit_name_trgm_idx ON unit USING gin (name public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX car_space_code_trgm_idx ON car_space USING gin (carpark_code public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX car_space_plate_trgm_idx ON car_space USING gin (plate public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX shop_code_trgm_idx ON shop USING gin (shop_code public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX shop_name_trgm_idx ON shop USING gin (name public.gin_trgm_ops);
--> statement-breakpoint
-- unit_total: the unit list's totals without keyword or floor (issue 18), kept by the database
-- itself in the transaction of every insert, update and delete of units (as work_total, 0002),
-- so no code path (api, import, seed, bulk load) can forget them. One statement trigger per
-- event; it adds the net change of the changed rows' counts (unchanged keys add nothing).
CREATE FUNCTION unit_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO unit_total AS t (company_id, housing_estate_id, block_id, house_status, n)
      SELECT company_id, housing_estate_id, block_id, house_status, count(*)::int
      FROM new_rows GROUP BY company_id, housing_estate_id, block_id, house_status
    ON CONFLICT (company_id, housing_estate_id, block_id, house_status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO unit_total AS t (company_id, housing_estate_id, block_id, house_status, n)
      SELECT company_id, housing_estate_id, block_id, house_status, -count(*)::int
      FROM old_rows GROUP BY company_id, housing_estate_id, block_id, house_status
    ON CONFLICT (company_id, housing_estate_id, block_id, house_status) DO UPDATE SET n = t.n + excluded.n;
  ELSE
    INSERT INTO unit_total AS t (company_id, housing_estate_id, block_id, house_status, n)
      SELECT company_id, housing_estate_id, block_id, house_status, sum(d)::int
      FROM (SELECT company_id, housing_estate_id, block_id, house_status, -1 AS d FROM old_rows
            UNION ALL
            SELECT company_id, housing_estate_id, block_id, house_status, 1 AS d FROM new_rows) c
      GROUP BY company_id, housing_estate_id, block_id, house_status HAVING sum(d) <> 0
    ON CONFLICT (company_id, housing_estate_id, block_id, house_status) DO UPDATE SET n = t.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER unit_totals_insert AFTER INSERT ON unit REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION unit_totals();
--> statement-breakpoint
CREATE TRIGGER unit_totals_update AFTER UPDATE ON unit REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION unit_totals();
--> statement-breakpoint
CREATE TRIGGER unit_totals_delete AFTER DELETE ON unit REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION unit_totals();
--> statement-breakpoint
INSERT INTO unit_total (company_id, housing_estate_id, block_id, house_status, n)
  SELECT company_id, housing_estate_id, block_id, house_status, count(*)::int
  FROM unit GROUP BY company_id, housing_estate_id, block_id, house_status;

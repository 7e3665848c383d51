CREATE TABLE "person_house_total" (
	"company_id" integer NOT NULL,
	"housing_estate_id" integer NOT NULL,
	"house_type" smallint NOT NULL,
	"status" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "person_house_total_pk" PRIMARY KEY("company_id","housing_estate_id","house_type","status")
);
--> statement-breakpoint
-- hand-written:
-- person_house_total: the owner-review tabs' counts and the unfiltered review list's total
-- (issue 19), kept by the database itself in the transaction of every insert, update and delete
-- of person_house (as unit_total, 0010), so no code path (api, resident API, seed, bulk load)
-- can forget them. One statement trigger per event; it adds the net change per key.
CREATE FUNCTION person_house_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO person_house_total AS t (company_id, housing_estate_id, house_type, status, n)
      SELECT company_id, housing_estate_id, house_type, status, count(*)::int
      FROM new_rows GROUP BY company_id, housing_estate_id, house_type, status
    ON CONFLICT (company_id, housing_estate_id, house_type, status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO person_house_total AS t (company_id, housing_estate_id, house_type, status, n)
      SELECT company_id, housing_estate_id, house_type, status, -count(*)::int
      FROM old_rows GROUP BY company_id, housing_estate_id, house_type, status
    ON CONFLICT (company_id, housing_estate_id, house_type, status) DO UPDATE SET n = t.n + excluded.n;
  ELSE
    INSERT INTO person_house_total AS t (company_id, housing_estate_id, house_type, status, n)
      SELECT company_id, housing_estate_id, house_type, status, sum(d)::int
      FROM (SELECT company_id, housing_estate_id, house_type, status, -1 AS d FROM old_rows
            UNION ALL
            SELECT company_id, housing_estate_id, house_type, status, 1 AS d FROM new_rows) c
      GROUP BY company_id, housing_estate_id, house_type, status HAVING sum(d) <> 0
    ON CONFLICT (company_id, housing_estate_id, house_type, status) DO UPDATE SET n = t.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER person_house_totals_insert AFTER INSERT ON person_house REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION person_house_totals();
--> statement-breakpoint
CREATE TRIGGER person_house_totals_update AFTER UPDATE ON person_house REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION person_house_totals();
--> statement-breakpoint
CREATE TRIGGER person_house_totals_delete AFTER DELETE ON person_house REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION person_house_totals();
--> statement-breakpoint
INSERT INTO person_house_total (company_id, housing_estate_id, house_type, status, n)
  SELECT company_id, housing_estate_id, house_type, status, count(*)::int
  FROM person_house GROUP BY company_id, housing_estate_id, house_type, status;
--> statement-breakpoint
-- The demo estate's house-certificate pictures were seeded under the public demo/ folder; like
-- real ones they belong to the private housecert/ folder (served only through
-- GET /base/personhouse/certimg/{id}). The api moves the files at start (seed/demo-images.ts).
UPDATE person_house SET house_cert_img = replace(house_cert_img, '/upload/files/demo/', '/upload/files/housecert/')
  WHERE house_cert_img LIKE '/upload/files/demo/%';
--> statement-breakpoint
-- The owner-review keyword (name, phone or certificate code) on the certified tab, which holds
-- nearly every link: trigram indexes, so `ilike '%…%'` does not scan 200,000 links.
CREATE INDEX person_house_cert_code_trgm_idx ON person_house USING gin (house_cert_code public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX person_tel_trgm_idx ON person USING gin (tel public.gin_trgm_ops);

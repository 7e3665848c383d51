-- A corrected staff file (issue 30) whose row changes a known person's name and their position
-- wrote the employment twice: once by person_staff_search (the new name), then again by the
-- import's own update (the new position, read with the name through person_company_search). The
-- search text now has one formula, staff_search_text; an update that writes the search itself
-- (the import, which knows the new name before the person row has it) keeps it; and a person's
-- rename rewrites only the employments whose search text it changes, so the import's rename,
-- written after its employments, writes none of them again.
CREATE OR REPLACE FUNCTION staff_search_text(staff_number text, name text, tel text, "position" text) RETURNS text
  LANGUAGE sql STABLE AS $$ SELECT lower(concat_ws(chr(31), staff_number, name, tel, "position")) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION person_company_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.search IS DISTINCT FROM OLD.search THEN
    RETURN NEW;
  END IF;
  SELECT staff_search_text(NEW.staff_number, p.name, p.tel, NEW.position) INTO NEW.search
    FROM person p WHERE p.id = NEW.person_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION person_staff_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE person_company pc SET search = staff_search_text(pc.staff_number, NEW.name, NEW.tel, pc.position)
    WHERE pc.person_id = NEW.id
      AND pc.search IS DISTINCT FROM staff_search_text(pc.staff_number, NEW.name, NEW.tel, pc.position);
  RETURN NULL;
END $$;

ALTER TABLE "complain" ADD COLUMN "report_person_name" text;--> statement-breakpoint
ALTER TABLE "complain" ADD COLUMN "report_person_photo" text;--> statement-breakpoint
ALTER TABLE "complain" ADD COLUMN "unit_name" text;--> statement-breakpoint
ALTER TABLE "complain" ADD COLUMN "floor_name" text;--> statement-breakpoint
ALTER TABLE "complain" ADD COLUMN "build_name" text;--> statement-breakpoint
ALTER TABLE "complain" ADD COLUMN "carpark_code" text;--> statement-breakpoint
ALTER TABLE "complain" ADD COLUMN "shop_code" text;--> statement-breakpoint
ALTER TABLE "event_order" ADD COLUMN "report_person_name" text;--> statement-breakpoint
ALTER TABLE "event_order" ADD COLUMN "report_person_photo" text;--> statement-breakpoint
ALTER TABLE "event_order" ADD COLUMN "unit_name" text;--> statement-breakpoint
ALTER TABLE "event_order" ADD COLUMN "floor_name" text;--> statement-breakpoint
ALTER TABLE "event_order" ADD COLUMN "build_name" text;--> statement-breakpoint
ALTER TABLE "event_order" ADD COLUMN "carpark_code" text;--> statement-breakpoint
ALTER TABLE "event_order" ADD COLUMN "shop_code" text;--> statement-breakpoint
CREATE INDEX "complain_unit_id_index" ON "complain" USING btree ("unit_id") WHERE "complain"."unit_id" is not null;--> statement-breakpoint
CREATE INDEX "complain_car_space_id_index" ON "complain" USING btree ("car_space_id") WHERE "complain"."car_space_id" is not null;--> statement-breakpoint
CREATE INDEX "complain_shop_id_index" ON "complain" USING btree ("shop_id") WHERE "complain"."shop_id" is not null;--> statement-breakpoint
CREATE INDEX "event_order_unit_id_index" ON "event_order" USING btree ("unit_id") WHERE "event_order"."unit_id" is not null;--> statement-breakpoint
CREATE INDEX "event_order_car_space_id_index" ON "event_order" USING btree ("car_space_id") WHERE "event_order"."car_space_id" is not null;--> statement-breakpoint
CREATE INDEX "event_order_shop_id_index" ON "event_order" USING btree ("shop_id") WHERE "event_order"."shop_id" is not null;--> statement-breakpoint
-- The list page of complaints and work orders (issue 34) read the row's display from six other
-- tables, one primary-key probe each per row (person, unit, floor, block, car space, shop): most
-- of what a cold page cost PostgreSQL. The display is now kept on the row by the triggers below,
-- in the writer's own transaction, whoever writes (the api, the seeds, a script), and a page reads
-- the work table alone. A deleted unit, floor, block, car space or shop leaves its names null, as
-- the left joins gave.
CREATE OR REPLACE FUNCTION work_display() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT p.name, p.images->0->>'url' INTO NEW.report_person_name, NEW.report_person_photo
    FROM person p WHERE p.id = NEW.report_person_id;
  IF NOT FOUND THEN
    NEW.report_person_name := NULL;
    NEW.report_person_photo := NULL;
  END IF;
  SELECT u.name, f.name, b.name INTO NEW.unit_name, NEW.floor_name, NEW.build_name
    FROM unit u LEFT JOIN floor f ON f.id = u.floor_id LEFT JOIN block b ON b.id = u.block_id
    WHERE u.id = NEW.unit_id;
  IF NOT FOUND THEN
    NEW.unit_name := NULL;
    NEW.floor_name := NULL;
    NEW.build_name := NULL;
  END IF;
  NEW.carpark_code := (SELECT cs.carpark_code FROM car_space cs WHERE cs.id = NEW.car_space_id);
  NEW.shop_code := (SELECT s.shop_code FROM shop s WHERE s.id = NEW.shop_id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER complain_display BEFORE INSERT OR UPDATE OF report_person_id, unit_id, car_space_id, shop_id ON complain
  FOR EACH ROW EXECUTE FUNCTION work_display();
--> statement-breakpoint
CREATE TRIGGER event_order_display BEFORE INSERT OR UPDATE OF report_person_id, unit_id, car_space_id, shop_id ON event_order
  FOR EACH ROW EXECUTE FUNCTION work_display();
--> statement-breakpoint
-- A person renamed or given another avatar: the rows they reported follow. (Persons are never
-- deleted by the api; a row keeps its reporter's last name rather than leaving the page, as the
-- inner join of the read before made it do while still counting it in the total.)
CREATE OR REPLACE FUNCTION person_work_display() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  who integer := NEW.id;
  nm text := NEW.name;
  photo text := NEW.images->0->>'url';
BEGIN
  UPDATE complain SET report_person_name = nm, report_person_photo = photo
    WHERE report_person_id = who
      AND (report_person_name IS DISTINCT FROM nm OR report_person_photo IS DISTINCT FROM photo);
  UPDATE event_order SET report_person_name = nm, report_person_photo = photo
    WHERE report_person_id = who
      AND (report_person_name IS DISTINCT FROM nm OR report_person_photo IS DISTINCT FROM photo);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER person_work_display AFTER UPDATE OF name, images ON person
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.images IS DISTINCT FROM NEW.images)
  EXECUTE FUNCTION person_work_display();
--> statement-breakpoint
-- A unit renamed, moved to another floor or block, or deleted: its rows' unit, floor and block names.
CREATE OR REPLACE FUNCTION unit_work_display() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  which integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  un text;
  fl text;
  bl text;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    un := NEW.name;
    fl := (SELECT f.name FROM floor f WHERE f.id = NEW.floor_id);
    bl := (SELECT b.name FROM block b WHERE b.id = NEW.block_id);
  END IF;
  UPDATE complain SET unit_name = un, floor_name = fl, build_name = bl
    WHERE unit_id = which
      AND (unit_name IS DISTINCT FROM un OR floor_name IS DISTINCT FROM fl OR build_name IS DISTINCT FROM bl);
  UPDATE event_order SET unit_name = un, floor_name = fl, build_name = bl
    WHERE unit_id = which
      AND (unit_name IS DISTINCT FROM un OR floor_name IS DISTINCT FROM fl OR build_name IS DISTINCT FROM bl);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER unit_work_display AFTER UPDATE OF name, floor_id, block_id ON unit
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.floor_id IS DISTINCT FROM NEW.floor_id
    OR OLD.block_id IS DISTINCT FROM NEW.block_id)
  EXECUTE FUNCTION unit_work_display();
--> statement-breakpoint
CREATE TRIGGER unit_work_display_gone AFTER DELETE ON unit
  FOR EACH ROW EXECUTE FUNCTION unit_work_display();
--> statement-breakpoint
-- A floor renamed or deleted: the rows of its units.
CREATE OR REPLACE FUNCTION floor_work_display() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  which integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  fl text := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.name END;
BEGIN
  UPDATE complain SET floor_name = fl
    WHERE unit_id IN (SELECT u.id FROM unit u WHERE u.floor_id = which) AND floor_name IS DISTINCT FROM fl;
  UPDATE event_order SET floor_name = fl
    WHERE unit_id IN (SELECT u.id FROM unit u WHERE u.floor_id = which) AND floor_name IS DISTINCT FROM fl;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER floor_work_display AFTER UPDATE OF name ON floor
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION floor_work_display();
--> statement-breakpoint
CREATE TRIGGER floor_work_display_gone AFTER DELETE ON floor
  FOR EACH ROW EXECUTE FUNCTION floor_work_display();
--> statement-breakpoint
-- A block renamed or deleted: the rows of its units.
CREATE OR REPLACE FUNCTION block_work_display() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  which integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  bl text := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.name END;
BEGIN
  UPDATE complain SET build_name = bl
    WHERE unit_id IN (SELECT u.id FROM unit u WHERE u.block_id = which) AND build_name IS DISTINCT FROM bl;
  UPDATE event_order SET build_name = bl
    WHERE unit_id IN (SELECT u.id FROM unit u WHERE u.block_id = which) AND build_name IS DISTINCT FROM bl;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER block_work_display AFTER UPDATE OF name ON block
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION block_work_display();
--> statement-breakpoint
CREATE TRIGGER block_work_display_gone AFTER DELETE ON block
  FOR EACH ROW EXECUTE FUNCTION block_work_display();
--> statement-breakpoint
-- A car space's or a shop's code changed, or the space or shop deleted.
CREATE OR REPLACE FUNCTION car_space_work_display() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  which integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  code text := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.carpark_code END;
BEGIN
  UPDATE complain SET carpark_code = code WHERE car_space_id = which AND carpark_code IS DISTINCT FROM code;
  UPDATE event_order SET carpark_code = code WHERE car_space_id = which AND carpark_code IS DISTINCT FROM code;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER car_space_work_display AFTER UPDATE OF carpark_code ON car_space
  FOR EACH ROW WHEN (OLD.carpark_code IS DISTINCT FROM NEW.carpark_code) EXECUTE FUNCTION car_space_work_display();
--> statement-breakpoint
CREATE TRIGGER car_space_work_display_gone AFTER DELETE ON car_space
  FOR EACH ROW EXECUTE FUNCTION car_space_work_display();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION shop_work_display() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  which integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
  code text := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE NEW.shop_code END;
BEGIN
  UPDATE complain SET shop_code = code WHERE shop_id = which AND shop_code IS DISTINCT FROM code;
  UPDATE event_order SET shop_code = code WHERE shop_id = which AND shop_code IS DISTINCT FROM code;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER shop_work_display AFTER UPDATE OF shop_code ON shop
  FOR EACH ROW WHEN (OLD.shop_code IS DISTINCT FROM NEW.shop_code) EXECUTE FUNCTION shop_work_display();
--> statement-breakpoint
CREATE TRIGGER shop_work_display_gone AFTER DELETE ON shop
  FOR EACH ROW EXECUTE FUNCTION shop_work_display();
--> statement-breakpoint
-- Existing rows: filled once (the insert trigger does it for new ones).
UPDATE complain w SET report_person_name = p.name, report_person_photo = p.images->0->>'url'
  FROM person p WHERE p.id = w.report_person_id;
--> statement-breakpoint
UPDATE event_order w SET report_person_name = p.name, report_person_photo = p.images->0->>'url'
  FROM person p WHERE p.id = w.report_person_id;
--> statement-breakpoint
UPDATE complain w SET unit_name = u.name, floor_name = f.name, build_name = b.name
  FROM unit u LEFT JOIN floor f ON f.id = u.floor_id LEFT JOIN block b ON b.id = u.block_id
  WHERE u.id = w.unit_id;
--> statement-breakpoint
UPDATE event_order w SET unit_name = u.name, floor_name = f.name, build_name = b.name
  FROM unit u LEFT JOIN floor f ON f.id = u.floor_id LEFT JOIN block b ON b.id = u.block_id
  WHERE u.id = w.unit_id;
--> statement-breakpoint
UPDATE complain w SET carpark_code = cs.carpark_code FROM car_space cs WHERE cs.id = w.car_space_id;
--> statement-breakpoint
UPDATE event_order w SET carpark_code = cs.carpark_code FROM car_space cs WHERE cs.id = w.car_space_id;
--> statement-breakpoint
UPDATE complain w SET shop_code = s.shop_code FROM shop s WHERE s.id = w.shop_id;
--> statement-breakpoint
UPDATE event_order w SET shop_code = s.shop_code FROM shop s WHERE s.id = w.shop_id;

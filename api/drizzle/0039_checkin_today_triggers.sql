-- Staff check-in (issue 32): a punch deleted or changed by hand (no call of the product does
-- either) must not leave the kept answers computed from it standing. The open days of its estate
-- (checkin_open_day: yesterday's and today's shifts of every staff member) are forgotten, so the
-- next list computes them again, and its person's duty-board row (checkin_today) is deleted, so the
-- next board read computes it again. Statement triggers: one statement per bulk delete.

CREATE OR REPLACE FUNCTION checkin_punch_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM checkin_open_day d WHERE d.housing_estate_id IN (SELECT DISTINCT o.housing_estate_id FROM old_rows o);
  DELETE FROM checkin_today t
  WHERE (t.housing_estate_id, t.person_id) IN (SELECT DISTINCT o.housing_estate_id, o.person_id FROM old_rows o);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER checkin_punch_forget_delete AFTER DELETE ON checkin_punch
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION checkin_punch_forget();
--> statement-breakpoint
CREATE TRIGGER checkin_punch_forget_update AFTER UPDATE ON checkin_punch
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION checkin_punch_forget();

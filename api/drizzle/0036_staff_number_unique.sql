-- A staff number was unique in its estate only by the application's check, which two writers
-- acting at once could both pass. Numbers already taken twice (whatever the case) keep the
-- oldest employment's; each later one gets its employment id appended ("HV0007-123"), visible in
-- the staff list to be corrected, so the unique index below can be built. The demo seed has none.
UPDATE person_company pc SET staff_number = pc.staff_number || '-' || pc.id
  FROM person_company first
  WHERE pc.staff_number IS NOT NULL
    AND first.company_id = pc.company_id AND first.housing_estate_id = pc.housing_estate_id
    AND lower(first.staff_number) = lower(pc.staff_number) AND first.id < pc.id;
--> statement-breakpoint
CREATE UNIQUE INDEX "person_company_staff_number_unique" ON "person_company" USING btree ("company_id","housing_estate_id",lower("staff_number"));

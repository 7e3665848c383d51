ALTER TABLE "car_space" ADD COLUMN "house_status" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "shop" ADD COLUMN "house_status" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "unit" ADD COLUMN "house_status" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "car_space_housing_estate_id_house_status_index" ON "car_space" USING btree ("housing_estate_id","house_status");--> statement-breakpoint
CREATE INDEX "shop_housing_estate_id_house_status_index" ON "shop" USING btree ("housing_estate_id","house_status");--> statement-breakpoint
CREATE INDEX "unit_housing_estate_id_house_status_index" ON "unit" USING btree ("housing_estate_id","house_status");--> statement-breakpoint
-- Backfill: the rules of HouseStatus (shared/src/enums.ts), as in api/src/modules/person/house-status.repository.ts.
UPDATE "unit" h SET house_status = CASE
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.unit_id = h.id AND ph.identity = 1 AND ph.status = 2 AND ph.auth_status = 1) THEN 5
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.unit_id = h.id AND ph.identity = 1 AND ph.status = 2) THEN 4
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.unit_id = h.id AND ph.identity = 1 AND ph.status = 1) THEN 3
  WHEN EXISTS (SELECT 1 FROM person_house_history hh WHERE hh.unit_id = h.id AND hh.identity = 1 AND hh.leave_time IS NOT NULL) THEN 6
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.unit_id = h.id AND ph.status IN (1, 2)) THEN 2
  ELSE 1 END;--> statement-breakpoint
-- Backfill: the rules of HouseStatus (shared/src/enums.ts), as in api/src/modules/person/house-status.repository.ts.
UPDATE "car_space" h SET house_status = CASE
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.car_space_id = h.id AND ph.identity = 1 AND ph.status = 2 AND ph.auth_status = 1) THEN 5
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.car_space_id = h.id AND ph.identity = 1 AND ph.status = 2) THEN 4
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.car_space_id = h.id AND ph.identity = 1 AND ph.status = 1) THEN 3
  WHEN EXISTS (SELECT 1 FROM person_house_history hh WHERE hh.car_space_id = h.id AND hh.identity = 1 AND hh.leave_time IS NOT NULL) THEN 6
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.car_space_id = h.id AND ph.status IN (1, 2)) THEN 2
  ELSE 1 END;--> statement-breakpoint
-- Backfill: the rules of HouseStatus (shared/src/enums.ts), as in api/src/modules/person/house-status.repository.ts.
UPDATE "shop" h SET house_status = CASE
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.shop_id = h.id AND ph.identity = 1 AND ph.status = 2 AND ph.auth_status = 1) THEN 5
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.shop_id = h.id AND ph.identity = 1 AND ph.status = 2) THEN 4
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.shop_id = h.id AND ph.identity = 1 AND ph.status = 1) THEN 3
  WHEN EXISTS (SELECT 1 FROM person_house_history hh WHERE hh.shop_id = h.id AND hh.identity = 1 AND hh.leave_time IS NOT NULL) THEN 6
  WHEN EXISTS (SELECT 1 FROM person_house ph WHERE ph.shop_id = h.id AND ph.status IN (1, 2)) THEN 2
  ELSE 1 END;

ALTER TABLE "person_house" ADD COLUMN "refuse_reason" text;--> statement-breakpoint
CREATE INDEX "person_house_housing_estate_id_status_join_time_id_index" ON "person_house" USING btree ("housing_estate_id","status","join_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "person_house_one_owner_unit" ON "person_house" USING btree ("unit_id") WHERE identity = 1 and status = 2;--> statement-breakpoint
CREATE UNIQUE INDEX "person_house_one_owner_space" ON "person_house" USING btree ("car_space_id") WHERE identity = 1 and status = 2;--> statement-breakpoint
CREATE UNIQUE INDEX "person_house_one_owner_shop" ON "person_house" USING btree ("shop_id") WHERE identity = 1 and status = 2;--> statement-breakpoint
CREATE INDEX "person_house_history_unit_id_leave_time_index" ON "person_house_history" USING btree ("unit_id","leave_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "person_house_history_car_space_id_leave_time_index" ON "person_house_history" USING btree ("car_space_id","leave_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "person_house_history_shop_id_leave_time_index" ON "person_house_history" USING btree ("shop_id","leave_time" DESC NULLS LAST);
CREATE TABLE "work_total" (
	"kind" text NOT NULL,
	"company_id" integer NOT NULL,
	"housing_estate_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"type" smallint NOT NULL,
	"person_type" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "work_total_kind_housing_estate_id_status_type_person_type_pk" PRIMARY KEY("kind","housing_estate_id","status","type","person_type")
);
--> statement-breakpoint
DROP INDEX "complain_housing_estate_id_person_type_report_time_index";--> statement-breakpoint
DROP INDEX "event_order_housing_estate_id_person_type_report_time_index";--> statement-breakpoint
DROP INDEX "complain_estate_status_time_idx";--> statement-breakpoint
DROP INDEX "complain_estate_time_idx";--> statement-breakpoint
DROP INDEX "event_order_estate_status_time_idx";--> statement-breakpoint
DROP INDEX "event_order_estate_time_idx";--> statement-breakpoint
DROP INDEX "event_order_estate_type_time_idx";--> statement-breakpoint
CREATE INDEX "complain_estate_house_type_time_idx" ON "complain" USING btree ("company_id","housing_estate_id","person_type","report_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "event_order_estate_house_type_time_idx" ON "event_order" USING btree ("company_id","housing_estate_id","person_type","report_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "complain_estate_status_time_idx" ON "complain" USING btree ("company_id","housing_estate_id","complain_status","report_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "complain_estate_time_idx" ON "complain" USING btree ("company_id","housing_estate_id","report_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "event_order_estate_status_time_idx" ON "event_order" USING btree ("company_id","housing_estate_id","event_status","report_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "event_order_estate_time_idx" ON "event_order" USING btree ("company_id","housing_estate_id","report_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "event_order_estate_type_time_idx" ON "event_order" USING btree ("company_id","housing_estate_id","type","report_time" DESC NULLS FIRST,"id" DESC NULLS FIRST);
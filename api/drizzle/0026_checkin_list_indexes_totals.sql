CREATE TABLE "checkin_day_total" (
	"company_id" integer NOT NULL,
	"housing_estate_id" integer NOT NULL,
	"day" date NOT NULL,
	"department_id" integer NOT NULL,
	"shifts" integer NOT NULL,
	"late" integer NOT NULL,
	"left_early" integer NOT NULL,
	"missing_in" integer NOT NULL,
	"missing_out" integer NOT NULL,
	"absent" integer NOT NULL,
	"problems" integer NOT NULL,
	CONSTRAINT "checkin_day_total_pk" PRIMARY KEY("housing_estate_id","day","department_id")
);
--> statement-breakpoint
CREATE TABLE "checkin_month_total" (
	"company_id" integer NOT NULL,
	"housing_estate_id" integer NOT NULL,
	"month" date NOT NULL,
	"person_id" integer NOT NULL,
	"department_id" integer NOT NULL,
	"shifts" integer NOT NULL,
	"late" integer NOT NULL,
	"late_minutes" integer NOT NULL,
	"left_early" integer NOT NULL,
	"missing_in" integer NOT NULL,
	"missing_out" integer NOT NULL,
	"absent" integer NOT NULL,
	CONSTRAINT "checkin_month_total_pk" PRIMARY KEY("housing_estate_id","month","person_id","department_id")
);
--> statement-breakpoint
CREATE TABLE "checkin_punch_total" (
	"company_id" integer NOT NULL,
	"housing_estate_id" integer NOT NULL,
	"day" date NOT NULL,
	"in_place" boolean NOT NULL,
	"punches" integer NOT NULL,
	CONSTRAINT "checkin_punch_total_pk" PRIMARY KEY("housing_estate_id","day","in_place")
);
--> statement-breakpoint
DROP INDEX "checkin_punch_housing_estate_id_at_index";--> statement-breakpoint
CREATE INDEX "checkin_day_problems" ON "checkin_day" USING btree ("housing_estate_id","day") WHERE late or left_early or state in ('missingIn', 'missingOut', 'absent');--> statement-breakpoint
CREATE INDEX "checkin_punch_list" ON "checkin_punch" USING btree ("housing_estate_id","company_id","at","id","person_id","in_place");
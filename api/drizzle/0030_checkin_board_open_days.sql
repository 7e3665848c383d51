CREATE TABLE "checkin_open_day" (
	"housing_estate_id" integer NOT NULL,
	"day" date NOT NULL,
	"stamp" text NOT NULL,
	"valid_until" timestamp with time zone,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "checkin_open_day_pk" PRIMARY KEY("housing_estate_id","day")
);
--> statement-breakpoint
DROP INDEX "checkin_punch_list";--> statement-breakpoint
CREATE INDEX "checkin_punch_list" ON "checkin_punch" USING btree ("housing_estate_id","company_id","at","id","person_id","in_place","kind");
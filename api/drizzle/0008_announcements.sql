CREATE TABLE "announcement_recipient" (
	"announcement_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	CONSTRAINT "announcement_recipient_announcement_id_person_id_pk" PRIMARY KEY("announcement_id","person_id")
);
--> statement-breakpoint
ALTER TABLE "announcement" ADD COLUMN "recipient_car_park_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "announcement" ADD COLUMN "recipient_shop_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "announcement" ADD COLUMN "next_reminder_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "announcement" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "announcement_comment" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "announcement_recipient_person_id_index" ON "announcement_recipient" USING btree ("person_id");--> statement-breakpoint
CREATE INDEX "announcement_next_reminder_at_index" ON "announcement" USING btree ("next_reminder_at");--> statement-breakpoint
CREATE INDEX "announcement_scheduled_at_index" ON "announcement" USING btree ("scheduled_at");--> statement-breakpoint
CREATE INDEX "announcement_read_announcement_id_read_time_person_id_index" ON "announcement_read" USING btree ("announcement_id","read_time" DESC NULLS LAST,"person_id");
--> statement-breakpoint
INSERT INTO "announcement_recipient" ("announcement_id", "person_id")
SELECT DISTINCT a.id, ph.person_id
FROM "announcement" a
JOIN "person_house" ph ON ph.housing_estate_id = a.housing_estate_id AND ph.company_id = a.company_id
  AND ph.status = 2 AND ph.identity = ANY(a.recipient_identities)
LEFT JOIN "unit" u ON u.id = ph.unit_id
LEFT JOIN "car_space" cs ON cs.id = ph.car_space_id
WHERE (ph.house_type = 1 AND u.block_id = ANY(a.recipient_block_ids))
   OR (ph.house_type = 2 AND cs.car_park_id = ANY(a.recipient_car_park_ids))
   OR (ph.house_type = 3 AND ph.shop_id = ANY(a.recipient_shop_ids))
ON CONFLICT DO NOTHING;

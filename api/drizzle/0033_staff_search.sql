ALTER TABLE "person_company" ADD COLUMN "search" text;--> statement-breakpoint
CREATE INDEX "person_company_person_id_index" ON "person_company" USING btree ("person_id");
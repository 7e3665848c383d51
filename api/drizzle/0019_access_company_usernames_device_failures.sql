DROP INDEX "account_username_index";--> statement-breakpoint
ALTER TABLE "login_failure" ADD COLUMN "device" text;--> statement-breakpoint
CREATE UNIQUE INDEX "account_company_id_username_index" ON "account" USING btree ("company_id","username");--> statement-breakpoint
CREATE INDEX "account_username_id_index" ON "account" USING btree ("username","id");--> statement-breakpoint
CREATE INDEX "login_failure_device_at_index" ON "login_failure" USING btree ("device","at");
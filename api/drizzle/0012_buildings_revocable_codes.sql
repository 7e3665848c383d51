ALTER TABLE "car_space" ALTER COLUMN "invite_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "shop" ALTER COLUMN "invite_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "unit" ALTER COLUMN "invite_code" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "car_space" ADD COLUMN "revoked_invite_code" text;--> statement-breakpoint
ALTER TABLE "shop" ADD COLUMN "revoked_invite_code" text;--> statement-breakpoint
ALTER TABLE "unit" ADD COLUMN "revoked_invite_code" text;--> statement-breakpoint
CREATE INDEX "car_space_revoked_invite_code_index" ON "car_space" USING btree ("revoked_invite_code") WHERE revoked_invite_code is not null;--> statement-breakpoint
CREATE INDEX "shop_revoked_invite_code_index" ON "shop" USING btree ("revoked_invite_code") WHERE revoked_invite_code is not null;--> statement-breakpoint
CREATE INDEX "unit_revoked_invite_code_index" ON "unit" USING btree ("revoked_invite_code") WHERE revoked_invite_code is not null;
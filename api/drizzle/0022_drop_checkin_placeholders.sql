DROP TABLE IF EXISTS "checkin_rule" CASCADE;--> statement-breakpoint
DROP TABLE IF EXISTS "punch_record" CASCADE;
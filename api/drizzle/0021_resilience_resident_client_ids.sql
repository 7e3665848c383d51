CREATE TABLE "resident_write" (
	"person_id" integer NOT NULL,
	"kind" text NOT NULL,
	"client_id" text NOT NULL,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resident_write_person_id_kind_client_id_pk" PRIMARY KEY("person_id","kind","client_id")
);
--> statement-breakpoint
CREATE INDEX "resident_write_created_at_index" ON "resident_write" USING btree ("created_at");
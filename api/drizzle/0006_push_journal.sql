CREATE TABLE "push_cursor" (
	"person_id" integer PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "push_journal" (
	"person_id" integer NOT NULL,
	"seq" bigint NOT NULL,
	"message" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_journal_person_id_seq_pk" PRIMARY KEY("person_id","seq")
);
--> statement-breakpoint
CREATE INDEX "push_journal_created_at_index" ON "push_journal" USING btree ("created_at");
-- Uploads made before claimed_at existed may be referenced by saved records: they count as claimed
-- (only uploads made from now on and never saved are pruned as abandoned drafts).
UPDATE "upload_file" SET "claimed_at" = "created_at" WHERE "claimed_at" IS NULL;

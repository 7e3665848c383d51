-- Unread becomes a difference of two numbers (issue 31): the group's counted records
-- (message_count) minus what the member had read (read_count). Every record so far can be
-- unread (there were no system lines), so message_count is the record count and a member's
-- read_count is that minus the unread they had. member_count counts the current members, and
-- last_* copy the newest record for the conversation list.
UPDATE "im_group" g SET
  "message_count" = coalesce((SELECT count(*) FROM "im_chat_record" r WHERE r."group_id" = g."id"), 0),
  "member_count" = coalesce((SELECT count(*) FROM "im_group_member" m WHERE m."group_id" = g."id" AND m."quit_at" IS NULL), 0);
--> statement-breakpoint
UPDATE "im_group" g SET "last_type" = r."type", "last_content" = r."content", "last_from_person_id" = r."from_person_id", "last_at" = r."created_at"
  FROM "im_chat_record" r WHERE r."group_id" = g."id" AND r."seq" = g."last_seq";
--> statement-breakpoint
UPDATE "im_group_member" m SET "read_count" = greatest(0, g."message_count" - m."unread") FROM "im_group" g WHERE g."id" = m."group_id";

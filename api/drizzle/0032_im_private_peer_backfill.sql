-- A private chat's other member (not its owner) for the chats made before peer_person_id existed:
-- the conversation list reads it instead of looking the member up per row.
UPDATE "im_group" g SET "peer_person_id" = (
  SELECT m."person_id" FROM "im_group_member" m
  WHERE m."group_id" = g."id" AND m."person_id" <> g."owner_person_id"
  ORDER BY m."person_id" LIMIT 1
) WHERE g."group_type" = 1 AND g."peer_person_id" IS NULL;

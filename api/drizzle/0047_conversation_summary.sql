ALTER TABLE "im_group" ADD COLUMN "last_from_name" text;--> statement-breakpoint
ALTER TABLE "im_group" ADD COLUMN "owner_name" text;--> statement-breakpoint
ALTER TABLE "im_group" ADD COLUMN "owner_images" text;--> statement-breakpoint
ALTER TABLE "im_group" ADD COLUMN "owner_resident" boolean;--> statement-breakpoint
ALTER TABLE "im_group" ADD COLUMN "peer_name" text;--> statement-breakpoint
ALTER TABLE "im_group" ADD COLUMN "peer_images" text;--> statement-breakpoint
ALTER TABLE "im_group" ADD COLUMN "peer_resident" boolean;--> statement-breakpoint
CREATE INDEX "im_group_owner_private_idx" ON "im_group" USING btree ("owner_person_id") WHERE group_type = 1;--> statement-breakpoint
CREATE INDEX "im_group_peer_idx" ON "im_group" USING btree ("peer_person_id") WHERE peer_person_id is not null;--> statement-breakpoint
CREATE INDEX "im_group_last_from_idx" ON "im_group" USING btree ("last_from_person_id") WHERE last_from_person_id is not null;--> statement-breakpoint
-- The conversation list (issue 31) joined `person` twice for each of up to 1,000 rows (the last
-- sender's name; a private chat's other party's name, avatar list and resident flag through a
-- sub-plan on person_house): about half of the statement's time for a person with 2,000
-- conversations. Those values are now kept on the group by the triggers below, in the writer's
-- own transaction, whoever writes (the api, the seeds, a script), and the list reads the
-- person's memberships and their groups alone. A missing person leaves the values null, as the
-- left joins gave. ChatGroupType.private is 1, JoinStatus.approved is 2.
CREATE OR REPLACE FUNCTION im_group_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.last_from_name := (SELECT p.name FROM person p WHERE p.id = NEW.last_from_person_id);
  NEW.owner_name := NULL;
  NEW.owner_images := NULL;
  NEW.owner_resident := NULL;
  NEW.peer_name := NULL;
  NEW.peer_images := NULL;
  NEW.peer_resident := NULL;
  IF NEW.group_type = 1 THEN
    SELECT p.name, p.images::text,
           EXISTS (SELECT 1 FROM person_house ph WHERE ph.person_id = p.id AND ph.status = 2)
      INTO NEW.owner_name, NEW.owner_images, NEW.owner_resident
      FROM person p WHERE p.id = NEW.owner_person_id;
    IF NEW.peer_person_id IS NOT NULL THEN
      SELECT p.name, p.images::text,
             EXISTS (SELECT 1 FROM person_house ph WHERE ph.person_id = p.id AND ph.status = 2)
        INTO NEW.peer_name, NEW.peer_images, NEW.peer_resident
        FROM person p WHERE p.id = NEW.peer_person_id;
    END IF;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER im_group_people BEFORE INSERT ON im_group
  FOR EACH ROW EXECUTE FUNCTION im_group_people();
--> statement-breakpoint
-- A message by another sender than the last one (the same sender's name is kept by the trigger
-- on person), or a group's owner, peer or type changed.
CREATE TRIGGER im_group_people_changed BEFORE UPDATE OF last_from_person_id, owner_person_id, peer_person_id, group_type ON im_group
  FOR EACH ROW WHEN (OLD.last_from_person_id IS DISTINCT FROM NEW.last_from_person_id
    OR OLD.owner_person_id IS DISTINCT FROM NEW.owner_person_id
    OR OLD.peer_person_id IS DISTINCT FROM NEW.peer_person_id
    OR OLD.group_type IS DISTINCT FROM NEW.group_type)
  EXECUTE FUNCTION im_group_people();
--> statement-breakpoint
-- A person's groups as the list shows them: the private chats they own or are the peer of, with
-- their name, avatar list and resident flag, and the groups whose last message is theirs.
CREATE OR REPLACE FUNCTION im_group_person_refresh(who integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  nm text;
  im text;
  res boolean;
BEGIN
  SELECT p.name, p.images::text,
         EXISTS (SELECT 1 FROM person_house ph WHERE ph.person_id = p.id AND ph.status = 2)
    INTO nm, im, res FROM person p WHERE p.id = who;
  UPDATE im_group SET owner_name = nm, owner_images = im, owner_resident = res
    WHERE owner_person_id = who AND group_type = 1
      AND (owner_name IS DISTINCT FROM nm OR owner_images IS DISTINCT FROM im OR owner_resident IS DISTINCT FROM res);
  UPDATE im_group SET peer_name = nm, peer_images = im, peer_resident = res
    WHERE peer_person_id = who AND group_type = 1
      AND (peer_name IS DISTINCT FROM nm OR peer_images IS DISTINCT FROM im OR peer_resident IS DISTINCT FROM res);
  UPDATE im_group SET last_from_name = nm
    WHERE last_from_person_id = who AND last_from_name IS DISTINCT FROM nm;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION person_im_group_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM im_group_person_refresh(CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A person renamed or given another avatar, added (a group may name them first) or deleted.
CREATE TRIGGER person_im_group_people AFTER UPDATE OF name, images ON person
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.images IS DISTINCT FROM NEW.images)
  EXECUTE FUNCTION person_im_group_people();
--> statement-breakpoint
CREATE TRIGGER person_im_group_people_added AFTER INSERT OR DELETE ON person
  FOR EACH ROW EXECUTE FUNCTION person_im_group_people();
--> statement-breakpoint
-- A residence approved, refused, moved to another person or deleted: the resident flag.
CREATE OR REPLACE FUNCTION person_house_im_group_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM im_group_person_refresh(OLD.person_id);
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.person_id IS DISTINCT FROM OLD.person_id) THEN
    PERFORM im_group_person_refresh(NEW.person_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER person_house_im_group_people AFTER INSERT OR DELETE OR UPDATE OF person_id, status ON person_house
  FOR EACH ROW EXECUTE FUNCTION person_house_im_group_people();
--> statement-breakpoint
-- The groups there are.
UPDATE im_group g SET last_from_name = (SELECT p.name FROM person p WHERE p.id = g.last_from_person_id)
  WHERE g.last_from_person_id IS NOT NULL;
--> statement-breakpoint
UPDATE im_group g SET owner_name = p.name, owner_images = p.images::text,
    owner_resident = EXISTS (SELECT 1 FROM person_house ph WHERE ph.person_id = p.id AND ph.status = 2)
  FROM person p WHERE g.group_type = 1 AND p.id = g.owner_person_id;
--> statement-breakpoint
UPDATE im_group g SET peer_name = p.name, peer_images = p.images::text,
    peer_resident = EXISTS (SELECT 1 FROM person_house ph WHERE ph.person_id = p.id AND ph.status = 2)
  FROM person p WHERE g.group_type = 1 AND p.id = g.peer_person_id;

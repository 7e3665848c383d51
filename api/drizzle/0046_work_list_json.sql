ALTER TABLE "complain" ADD COLUMN "list_json" text;--> statement-breakpoint
ALTER TABLE "event_order" ADD COLUMN "list_json" text;--> statement-breakpoint
-- The list page (issue 34) built each of its rows' JSON on every read: json_build_object of the
-- row's nineteen fields and to_char of its report time, ten times a page, most of what a cold page
-- cost PostgreSQL (and PGlite, inside the api). The row's JSON, exactly as the page answers it
-- (SPEC §3, the kind's field names; the same expression as `rowFields` in work-orders.repository.ts),
-- is now made once, when the row is written, by the triggers below (whoever writes: the api, the
-- seeds, a script, the display triggers of migration 0045), and a page joins ten texts.
-- BEFORE triggers fire in name order: `*_list_json` after `*_display`, so the row's display
-- (filled by work_display) is in it. On every insert and update, whatever the columns changed.
CREATE OR REPLACE FUNCTION complain_list_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.list_json := json_build_object(
    'complainId', NEW.id,
    'complainCode', NEW.complain_code,
    'complainStatus', NEW.complain_status,
    'name', NEW.name,
    'reportPersonId', NEW.report_person_id,
    'reportPersonName', NEW.report_person_name,
    'reportPersonPhoto', NEW.report_person_photo,
    'personType', NEW.person_type,
    'personIdentity', NEW.person_identity,
    'unitId', NEW.unit_id,
    'unitName', NEW.unit_name,
    'floorName', NEW.floor_name,
    'buildName', NEW.build_name,
    'carParkId', NEW.car_space_id,
    'carParkCode', NEW.carpark_code,
    'shopId', NEW.shop_id,
    'shopCode', NEW.shop_code,
    'reportTime', to_char(NEW.report_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER complain_list_json BEFORE INSERT OR UPDATE ON complain
  FOR EACH ROW EXECUTE FUNCTION complain_list_json();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION event_order_list_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.list_json := json_build_object(
    'eventOrderId', NEW.id,
    'eventCode', NEW.event_code,
    'eventStatus', NEW.event_status,
    'type', NEW.type,
    'name', NEW.name,
    'reportPersonId', NEW.report_person_id,
    'reportPersonName', NEW.report_person_name,
    'reportPersonPhoto', NEW.report_person_photo,
    'personType', NEW.person_type,
    'personIdentity', NEW.person_identity,
    'unitId', NEW.unit_id,
    'unitName', NEW.unit_name,
    'floorName', NEW.floor_name,
    'buildName', NEW.build_name,
    'carParkId', NEW.car_space_id,
    'carParkCode', NEW.carpark_code,
    'shopId', NEW.shop_id,
    'shopCode', NEW.shop_code,
    'reportTime', to_char(NEW.report_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER event_order_list_json BEFORE INSERT OR UPDATE ON event_order
  FOR EACH ROW EXECUTE FUNCTION event_order_list_json();
--> statement-breakpoint
-- Existing rows: the trigger makes each row's JSON as it is updated (the counters' triggers see
-- rows unchanged in what they count).
UPDATE complain SET list_json = NULL;
--> statement-breakpoint
UPDATE event_order SET list_json = NULL;

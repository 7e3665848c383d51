-- Staff check-in counters (issue 32 budgets): checkin_punch_total, checkin_day_total and
-- checkin_month_total follow checkin_punch and checkin_day through statement triggers (one
-- grouped upsert of the statement's rows, added for new rows and taken off for old ones), in the
-- writer's own transaction. A punch counts on its day in the estate's time zone: a change of the
-- zone counts the estate's punches again. Self-contained: backfills from the rows already there.

CREATE OR REPLACE FUNCTION checkin_punch_total_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO checkin_punch_total AS t (company_id, housing_estate_id, day, in_place, punches)
    SELECT o.company_id, o.housing_estate_id, (o.at AT TIME ZONE he.time_zone)::date, o.in_place, -count(*)
    FROM old_rows o JOIN housing_estate he ON he.id = o.housing_estate_id
    GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4
    ON CONFLICT (housing_estate_id, day, in_place) DO UPDATE SET punches = t.punches + excluded.punches;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO checkin_punch_total AS t (company_id, housing_estate_id, day, in_place, punches)
    SELECT n.company_id, n.housing_estate_id, (n.at AT TIME ZONE he.time_zone)::date, n.in_place, count(*)
    FROM new_rows n JOIN housing_estate he ON he.id = n.housing_estate_id
    GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4
    ON CONFLICT (housing_estate_id, day, in_place) DO UPDATE SET punches = t.punches + excluded.punches;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER checkin_punch_total_insert AFTER INSERT ON checkin_punch
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION checkin_punch_total_apply();
--> statement-breakpoint
CREATE TRIGGER checkin_punch_total_update AFTER UPDATE ON checkin_punch
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION checkin_punch_total_apply();
--> statement-breakpoint
CREATE TRIGGER checkin_punch_total_delete AFTER DELETE ON checkin_punch
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION checkin_punch_total_apply();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION checkin_punch_total_rezone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.time_zone IS DISTINCT FROM OLD.time_zone THEN
    DELETE FROM checkin_punch_total WHERE housing_estate_id = NEW.id;
    INSERT INTO checkin_punch_total (company_id, housing_estate_id, day, in_place, punches)
    SELECT p.company_id, p.housing_estate_id, (p.at AT TIME ZONE NEW.time_zone)::date, p.in_place, count(*)
    FROM checkin_punch p WHERE p.housing_estate_id = NEW.id GROUP BY 1, 2, 3, 4;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER checkin_punch_total_rezone AFTER UPDATE OF time_zone ON housing_estate
  FOR EACH ROW EXECUTE FUNCTION checkin_punch_total_rezone();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION checkin_day_total_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO checkin_day_total AS t (company_id, housing_estate_id, day, department_id, shifts, late, left_early,
                                       missing_in, missing_out, absent, problems)
    SELECT o.company_id, o.housing_estate_id, o.day, coalesce(o.department_id, 0), -count(*),
           -count(*) FILTER (WHERE o.late), -count(*) FILTER (WHERE o.left_early),
           -count(*) FILTER (WHERE o.state = 'missingIn'), -count(*) FILTER (WHERE o.state = 'missingOut'),
           -count(*) FILTER (WHERE o.state = 'absent'),
           -count(*) FILTER (WHERE o.late OR o.left_early OR o.state IN ('missingIn', 'missingOut', 'absent'))
    FROM old_rows o GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4
    ON CONFLICT (housing_estate_id, day, department_id) DO UPDATE SET shifts = t.shifts + excluded.shifts,
      late = t.late + excluded.late, left_early = t.left_early + excluded.left_early,
      missing_in = t.missing_in + excluded.missing_in, missing_out = t.missing_out + excluded.missing_out,
      absent = t.absent + excluded.absent, problems = t.problems + excluded.problems;
    INSERT INTO checkin_month_total AS t (company_id, housing_estate_id, month, person_id, department_id, shifts, late,
                                         late_minutes, left_early, missing_in, missing_out, absent)
    SELECT o.company_id, o.housing_estate_id, (o.day - extract(day from o.day)::int + 1), o.person_id, coalesce(o.department_id, 0),
           -count(*), -count(*) FILTER (WHERE o.late), -coalesce(sum(o.late_minutes) FILTER (WHERE o.late), 0),
           -count(*) FILTER (WHERE o.left_early), -count(*) FILTER (WHERE o.state = 'missingIn'),
           -count(*) FILTER (WHERE o.state = 'missingOut'), -count(*) FILTER (WHERE o.state = 'absent')
    FROM old_rows o GROUP BY 1, 2, 3, 4, 5 ORDER BY 2, 3, 4, 5
    ON CONFLICT (housing_estate_id, month, person_id, department_id) DO UPDATE SET shifts = t.shifts + excluded.shifts,
      late = t.late + excluded.late, late_minutes = t.late_minutes + excluded.late_minutes,
      left_early = t.left_early + excluded.left_early, missing_in = t.missing_in + excluded.missing_in,
      missing_out = t.missing_out + excluded.missing_out, absent = t.absent + excluded.absent;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO checkin_day_total AS t (company_id, housing_estate_id, day, department_id, shifts, late, left_early,
                                       missing_in, missing_out, absent, problems)
    SELECT n.company_id, n.housing_estate_id, n.day, coalesce(n.department_id, 0), count(*),
           count(*) FILTER (WHERE n.late), count(*) FILTER (WHERE n.left_early),
           count(*) FILTER (WHERE n.state = 'missingIn'), count(*) FILTER (WHERE n.state = 'missingOut'),
           count(*) FILTER (WHERE n.state = 'absent'),
           count(*) FILTER (WHERE n.late OR n.left_early OR n.state IN ('missingIn', 'missingOut', 'absent'))
    FROM new_rows n GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4
    ON CONFLICT (housing_estate_id, day, department_id) DO UPDATE SET shifts = t.shifts + excluded.shifts,
      late = t.late + excluded.late, left_early = t.left_early + excluded.left_early,
      missing_in = t.missing_in + excluded.missing_in, missing_out = t.missing_out + excluded.missing_out,
      absent = t.absent + excluded.absent, problems = t.problems + excluded.problems;
    INSERT INTO checkin_month_total AS t (company_id, housing_estate_id, month, person_id, department_id, shifts, late,
                                         late_minutes, left_early, missing_in, missing_out, absent)
    SELECT n.company_id, n.housing_estate_id, (n.day - extract(day from n.day)::int + 1), n.person_id, coalesce(n.department_id, 0),
           count(*), count(*) FILTER (WHERE n.late), coalesce(sum(n.late_minutes) FILTER (WHERE n.late), 0),
           count(*) FILTER (WHERE n.left_early), count(*) FILTER (WHERE n.state = 'missingIn'),
           count(*) FILTER (WHERE n.state = 'missingOut'), count(*) FILTER (WHERE n.state = 'absent')
    FROM new_rows n GROUP BY 1, 2, 3, 4, 5 ORDER BY 2, 3, 4, 5
    ON CONFLICT (housing_estate_id, month, person_id, department_id) DO UPDATE SET shifts = t.shifts + excluded.shifts,
      late = t.late + excluded.late, late_minutes = t.late_minutes + excluded.late_minutes,
      left_early = t.left_early + excluded.left_early, missing_in = t.missing_in + excluded.missing_in,
      missing_out = t.missing_out + excluded.missing_out, absent = t.absent + excluded.absent;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER checkin_day_total_insert AFTER INSERT ON checkin_day
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION checkin_day_total_apply();
--> statement-breakpoint
CREATE TRIGGER checkin_day_total_update AFTER UPDATE ON checkin_day
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION checkin_day_total_apply();
--> statement-breakpoint
CREATE TRIGGER checkin_day_total_delete AFTER DELETE ON checkin_day
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION checkin_day_total_apply();
--> statement-breakpoint
INSERT INTO checkin_punch_total (company_id, housing_estate_id, day, in_place, punches)
SELECT p.company_id, p.housing_estate_id, (p.at AT TIME ZONE he.time_zone)::date, p.in_place, count(*)
FROM checkin_punch p JOIN housing_estate he ON he.id = p.housing_estate_id GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO checkin_day_total (company_id, housing_estate_id, day, department_id, shifts, late, left_early, missing_in,
                               missing_out, absent, problems)
SELECT company_id, housing_estate_id, day, coalesce(department_id, 0), count(*), count(*) FILTER (WHERE late),
       count(*) FILTER (WHERE left_early), count(*) FILTER (WHERE state = 'missingIn'),
       count(*) FILTER (WHERE state = 'missingOut'), count(*) FILTER (WHERE state = 'absent'),
       count(*) FILTER (WHERE late OR left_early OR state IN ('missingIn', 'missingOut', 'absent'))
FROM checkin_day GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO checkin_month_total (company_id, housing_estate_id, month, person_id, department_id, shifts, late,
                                 late_minutes, left_early, missing_in, missing_out, absent)
SELECT company_id, housing_estate_id, (day - extract(day from day)::int + 1), person_id, coalesce(department_id, 0), count(*),
       count(*) FILTER (WHERE late), coalesce(sum(late_minutes) FILTER (WHERE late), 0),
       count(*) FILTER (WHERE left_early), count(*) FILTER (WHERE state = 'missingIn'),
       count(*) FILTER (WHERE state = 'missingOut'), count(*) FILTER (WHERE state = 'absent')
FROM checkin_day GROUP BY 1, 2, 3, 4, 5;

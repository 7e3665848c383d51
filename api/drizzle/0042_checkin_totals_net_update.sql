-- Staff check-in counters: an UPDATE of checkin_day changes checkin_day_total and
-- checkin_month_total by one net change per counter row, and writes only the rows whose counts
-- change. Before, every update took its old rows off (one upsert) and added its new ones (a
-- second), rewriting each counter row twice even when no count changed (an open day recomputed
-- as time passes: a shift going from not yet in to on duty, or from on duty to done), leaving
-- two dead versions of every counter row the update touched. Inserts and deletes count as before
-- (migration checkin_totals_triggers).
CREATE OR REPLACE FUNCTION checkin_day_total_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- One net change per counter row: the statement's new rows counted in, its old rows out, and
    -- only the rows whose counts change written (a shift changing state without changing a count,
    -- an in or out time moved: nothing written).
    WITH c AS (
      SELECT n.company_id, n.housing_estate_id, n.day, n.person_id, coalesce(n.department_id, 0) AS department_id,
             1 AS sign, n.late, n.left_early, n.state, n.late_minutes
      FROM new_rows n
      UNION ALL
      SELECT o.company_id, o.housing_estate_id, o.day, o.person_id, coalesce(o.department_id, 0), -1, o.late,
             o.left_early, o.state, o.late_minutes
      FROM old_rows o
    )
    INSERT INTO checkin_day_total AS t (company_id, housing_estate_id, day, department_id, shifts, late, left_early,
                                       missing_in, missing_out, absent, problems)
    SELECT g.* FROM (
      SELECT c.company_id, c.housing_estate_id, c.day, c.department_id, sum(c.sign)::int AS shifts,
             coalesce(sum(c.sign) FILTER (WHERE c.late), 0)::int AS late,
             coalesce(sum(c.sign) FILTER (WHERE c.left_early), 0)::int AS left_early,
             coalesce(sum(c.sign) FILTER (WHERE c.state = 'missingIn'), 0)::int AS missing_in,
             coalesce(sum(c.sign) FILTER (WHERE c.state = 'missingOut'), 0)::int AS missing_out,
             coalesce(sum(c.sign) FILTER (WHERE c.state = 'absent'), 0)::int AS absent,
             coalesce(sum(c.sign) FILTER (WHERE c.late OR c.left_early OR c.state IN ('missingIn', 'missingOut', 'absent')), 0)::int
               AS problems
      FROM c GROUP BY 1, 2, 3, 4
    ) g
    WHERE (g.shifts, g.late, g.left_early, g.missing_in, g.missing_out, g.absent, g.problems) <> (0, 0, 0, 0, 0, 0, 0)
    ORDER BY 2, 3, 4
    ON CONFLICT (housing_estate_id, day, department_id) DO UPDATE SET shifts = t.shifts + excluded.shifts,
      late = t.late + excluded.late, left_early = t.left_early + excluded.left_early,
      missing_in = t.missing_in + excluded.missing_in, missing_out = t.missing_out + excluded.missing_out,
      absent = t.absent + excluded.absent, problems = t.problems + excluded.problems;
    WITH c AS (
      SELECT n.company_id, n.housing_estate_id, n.day, n.person_id, coalesce(n.department_id, 0) AS department_id,
             1 AS sign, n.late, n.left_early, n.state, n.late_minutes
      FROM new_rows n
      UNION ALL
      SELECT o.company_id, o.housing_estate_id, o.day, o.person_id, coalesce(o.department_id, 0), -1, o.late,
             o.left_early, o.state, o.late_minutes
      FROM old_rows o
    )
    INSERT INTO checkin_month_total AS t (company_id, housing_estate_id, month, person_id, department_id, shifts, late,
                                         late_minutes, left_early, missing_in, missing_out, absent)
    SELECT g.* FROM (
      SELECT c.company_id, c.housing_estate_id, (c.day - extract(day from c.day)::int + 1) AS month, c.person_id,
             c.department_id, sum(c.sign)::int AS shifts, coalesce(sum(c.sign) FILTER (WHERE c.late), 0)::int AS late,
             coalesce(sum(c.sign * c.late_minutes) FILTER (WHERE c.late), 0)::int AS late_minutes,
             coalesce(sum(c.sign) FILTER (WHERE c.left_early), 0)::int AS left_early,
             coalesce(sum(c.sign) FILTER (WHERE c.state = 'missingIn'), 0)::int AS missing_in,
             coalesce(sum(c.sign) FILTER (WHERE c.state = 'missingOut'), 0)::int AS missing_out,
             coalesce(sum(c.sign) FILTER (WHERE c.state = 'absent'), 0)::int AS absent
      FROM c GROUP BY 1, 2, 3, 4, 5
    ) g
    WHERE (g.shifts, g.late, g.late_minutes, g.left_early, g.missing_in, g.missing_out, g.absent) <> (0, 0, 0, 0, 0, 0, 0)
    ORDER BY 2, 3, 4, 5
    ON CONFLICT (housing_estate_id, month, person_id, department_id) DO UPDATE SET shifts = t.shifts + excluded.shifts,
      late = t.late + excluded.late, late_minutes = t.late_minutes + excluded.late_minutes,
      left_early = t.left_early + excluded.left_early, missing_in = t.missing_in + excluded.missing_in,
      missing_out = t.missing_out + excluded.missing_out, absent = t.absent + excluded.absent;
  ELSIF TG_OP = 'DELETE' THEN
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
  ELSE
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

import { describe, expect, it } from 'vitest';
import { tablesWritten } from '../write-watch';

describe('tablesWritten', () => {
  it('when a statement inserts, updates, deletes or truncates, then its tables are named, in CTEs too', () => {
    expect([...tablesWritten('insert into "complain" ("name") values ($1)')]).toEqual(['complain']);
    expect([...tablesWritten('update person p set name = $1 where id = $2')]).toEqual(['person']);
    expect([...tablesWritten('DELETE FROM public."Unit" where id = 1')]).toEqual(['unit']);
    expect([...tablesWritten('truncate table shop')]).toEqual(['shop']);
    expect([...tablesWritten('with x as (update block set name = 1 returning id) select * from x')]).toEqual(['block']);
  });

  it('when a statement only reads, then no table is named', () => {
    expect(tablesWritten('select * from complain w join person p on p.id = w.report_person_id').size).toBe(0);
  });
});

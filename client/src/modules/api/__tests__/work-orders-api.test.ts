import { describe, expect, it } from 'vitest';
import { listBody } from '../work-orders-api';

describe('listBody', () => {
  it('when filters are set, then each is sent, the status under the kind’s own field name', () => {
    const f = { status: 2, type: 3, keyword: ' leak ', startTime: '2026-11-01', endTime: '2026-11-30', houseType: 1 };
    expect(listBody('eventOrder', 1, 10, f)).toStrictEqual({
      page: 1,
      limit: 10,
      eventStatus: 2,
      type: 3,
      houseType: 1,
      keyword: 'leak',
      startTime: '2026-11-01',
      endTime: '2026-11-30',
    });
    expect(listBody('complaint', 2, 20, f)).toStrictEqual({
      page: 2,
      limit: 20,
      complainStatus: 2,
      houseType: 1,
      keyword: 'leak',
      startTime: '2026-11-01',
      endTime: '2026-11-30',
    });
  });

  it('when a filter is left out, empty, blank or 0, then it is not sent', () => {
    const none = { status: 0, type: 0, keyword: '  ', startTime: '', endTime: '', houseType: 0 };
    expect(listBody('eventOrder', 1, 10, none)).toStrictEqual({ page: 1, limit: 10 });
    expect(listBody('complaint', 1, 10, {})).toStrictEqual({ page: 1, limit: 10 });
  });
});

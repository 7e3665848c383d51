import type {
  CheckinBoard,
  CheckinDayRow,
  CheckinMakeupRow,
  CheckinMonthRow,
  CheckinPunchRow,
  CheckinRuleRow,
  ListPage,
} from '@pm/shared';
import { call, type CallInput } from './call';

export type { CheckinBoard, CheckinDayRow, CheckinMakeupRow, CheckinMonthRow, CheckinPunchRow, CheckinRuleRow };

// Staff check-in (issue 32): the console's calls.
export const fetchCheckinBoard = (signal?: AbortSignal) => call('GET /base/checkin/board', {}, { signal });
export const fetchCheckinStaff = (signal?: AbortSignal) => call('GET /base/checkin/staff', {}, { signal });
export const fetchPunches = (body: CallInput<'POST /base/checkin/punch/page'>, signal?: AbortSignal) =>
  call('POST /base/checkin/punch/page', body, { signal }) as Promise<ListPage<CheckinPunchRow>>;
export const fetchCheckinDays = (body: CallInput<'POST /base/checkin/day/page'>, signal?: AbortSignal) =>
  call('POST /base/checkin/day/page', body, { signal }) as Promise<ListPage<CheckinDayRow>>;
export const fetchCheckinMonth = (body: CallInput<'POST /base/checkin/month/page'>, signal?: AbortSignal) =>
  call('POST /base/checkin/month/page', body, { signal }) as Promise<ListPage<CheckinMonthRow>>;
export const reviewMakeup = (makeupId: number, approve: boolean) =>
  call('POST /base/checkin/makeup/review', { makeupId, approve });
export const fetchCheckinRules = (signal?: AbortSignal) => call('POST /base/checkin/rule/list', {}, { signal });
export const saveCheckinRule = (body: CallInput<'POST /base/checkin/rule/save'>) =>
  call('POST /base/checkin/rule/save', body);
export const deleteCheckinRule = (ruleId: number) => call('POST /base/checkin/rule/delete', { ruleId });
export const fetchCheckinHolidays = (signal?: AbortSignal) => call('GET /base/checkin/holiday/list', {}, { signal });
export const saveCheckinHoliday = (day: string, name: string) => call('POST /base/checkin/holiday/save', { day, name });
export const deleteCheckinHoliday = (day: string) => call('POST /base/checkin/holiday/delete', { day });
export const fetchMakeups = (body: CallInput<'POST /base/checkin/makeup/page'>, signal?: AbortSignal) =>
  call('POST /base/checkin/makeup/page', body, { signal }) as Promise<ListPage<CheckinMakeupRow>>;

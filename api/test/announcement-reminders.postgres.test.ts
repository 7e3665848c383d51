// Vote reminders (issue 20) with two api processes on one PostgreSQL and across a restart: the
// schedule is a column claimed with one conditional UPDATE, so each resident who has not voted
// gets exactly one reminder per interval, whichever process claims it, and the schedule goes on
// after every process was stopped. One interval unit is shortened to 1.5 s for the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, openRealtime, signIn, spawnApi, type ApiProcess, type TestSocket } from './kit';

const UNIT_MS = 1_500;

async function startProcess(databaseUrl: string, dataDir: string): Promise<ApiProcess> {
  const api = await spawnApi({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SEED_DEMO: '1',
    ANNOUNCEMENT_REMINDER_UNIT_MS: String(UNIT_MS),
    ANNOUNCEMENT_REMINDER_TICK_MS: '100',
  });
  await api.healthy();
  return api;
}

type Push = Record<string, unknown>;
const remindersOf = (socket: TestSocket, id: number) =>
  socket.messages.filter((m: Push) => m.channelType === 9 && m.dataId === id && m.action === 'reminder');

/** The server's times of the reminders, in order; any two are at least one interval apart. */
function assertOnePerInterval(reminders: Push[]) {
  const times = reminders.map((m) => Date.parse(String(m.messageTime))).sort((a, b) => a - b);
  for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(UNIT_MS);
}

describe('vote reminders with two api processes on one PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pm-remind-'));
  const procs: ApiProcess[] = [];
  let schema: Awaited<ReturnType<typeof freshSchema>>;

  beforeAll(async () => {
    schema = await freshSchema();
    procs.push(
      ...(await Promise.all([
        startProcess(schema.url, join(dataDir, 'a')),
        startProcess(schema.url, join(dataDir, 'b')),
      ])),
    );
  }, 90_000);

  afterAll(async () => {
    for (const p of procs) await p.stop();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when a vote is open, then each resident who has not voted gets one reminder per interval from either process, none after voting, and the schedule survives a restart', async () => {
    const [a, b] = procs;
    const admin = await signIn(a, 'admin');
    const [r1, r2] = await Promise.all([signIn(a, 'resident1'), signIn(b, 'resident2')]);
    const blocks = (await admin.get('/announcement/recipients/choices')).body.data.blocks.map(
      (x: { id: number }) => x.id,
    );
    const published = await admin.post('/announcement/save', {
      type: 3,
      title: 'Reminder check',
      content: '<p>Vote, please</p>',
      recipientBlockIds: blocks,
      recipientIdentities: [1, 2, 3],
      deadline: new Date(Date.now() + 3_600_000).toISOString(),
      selectionMode: 1,
      reminderInterval: 1,
      options: ['Yes', 'No'],
    });
    expect(published.status).toBe(200);
    const { id, options } = published.body.data as { id: number; options: { id: number }[] };
    const list = async (who: typeof r1) =>
      ((await who.get('/app/announcement/list')).body.data as Push[]).map((x) => x.id);
    expect(await list(r1)).toContain(id);
    expect(await list(r2)).toContain(id);

    const onA = await openRealtime(a, r1);
    const onB = await openRealtime(b, r2);
    try {
      // Three intervals' worth of reminders reach both residents, one per interval.
      await expect
        .poll(() => remindersOf(onA, id).length, { timeout: 15_000, interval: 100 })
        .toBeGreaterThanOrEqual(3);
      await expect
        .poll(() => remindersOf(onB, id).length, { timeout: 15_000, interval: 100 })
        .toBeGreaterThanOrEqual(3);
      assertOnePerInterval(remindersOf(onA, id));
      assertOnePerInterval(remindersOf(onB, id));

      // resident1 votes: the reminders go on for resident2 only.
      expect((await r1.post('/app/announcement/vote', { id, optionIds: [options[0].id] })).status).toBe(200);
      const votedAt = Date.now();
      const r1Count = remindersOf(onA, id).length;
      const r2Count = remindersOf(onB, id).length;
      await expect
        .poll(() => remindersOf(onB, id).length, { timeout: 15_000, interval: 100 })
        .toBeGreaterThanOrEqual(r2Count + 2);
      const lateForR1 = remindersOf(onA, id).filter((m) => Date.parse(String(m.messageTime)) > votedAt + 200);
      expect(remindersOf(onA, id).length).toBeLessThanOrEqual(r1Count + 1);
      expect(lateForR1).toEqual([]);
    } finally {
      await onA.close();
      await onB.close();
    }

    // Every process stops; a new one on the same database takes the schedule up again.
    for (const p of procs.splice(0)) await p.stop();
    const c = await startProcess(schema.url, join(dataDir, 'c'));
    procs.push(c);
    const again = await signIn(c, 'resident2');
    const onC = await openRealtime(c, again);
    try {
      await expect
        .poll(() => remindersOf(onC, id).length, { timeout: 15_000, interval: 100 })
        .toBeGreaterThanOrEqual(2);
      assertOnePerInterval(remindersOf(onC, id));
    } finally {
      await onC.close();
    }
  }, 90_000);
});

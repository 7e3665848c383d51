// Sending never loses or doubles a message (issue 31): a message sent while the api is killed
// (kill -9, mid-request) and resent with the same client id after the restart is stored once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signIn, spawnApi, type ApiProcess } from './kit';

describe('chat resend after a killed api', () => {
  let dataDir = '';
  let api: ApiProcess | undefined;
  afterAll(async () => {
    await api?.stop('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('when the api is killed while a message is sent and the client resends it after the restart, then exactly one record is stored and the resend answers it', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pm-im-resend-'));
    const env = { DATABASE_URL: '', DATA_DIR: dataDir, SEED_DEMO: '1', API_METRICS_PORT: 'off' };
    api = await spawnApi(env);
    await api.healthy();
    const resident = await signIn(api.url, 'resident1');
    const admin = await signIn(api.url, 'admin');
    const { groupId } = (await resident.get(`/im/chatrecord/check/chat/${resident.personId}/${admin.personId}`)).body
      .data;
    const body = { groupId, content: 'Sent during a crash', clientId: 'crash-resend-0001' };

    // The first send races the kill: it may or may not have been stored.
    const first = resident.post('/im/chatrecord/save', body).then(
      (r) => r.status,
      () => 0,
    );
    await new Promise((r) => setTimeout(r, 15));
    await api.stop('SIGKILL');
    await first;

    api = await spawnApi({ ...env, API_PORT: new URL(api.url).port });
    await api.healthy();
    const again = await resident.post('/im/chatrecord/save', body);
    expect(again.status).toBe(200);
    const twice = await resident.post('/im/chatrecord/save', body);
    expect(twice.body.data.recordId).toBe(again.body.data.recordId);
    const list = (await admin.post('/im/chatrecord/list', { groupId, limit: 100 })).body.data.list as {
      clientId: string | null;
    }[];
    expect(list.filter((r) => r.clientId === 'crash-resend-0001')).toHaveLength(1);
  }, 180_000);
});

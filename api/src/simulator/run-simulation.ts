import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { ApiError, ResidentClient, type House } from './resident-client';
import { CHAT_LINES, CHECKIN_PLACE, COMPLAINT_TOPICS, POSITIONS, REPLIES, WORK_ORDERS, pick } from './sample-content';

export const ACTIONS = ['complain', 'eventOrder', 'sos', 'reply', 'rate', 'chat', 'punch'] as const;
export type Action = (typeof ACTIONS)[number];

export interface SimulationOptions {
  url: string;
  /** Actions per second over all residents. */
  rate: number;
  /** Seconds; 0 runs until stopped. */
  duration: number;
  residents: number;
  actions: Action[];
  password: string;
  /** Where each line of the report goes. */
  print: (line: string) => void;
  /** Stops the run early (Ctrl+C). */
  signal?: AbortSignal;
  /** The staff account that punches for the `punch` action (default staff / staff123). */
  staff?: { username: string; password: string };
}

interface Resident {
  client: ResidentClient;
  houses: House[];
  complaints: number[];
  eventOrders: number[];
}

const MAX_IN_FLIGHT = 50;

/** The staff member who punches (the `punch` action), signed in once. */
let puncher: ResidentClient | null = null;

/**
 * A staff punch from the staff app (issue 32): in when today's shift has no punch-in yet, else
 * out; now and then from too far away (refused, the board shows it out of place).
 */
async function punch(): Promise<string> {
  if (!puncher) return 'no staff account to punch with';
  const today = await puncher.call<{ inAt: string | null; state: string }[]>('GET', '/app/checkin/today');
  const kind = today.some((s) => s.inAt) ? 'out' : 'in';
  const far = Math.random() < 0.15;
  const body = {
    kind,
    lat: CHECKIN_PLACE.lat + (far ? 0.005 : (Math.random() - 0.5) * 0.001),
    lng: CHECKIN_PLACE.lng,
    accuracyMetres: 10,
    deviceId: 'simulator',
    idempotencyKey: randomUUID(),
  };
  try {
    const answer = await puncher.call<{ at: string; shift: number | null }>('POST', '/app/checkin/punch', body);
    return `${puncher.username} punched ${kind} at ${answer.at} (shift ${answer.shift ?? 'none'})`;
  } catch (err) {
    if (far && err instanceof ApiError && err.status === 400) return `${puncher.username} refused: ${err.message}`;
    throw err;
  }
}

/** What one action did, as one line of the report. */
async function perform(action: Action, r: Resident): Promise<string> {
  if (action === 'punch') return punch();
  const house = pick(r.houses);
  const where = `(${house.name})`;
  switch (action) {
    case 'complain': {
      const t = pick(COMPLAINT_TOPICS);
      const saved = await r.client.call<{ complainId: number; complainCode: string }>('POST', '/app/complain/save', {
        ...t,
        houseType: house.houseType,
        houseId: house.houseId,
      });
      r.complaints.push(saved.complainId);
      return `complaint ${saved.complainCode} "${t.name}" ${where}`;
    }
    case 'eventOrder': {
      const t = pick(WORK_ORDERS);
      const saved = await r.client.call<{ eventOrderId: number; eventCode: string }>('POST', '/app/eventOrder/save', {
        ...t,
        houseType: house.houseType,
        houseId: house.houseId,
      });
      r.eventOrders.push(saved.eventOrderId);
      return `work order ${saved.eventCode} "${t.name}" ${where}`;
    }
    case 'sos': {
      const position = pick(POSITIONS);
      await r.client.call('POST', '/app/sos/help', { houseType: house.houseType, houseId: house.houseId, position });
      return `SOS help call at "${position}" ${where}`;
    }
    case 'reply': {
      const onComplaint = r.complaints.length > 0 && (r.eventOrders.length === 0 || Math.random() < 0.5);
      const ids = onComplaint ? r.complaints : r.eventOrders;
      if (ids.length === 0) return perform(Math.random() < 0.5 ? 'complain' : 'eventOrder', r);
      const id = pick(ids);
      const content = pick(REPLIES);
      await r.client.call('POST', onComplaint ? '/app/complain/reply' : '/app/eventOrder/reply', { id, content });
      return `reply on ${onComplaint ? 'complaint' : 'work order'} #${id}: "${content}"`;
    }
    case 'chat': {
      // A line (now and then a picture) in one of the resident's chats; with none yet, a private
      // chat with someone of the estate's address book (GET /app/addressbook).
      let groups = await r.client.call<{ list: { groupId: number; groupName: string }[] }>(
        'POST',
        '/im/disgroup/list',
        { page: 1, limit: 100 },
      );
      if (groups.list.length === 0) {
        const book = await r.client.call<{ sections: { people: { personId: number }[] }[] }>('GET', '/app/addressbook');
        const staff = book.sections.flatMap((s) => s.people);
        if (staff.length === 0) return 'no chat to write in yet';
        const me = await r.client.call<{ accountInfo: { personId: number } }>('GET', '/auth/current/user');
        await r.client.call('GET', `/im/chatrecord/check/chat/${me.accountInfo.personId}/${pick(staff).personId}`);
        groups = await r.client.call('POST', '/im/disgroup/list', { page: 1, limit: 100 });
        if (groups.list.length === 0) return 'no chat to write in yet';
      }
      const g = pick(groups.list);
      const picture = Math.random() < 0.15;
      const content = picture ? await r.client.uploadPicture(await samplePicture(), 'chat') : pick(CHAT_LINES);
      // A client id per message: a retry after a timeout or a 5xx stores it once (issue 35 relies on it).
      const saved = await sendOnce(r, { groupId: g.groupId, content, type: picture ? 2 : 1, clientId: randomUUID() });
      return `chat in "${g.groupName}" #${saved.seq}: ${picture ? '[picture]' : `"${content}"`}`;
    }
    case 'rate': {
      const onComplaint = r.complaints.length > 0 && (r.eventOrders.length === 0 || Math.random() < 0.5);
      const ids = onComplaint ? r.complaints : r.eventOrders;
      if (ids.length === 0) return 'nothing to rate yet';
      const id = pick(ids);
      const stars = () => 1 + Math.floor(Math.random() * 3);
      const body = { id, serviceEfficiency: stars(), serviceAttitude: stars(), serviceProcess: stars() };
      await r.client.call('POST', onComplaint ? '/app/complain/rate' : '/app/eventOrder/rate', body);
      const list = onComplaint ? r.complaints : r.eventOrders;
      list.splice(list.indexOf(id), 1);
      return `rated ${onComplaint ? 'complaint' : 'work order'} #${id}`;
    }
  }
}

let picture: Buffer | null = null;
/** A small picture a resident sends in a chat (drawn once). */
async function samplePicture(): Promise<Buffer> {
  picture ??= await sharp({ create: { width: 240, height: 160, channels: 3, background: '#4a7a9c' } })
    .png()
    .toBuffer();
  return picture;
}

/** Sends one chat message, retrying twice with the same client id after a network error or a 5xx. */
async function sendOnce(r: Resident, body: { groupId: number; content: string; type: number; clientId: string }) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await r.client.call<{ seq: number }>('POST', '/im/chatrecord/save', body);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      if (attempt >= 2 || (status >= 400 && status < 500)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
  }
}

/** Signs the residents in, then performs random actions at the given rate and reports each one. */
export async function runSimulation(o: SimulationOptions): Promise<Record<string, number>> {
  const residents: Resident[] = [];
  for (let i = 1; i <= o.residents; i++) {
    const client = new ResidentClient(o.url, `resident${i}`);
    try {
      await client.login(o.password);
      const houses = await client.houses();
      if (houses.length === 0) {
        o.print(`resident${i}: signed in, but has no house; skipped`);
        continue;
      }
      residents.push({ client, houses, complaints: [], eventOrders: [] });
      o.print(`resident${i}: signed in, ${houses.length} house(s)`);
    } catch (err) {
      o.print(`resident${i}: could not sign in: ${(err as Error).message}`);
    }
  }
  if (residents.length === 0) throw new Error(`no resident could sign in at ${o.url}`);
  if (o.actions.includes('punch')) {
    const staff = o.staff ?? { username: 'staff', password: 'staff123' };
    const client = new ResidentClient(o.url, staff.username);
    try {
      await client.login(staff.password);
      puncher = client;
      o.print(`${staff.username}: signed in to punch`);
    } catch (err) {
      o.print(`${staff.username}: could not sign in to punch: ${(err as Error).message}`);
    }
  }

  const counts: Record<string, number> = { failed: 0 };
  const interval = 1000 / o.rate;
  const end = o.duration > 0 ? Date.now() + o.duration * 1000 : Infinity;
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  let next = Date.now();

  while (Date.now() < end && !o.signal?.aborted) {
    if (inFlight < MAX_IN_FLIGHT) {
      const action = pick(o.actions);
      const r = pick(residents);
      inFlight += 1;
      const p = perform(action, r)
        .then((line) => {
          counts[action] = (counts[action] ?? 0) + 1;
          o.print(`${new Date().toISOString()} ${r.client.username} ${line}`);
        })
        .catch((err: unknown) => {
          counts.failed += 1;
          const status = err instanceof ApiError ? ` [${err.status}]` : '';
          o.print(
            `${new Date().toISOString()} ${r.client.username} ${action} failed${status}: ${(err as Error).message}`,
          );
        })
        .finally(() => {
          inFlight -= 1;
          running.delete(p);
        });
      running.add(p);
    }
    next += interval;
    const wait = next - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await Promise.all(running);
  return counts;
}

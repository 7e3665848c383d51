import { describe, expect, it } from 'vitest';
import { PacketLog } from '../packet-log';

const packet = (n: number) => JSON.stringify(['chat', { text: `消息 ${n} — 訊息 ✓`, n }]);

describe('PacketLog', () => {
  it('gives back every packet after a number, in order and byte for byte, across many chunks', () => {
    const log = new PacketLog();
    for (let n = 0; n < 20_000; n++) expect(log.append(`person:${n % 7}:chat`, packet(n), 1_000)).toBe(n);
    expect(log.nextSeq).toBe(20_000);

    const after = [...log.after(4_094)];
    expect(after).toHaveLength(20_000 - 4_095);
    after.forEach((p, i) => expect(p).toEqual({ to: `person:${(4_095 + i) % 7}:chat`, json: packet(4_095 + i) }));
    expect([...log.after(19_999)]).toEqual([]);
  });

  it('keeps a packet larger than a chunk whole', () => {
    const log = new PacketLog();
    log.append('a', packet(1));
    const big = JSON.stringify(['announcements', { body: '公告'.repeat(400_000) }]);
    log.append('b', big);
    log.append('c', packet(3));
    expect([...log.after(0)]).toEqual([
      { to: 'b', json: big },
      { to: 'c', json: packet(3) },
    ]);
  });

  it('drops whole chunks once their newest packet is older than the window; a dropped number is no longer kept', () => {
    const log = new PacketLog();
    // 5,000 old packets fill the first chunk (4,096 packets) and start the second; then new ones.
    for (let n = 0; n < 5_000; n++) log.append('r', packet(n), 1_000);
    for (let n = 5_000; n < 6_000; n++) log.append('r', packet(n), 9_000);

    expect(log.bytesHeld).toBe(2 * (1 << 20));
    log.dropOlderThan(5_000);
    expect(log.bytesHeld).toBe(1 << 20);
    // The first chunk went; the second holds old and new packets, so it stays whole.
    expect(log.has(4_095)).toBe(false);
    expect(log.has(4_096)).toBe(true);
    expect([...log.after(4_096)].map((p) => JSON.parse(p.json)[1].n)).toEqual(
      Array.from({ length: 6_000 - 4_097 }, (_, i) => 4_097 + i),
    );

    log.dropOlderThan(10_000);
    expect(log.has(5_999)).toBe(false);
    expect([...log.after(0)]).toEqual([]);
    expect(log.bytesHeld).toBe(0);
    // Numbering goes on after everything expired.
    expect(log.append('r', packet(6_000))).toBe(6_000);
    expect(log.has(6_000)).toBe(true);
    expect(log.has(6_001)).toBe(false);
    expect(log.has(Number.NaN)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeUpstream, type LiveEvent } from '@pm/shared';
import { isNew, reloads } from '../utils/widgetRules';

/** An upstream message as the gateway gets it, turned into the event tabs receive. */
const event = (m: Record<string, unknown>) => normalizeUpstream(m as { channelType: number }) as LiveEvent;

describe('which live events reload which dashboard widget', () => {
  it('when a new work order (type 49) or complaint (type 50) arrives, then only its own widget reloads', () => {
    const newOrder = event({ channelType: 7, messageType: 49, dataId: 1, status: 1 });
    const newComplaint = event({ channelType: 8, messageType: 50, dataId: 2, status: 1 });
    expect(reloads.work('eventOrder')(newOrder)).toBe(true);
    expect(reloads.work('complaint')(newOrder)).toBe(false);
    expect(reloads.work('complaint')(newComplaint)).toBe(true);
    expect(reloads.work('eventOrder')(newComplaint)).toBe(false);
  });

  it('when one is dealt with, then its widget reloads; a reply (types 11, 13) changes no row', () => {
    expect(reloads.work('complaint')(event({ channelType: 8, dataId: 2, status: 2 }))).toBe(true);
    expect(reloads.work('complaint')(event({ channelType: 8, messageType: 13, dataId: 2 }))).toBe(false);
    expect(reloads.work('eventOrder')(event({ channelType: 7, messageType: 11, dataId: 1 }))).toBe(false);
  });

  it('when an SOS call or a disaster warning arrives, then the SOS widget or the warnings widget reloads', () => {
    const sos = event({ channelType: 10, messageType: 7, dataId: 3, sos: 'new' });
    const acknowledged = event({ channelType: 10, messageType: 7, dataId: 3, sos: 'acknowledged' });
    const warning = event({ channelType: 10, dataId: 4, warn: 'released' });
    const reply = event({ channelType: 10, dataId: 4, warn: 'reply' });
    expect([reloads.sos(sos), reloads.sos(acknowledged), reloads.sos(warning)]).toEqual([true, true, false]);
    expect([reloads.warnings(warning), reloads.warnings(reply), reloads.warnings(sos)]).toEqual([true, true, false]);
  });

  it('when an announcement is published or revoked, then its widget reloads; reads and votes do not', () => {
    expect(reloads.announcements(event({ channelType: 9, dataId: 5, action: 'published' }))).toBe(true);
    expect(reloads.announcements(event({ channelType: 9, dataId: 5, action: 'revoked' }))).toBe(true);
    expect(reloads.announcements(event({ channelType: 9, dataId: 5, action: 'read' }))).toBe(false);
    expect(reloads.announcements(event({ channelType: 9, dataId: 5, action: 'voted' }))).toBe(false);
  });

  it('when a person joins or leaves a house, then the registrations and owner-change widgets reload', () => {
    expect(reloads.residents(event({ channelType: 12, messageType: 27, dataId: 6 }))).toBe(true);
    expect(reloads.residents(event({ channelType: 14, messageType: 31, dataId: 6 }))).toBe(true);
    expect(reloads.residents(event({ channelType: 8, messageType: 50, dataId: 2 }))).toBe(false);
  });

  it('when an announcement was published less than a day ago, then it is new', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(isNew('2026-11-24T01:00:00Z', now)).toBe(true);
    expect(isNew('2026-11-23T12:00:01Z', now)).toBe(true);
    expect(isNew('2026-11-23T11:59:59Z', now)).toBe(false);
  });
});

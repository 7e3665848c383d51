import { ChannelType, MessageType, RESIDENT_WARN_LIMIT } from '@pm/shared';
import type { DisasterDeclare, DisasterReplyBody, ResidentWarn, SosHelp } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { notify } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { houseColumns, linkedHouse } from '../person/resident-houses.service';
import type { ResidentDeps } from '../resident/resident-api';
import { pushAfterCommit } from '../message/notify';
import { declarationStaff, sosStaff, warningFollowers } from './disaster.recipients';
import { writeOnce } from '../resident/write-once';
import {
  insertDeclaration,
  insertSosHelp,
  markWarningRead,
  ownPictures,
  receivedWarning,
  residentWarnings,
  saveWarningReply,
  warningRevoked,
  warningTenant,
} from './disaster.repository';

/**
 * The resident's side of the disaster domain (DESIGN §5): an SOS call; the warnings received, read
 * and answered; a declaration of damage or danger with pictures.
 */

/** Pictures a declaration may carry. */
const MAX_PICTURES = 9;
/** The path of a stored upload as the upload service answers it (the gateway's `/api` prefix allowed). */
const UPLOAD_PATH = /^(?:\/api)?(\/upload\/files\/[a-z][a-z0-9_-]{0,31}\/[A-Za-z0-9/._-]+)$/;

/** POST /app/sos/help: an open SOS call and a type-7 alarm (channel 10) for staff with disasterwarn:list. */
export async function sosHelpCall(d: ResidentDeps, body: SosHelp): Promise<{ sosHelpId: number }> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  return withPushes(
    d.db,
    d.realtime,
    async (tx) =>
      writeOnce(tx, { personId: d.personId, kind: 'sos', clientId: body.clientId }, async () => {
        const id = await insertSosHelp(tx, {
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          personId: d.personId,
          houseType: house.houseType,
          ...houseColumns(house),
          position: body.position ?? null,
        });
        await notify(tx, {
          companyId: house.companyId,
          housingEstateId: house.housingEstateId,
          messageType: MessageType.sosAlarm,
          channelType: ChannelType.disasterWarning,
          dataId: id,
          recipients: await sosStaff(tx, house.housingEstateId),
          personTriggerId: d.personId,
          name: house.name,
          position: body.position ?? null,
          ...houseColumns(house),
          push: { houseType: house.houseType, position: body.position ?? null, sos: 'new' },
        });
        return { sosHelpId: id };
      }),
    d.onPushError,
  );
}

/** POST /app/disaster/reply: the resident's answer to a warning they received. */
export async function replyToDisaster(
  d: ResidentDeps,
  body: DisasterReplyBody,
): Promise<{ disasterWarnId: number; reply: number }> {
  const revoked = await warningRevoked(d.db, body.disasterWarnId);
  if (revoked === null) throw AppError.notFound();
  if (revoked) throw new AppError(409, 'resident.errors.warningRevoked');
  const tenant = await warningTenant(d.db, body.disasterWarnId);
  await withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const saved = await saveWarningReply(tx, body.disasterWarnId, d.personId, {
        reply: body.reply,
        note: body.note ?? null,
        at: new Date(),
      });
      if (!saved || !tenant) throw AppError.notFound();
      // The consoles following the warning move its counts (no toast: kind warningUpdate).
      pushAfterCommit(tx, await warningFollowers(tx, tenant.housingEstateId), {
        channelType: ChannelType.disasterWarning,
        dataId: body.disasterWarnId,
        warn: 'reply',
      });
    },
    d.onPushError,
  );
  return { disasterWarnId: body.disasterWarnId, reply: body.reply };
}

/** GET /app/disaster/list: the warnings the resident received, not revoked, newest first. */
export function listMyWarnings(d: ResidentDeps): Promise<ResidentWarn[]> {
  return residentWarnings(d.db, d.personId, RESIDENT_WARN_LIMIT);
}

/**
 * POST /app/disaster/read (idempotent): the resident read a warning they received; a revoked one is
 * no longer visible (404). The first read tells the consoles following warnings (kind
 * warningUpdate, no toast): the warning's read and unread lists and counts move.
 */
export async function readWarning(d: ResidentDeps, id: number): Promise<{ id: number; readTime: string }> {
  const warn = await receivedWarning(d.db, d.personId, id);
  if (!warn || warn.revoked) throw AppError.notFound();
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const { readTime, changed } = await markWarningRead(tx, id, d.personId);
      if (changed)
        pushAfterCommit(tx, await warningFollowers(tx, warn.housingEstateId), {
          channelType: ChannelType.disasterWarning,
          dataId: id,
          warn: 'read',
        });
      return { id, readTime };
    },
    d.onPushError,
  );
}

/**
 * The declaration's pictures: `;`-joined paths, each one a picture the caller uploaded through
 * the upload service (which checked its bytes); stored without the gateway's `/api` prefix.
 */
async function declarationPictures(d: ResidentDeps, img: string | undefined): Promise<string | null> {
  const raw = (img ?? '')
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  if (raw.length === 0) return null;
  if (raw.length > MAX_PICTURES) throw new AppError(400, 'disaster.errors.tooManyPictures');
  const paths = [...new Set(raw.map((p) => UPLOAD_PATH.exec(p)?.[1] ?? ''))];
  if (paths.includes('') || !(await ownPictures(d.db, d.personId, paths)))
    throw new AppError(400, 'disaster.errors.pictureNotYours');
  return paths.join(';');
}

/**
 * POST /app/disaster/declare: damage or danger reported from one of the caller's houses. The staff
 * with disasterreport:list get message 71 (event 10, toast) and their declaration lists move.
 */
export async function declareDisaster(d: ResidentDeps, body: DisasterDeclare): Promise<{ declarationId: number }> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  const img = await declarationPictures(d, body.img);
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
      const declarationId = await insertDeclaration(tx, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        personId: d.personId,
        houseType: house.houseType,
        ...houseColumns(house),
        kind: body.kind,
        type: body.type,
        content: body.content,
        position: body.position ?? null,
        img,
      });
      await notify(tx, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        messageType: MessageType.disasterDeclaration,
        channelType: ChannelType.disasterWarning,
        dataId: declarationId,
        recipients: await declarationStaff(tx, house.housingEstateId),
        personTriggerId: d.personId,
        name: house.name,
        position: body.position ?? null,
        ...houseColumns(house),
        push: { declaration: 'new', kind: body.kind, type: body.type, houseType: house.houseType },
      });
      return { declarationId };
    },
    d.onPushError,
  );
}

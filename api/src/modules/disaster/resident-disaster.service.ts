import { ChannelType, MessageType } from '@pm/shared';
import type { DisasterDeclare, DisasterReplyBody, SosHelp } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { notify } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { houseColumns, linkedHouse } from '../person/resident-houses.service';
import type { ResidentDeps } from '../resident/resident-api';
import { pushAfterCommit } from '../message/notify';
import { sosStaff, warningFollowers } from './disaster.recipients';
import {
  insertDeclaration,
  insertSosHelp,
  saveWarningReply,
  warningRevoked,
  warningTenant,
} from './disaster.repository';

/** The resident's side of the disaster domain (DESIGN §5): an SOS call, the answer to a warning. */

/** POST /app/sos/help: an open SOS call and a type-7 alarm (channel 10) for staff with disasterwarn:list. */
export async function sosHelpCall(d: ResidentDeps, body: SosHelp): Promise<{ sosHelpId: number }> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  return withPushes(
    d.db,
    d.realtime,
    async (tx) => {
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
    },
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

/** POST /app/disaster/declare: damage or danger reported from one of the caller's houses. */
export async function declareDisaster(d: ResidentDeps, body: DisasterDeclare): Promise<{ declarationId: number }> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  const declarationId = await insertDeclaration(d.db, {
    companyId: house.companyId,
    housingEstateId: house.housingEstateId,
    personId: d.personId,
    houseType: house.houseType,
    ...houseColumns(house),
    kind: body.kind,
    type: body.type,
    content: body.content,
    position: body.position ?? null,
    img: body.img ?? null,
  });
  return { declarationId };
}

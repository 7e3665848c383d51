import { ChannelType, MessageType } from '@pm/shared';
import type { DisasterReplyBody, SosHelp } from '@pm/shared';
import { AppError } from '../../http/app-error';
import { notify } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { houseColumns, linkedHouse } from '../person/resident-houses.service';
import type { ResidentDeps } from '../resident/resident-api';
import { sosStaff } from './disaster.recipients';
import { insertSosHelp, saveWarningReply, warningRevoked } from './disaster.repository';

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
        push: { houseType: house.houseType, position: body.position ?? null },
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
  const saved = await saveWarningReply(d.db, body.disasterWarnId, d.personId, {
    reply: body.reply,
    note: body.note ?? null,
    at: new Date(),
  });
  if (!saved) throw AppError.notFound();
  return { disasterWarnId: body.disasterWarnId, reply: body.reply };
}

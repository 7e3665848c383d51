import { ChatRecordType, WORK_KINDS } from '@pm/shared';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { notify } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { houseOf } from '../person/person-house.repository';
import { listingStaff } from '../work-orders/work-orders.recipients';
import { insertWork, nextCode } from '../work-orders/work-orders.repository';
import { addWorkLine, memberRecord } from './chat.service';

/**
 * "Beyond what other consoles do" (issue 31): a resident's message becomes a complaint or an
 * event work order in their name, from one of their approved houses, exactly as if they had
 * filed it in the app (code, message 50 / 49 and push to the staff who list that kind); the
 * message's text is the note, its picture or voice goes with it, and the conversation gets a
 * system line linking it.
 */
export async function messageToWork(
  ctx: AuthedContext,
  body: {
    groupId: number;
    seq: number;
    kind: 'complaint' | 'eventOrder';
    type?: number;
    name: string;
    note: string;
    houseType: number;
    houseId: number;
  },
): Promise<{ kind: 'complaint' | 'eventOrder'; id: number; code: string }> {
  const k = WORK_KINDS[body.kind];
  if (!ctx.caller.perms.has(k.perms.list)) throw AppError.forbidden();
  if (k.hasType && !body.type) throw AppError.badRequest('im.errors.workTypeRequired');
  const { record } = await memberRecord(ctx, body.groupId, body.seq);
  if (record.type === ChatRecordType.system) throw AppError.badRequest('im.errors.notAMessage');
  const house = await houseOf(ctx.db, record.fromPersonId, body.houseType, body.houseId);
  // Only a resident's message, from one of that resident's houses in this estate.
  if (!house || house.housingEstateId !== ctx.tenant.housingEstateId || house.companyId !== ctx.tenant.companyId)
    throw AppError.badRequest('im.errors.notResidentHouse');
  const path = record.content.split('?')[0];
  const img = record.type === ChatRecordType.picture ? path : null;
  const voice = record.type === ChatRecordType.voice ? record.content : null;
  return withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      const code = await nextCode(tx, k, house.housingEstateId);
      const id = await insertWork(tx, k, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        name: body.name,
        note: body.note,
        img,
        voice,
        reportPersonId: record.fromPersonId,
        personType: house.houseType,
        personIdentity: house.identity,
        unitId: house.unitId,
        carSpaceId: house.carSpaceId,
        shopId: house.shopId,
        code,
        type: body.type,
      });
      await notify(tx, {
        companyId: house.companyId,
        housingEstateId: house.housingEstateId,
        messageType: k.newMessage,
        channelType: k.channel,
        dataId: id,
        recipients: await listingStaff(tx, k, house.housingEstateId),
        personTriggerId: record.fromPersonId,
        name: body.name,
        unitId: house.unitId,
        carSpaceId: house.carSpaceId,
        shopId: house.shopId,
        push: { code, status: 1, ...(k.hasType ? { type: body.type } : {}) },
      });
      await addWorkLine(tx, ctx, body.groupId, { kind: body.kind, id, code, seq: body.seq });
      return { kind: body.kind, id, code };
    },
    (err) => ctx.log.error({ err }, 'chat-to-work push after commit failed'),
  );
}

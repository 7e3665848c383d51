import { COMPLAINT, EVENT_ORDER, WORK_KINDS, type WorkKind, type WorkKindName } from '@pm/shared';
import type {
  ComplainSave,
  ComplainSaved,
  EventOrderSave,
  EventOrderSaved,
  ResidentRate,
  ResidentReply,
} from '@pm/shared';
import { AppError } from '../../http/app-error';
import { notify } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { houseColumns, linkedHouse } from '../person/resident-houses.service';
import type { ResidentDeps } from '../resident/resident-api';
import { writeOnce } from '../resident/write-once';
import { handlingStaff, listingStaff } from './work-orders.recipients';
import { insertResidentReply, insertWork, nextCode, ownWork, rateWork } from './work-orders.repository';

/** The resident's side of work orders (DESIGN §5): report one, reply on it, rate it. */

/**
 * POST /app/complain/save, /app/eventOrder/save: the report and its messages to the staff who
 * list that kind (50 / 49) commit together, then those staff are pushed (channel 8 / 7).
 */
async function reportWork(
  d: ResidentDeps,
  k: WorkKind,
  body: ComplainSave & { type?: number },
): Promise<{ id: number; code: string }> {
  const house = await linkedHouse(d, body.houseType, body.houseId);
  return withPushes(
    d.db,
    d.realtime,
    async (tx) =>
      writeOnce(
        tx,
        { personId: d.personId, kind: k === COMPLAINT ? 'complaint' : 'workOrder', clientId: body.clientId },
        async () => {
          const code = await nextCode(tx, k, house.housingEstateId);
          const id = await insertWork(tx, k, {
            companyId: house.companyId,
            housingEstateId: house.housingEstateId,
            name: body.name,
            note: body.note,
            img: body.img || null,
            voice: body.voice || null,
            reportPersonId: d.personId,
            personType: house.houseType,
            personIdentity: house.identity,
            ...houseColumns(house),
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
            personTriggerId: d.personId,
            name: body.name,
            ...houseColumns(house),
            push: { code, status: 1, ...(k.hasType ? { type: body.type } : {}) },
          });
          return { id, code };
        },
      ),
    d.onPushError,
  );
}

/** POST /app/complain/save. */
export async function saveComplaint(d: ResidentDeps, body: ComplainSave): Promise<ComplainSaved> {
  const { id, code } = await reportWork(d, COMPLAINT, body);
  return { complainId: id, complainCode: code };
}

/** POST /app/eventOrder/save: as a complaint, with a type. */
export async function saveEventOrder(d: ResidentDeps, body: EventOrderSave): Promise<EventOrderSaved> {
  const { id, code } = await reportWork(d, EVENT_ORDER, body);
  return { eventOrderId: id, eventCode: code };
}

/** POST /app/complain/reply, /app/eventOrder/reply: the reporter adds a reply; handling staff get 13 / 11. */
export async function replyAsResident(
  d: ResidentDeps,
  kind: WorkKindName,
  body: ResidentReply,
): Promise<{ replyId: number }> {
  const k = WORK_KINDS[kind];
  const request = await ownWork(d.db, k, body.id, d.personId);
  if (!request) throw AppError.notFound();
  return withPushes(
    d.db,
    d.realtime,
    async (tx) =>
      writeOnce(
        tx,
        { personId: d.personId, kind: k === COMPLAINT ? 'complaintReply' : 'workOrderReply', clientId: body.clientId },
        async () => {
          const replyId = await insertResidentReply(tx, k, request, {
            personId: d.personId,
            content: body.content,
            img: body.img || null,
            voice: body.voice || null,
          });
          await notify(tx, {
            companyId: request.companyId,
            housingEstateId: request.housingEstateId,
            messageType: k.replyMessage,
            channelType: k.channel,
            dataId: request.id,
            recipients: await handlingStaff(tx, k, request.id),
            personTriggerId: d.personId,
            name: request.name,
            unitId: request.unitId,
            carSpaceId: request.carSpaceId,
            shopId: request.shopId,
            push: { replyId },
          });
          return { replyId };
        },
      ),
    d.onPushError,
  );
}

/** POST /app/complain/rate, /app/eventOrder/rate: once, and only when completed. */
export async function rateAsResident(
  d: ResidentDeps,
  kind: WorkKindName,
  body: ResidentRate,
): Promise<{ id: number; serviceScore: number }> {
  const k = WORK_KINDS[kind];
  const request = await ownWork(d.db, k, body.id, d.personId);
  if (!request) throw AppError.notFound();
  if (request.status !== 3) throw new AppError(409, 'resident.errors.notCompleted');
  if (request.rated) throw new AppError(409, 'resident.errors.alreadyRated');
  // The overall score is the rounded mean of the three star ratings (1–3).
  const serviceScore = Math.round((body.serviceEfficiency + body.serviceAttitude + body.serviceProcess) / 3);
  const rated = await rateWork(d.db, k, request.id, {
    serviceEfficiency: body.serviceEfficiency,
    serviceAttitude: body.serviceAttitude,
    serviceProcess: body.serviceProcess,
    serviceComment: body.serviceComment ?? null,
    serviceScore,
  });
  if (!rated) throw new AppError(409, 'resident.errors.alreadyRated');
  return { id: request.id, serviceScore };
}

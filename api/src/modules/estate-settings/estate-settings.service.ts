import {
  ChannelType,
  DEFAULTABLE_SETTINGS,
  parseLanguage,
  type DefaultableSetting,
  type EstateInfo,
  type EstateSettings,
  type EstateSettingsUpdate,
} from '@pm/shared';
import type { DbOrTx } from '../../db/open-database';
import { AppError } from '../../http/app-error';
import type { AuthedContext } from '../../http/request-context';
import { pushAfterCommit } from '../message/notify';
import { withPushes } from '../message/push-outbox';
import { estateDefaultsFrom, type EstateDefaults } from './estate-defaults';
import * as repo from './estate-settings.repository';

export type { EstateDefaults } from './estate-defaults';

/** `/api/upload/files/…` (as the console writes it) or `/upload/files/…` → `/upload/files/…`; else null. */
const UPLOAD_PATH = /^(?:\/api)?(\/upload\/files\/[a-z][a-z0-9_-]{0,31}\/[A-Za-z0-9/._-]+)$/;
export function uploadPath(value: string): string | null {
  const path = UPLOAD_PATH.exec(value.trim())?.[1];
  return path && !path.split('/').includes('..') ? path : null;
}

function effective(row: repo.EstateRow, defaults: EstateDefaults): EstateInfo {
  return {
    housingEstateId: row.id,
    name: row.name,
    address: row.address,
    logo: row.logo,
    timeZone: row.timeZone,
    defaultLanguage: parseLanguage(row.defaultLanguage) ?? defaults.defaultLanguage,
    sosReannounceSeconds: row.sosReannounceSeconds ?? defaults.sosReannounceMs / 1000,
    voteReminderUnitMs: row.voteReminderUnitMs ?? defaults.voteReminderUnitMs,
  };
}

/**
 * Every setting of an estate as it applies now: its own, or the environment's default where it set
 * none. Any module calls this where a setting matters (the language of a new account, a vote's
 * first reminder), so a change applies at once in every api process without a restart. Pass the
 * running api's defaults (`ctx.services.config.estateDefaults`); the environment's otherwise.
 */
export async function estateSettings(
  db: DbOrTx,
  estateId: number,
  defaults: EstateDefaults = estateDefaultsFrom(),
): Promise<EstateInfo> {
  const row = await repo.findEstate(db, estateId);
  if (!row) throw AppError.notFound();
  return effective(row, defaults);
}

const defaultsOf = (ctx: AuthedContext) => ctx.services.config.estateDefaults;

/** GET /base/estate/info: the caller's estate (any signed-in caller). */
export const estateInfo = (ctx: AuthedContext) => estateSettings(ctx.db, ctx.tenant.housingEstateId, defaultsOf(ctx));

function inheritedOf(row: repo.EstateRow): DefaultableSetting[] {
  const own: Record<DefaultableSetting, unknown> = {
    defaultLanguage: row.defaultLanguage,
    sosReannounceSeconds: row.sosReannounceSeconds,
    voteReminderUnitMs: row.voteReminderUnitMs,
  };
  return DEFAULTABLE_SETTINGS.filter((k) => own[k] === null);
}

async function settingsOf(db: DbOrTx, row: repo.EstateRow, defaults: EstateDefaults): Promise<EstateSettings> {
  return {
    ...effective(row, defaults),
    defaults: {
      timeZone: defaults.timeZone,
      defaultLanguage: defaults.defaultLanguage,
      sosReannounceSeconds: defaults.sosReannounceMs / 1000,
      voteReminderUnitMs: defaults.voteReminderUnitMs,
    },
    inherited: inheritedOf(row),
    updatedAt: row.settingsUpdatedAt?.toISOString() ?? null,
    updatedBy: row.settingsUpdatedAt ? await repo.lastChangeBy(db, row.id) : null,
  };
}

/** GET /base/estate/settings */
export async function getSettings(ctx: AuthedContext): Promise<EstateSettings> {
  const row = await repo.findEstate(ctx.db, ctx.tenant.housingEstateId);
  if (!row) throw AppError.notFound();
  return settingsOf(ctx.db, row, defaultsOf(ctx));
}

/** The row's own values as the change history keeps them. */
const snapshotOf = (row: repo.EstateRow) => ({
  name: row.name,
  address: row.address,
  logo: row.logo,
  timeZone: row.timeZone,
  defaultLanguage: row.defaultLanguage,
  sosReannounceSeconds: row.sosReannounceSeconds,
  voteReminderUnitMs: row.voteReminderUnitMs,
});

/**
 * POST /base/estate/update: the fields sent change, in one transaction with the history row
 * (before and after) and the push to the estate's staff; the time zone trigger recounts the
 * per-day counters in the same transaction.
 */
export async function updateSettings(ctx: AuthedContext, body: EstateSettingsUpdate): Promise<EstateSettings> {
  const change: repo.EstateChange = {};
  if (body.name !== undefined) change.name = body.name;
  if (body.address !== undefined) change.address = body.address || null;
  if (body.defaultLanguage !== undefined) change.defaultLanguage = body.defaultLanguage;
  if (body.sosReannounceSeconds !== undefined) change.sosReannounceSeconds = body.sosReannounceSeconds;
  if (body.voteReminderUnitMs !== undefined) change.voteReminderUnitMs = body.voteReminderUnitMs;
  if (body.timeZone !== undefined) {
    // JavaScript knew the name (the schema's check); the database must know it too, or its day
    // counters could not be recounted in it.
    if (!(await repo.databaseKnowsZone(ctx.db, body.timeZone)))
      throw AppError.badRequest('estateSettings.errors.timeZone');
    change.timeZone = body.timeZone;
  }
  const defaults = defaultsOf(ctx);
  const row = await withPushes(
    ctx.db,
    ctx.services.realtime,
    async (tx) => {
      const before = await repo.lockEstate(tx, ctx.tenant);
      if (!before) throw AppError.notFound();
      if (body.version !== undefined && (before.settingsUpdatedAt?.toISOString() ?? null) !== body.version)
        throw new AppError(409, 'estateSettings.errors.changedMeanwhile');
      if (body.logo !== undefined) change.logo = await logoOf(tx, ctx, body.logo, before.logo);
      const at = new Date();
      await repo.updateEstate(tx, before.id, change, at);
      const after = { ...before, ...change, settingsUpdatedAt: at };
      await repo.insertSettingsChange(tx, ctx.tenant, {
        personId: ctx.caller.personId,
        before: snapshotOf(before),
        after: snapshotOf(after),
        at,
      });
      pushAfterCommit(tx, await repo.estateStaff(tx, before.id), {
        channelType: ChannelType.estateSettings,
        dataId: before.id,
        ...effective(after, defaults),
      });
      return after;
    },
    (err) => ctx.log.error({ err }, 'push after commit failed'),
  );
  return settingsOf(ctx.db, row, defaults);
}

/** The logo to store: null (none), the current one, or a picture the estate's staff uploaded. */
async function logoOf(db: DbOrTx, ctx: AuthedContext, value: string | null, current: string | null) {
  if (value === null) return null;
  const path = uploadPath(value);
  if (path && path === current) return current;
  if (!path || !(await repo.estateStaffPictures(db, ctx.tenant, [path])))
    throw AppError.badRequest('estateSettings.errors.logo');
  return path;
}

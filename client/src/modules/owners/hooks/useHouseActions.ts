import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, removePersonHouse, reviewRequest, setAsHistoryStaff, type PersonHouseRow } from '../../api';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';

/**
 * The actions on a person↔house link, each asking first (SPEC §4): certify (with the owner-change
 * question when the house has an owner), refuse with a reason (the refuse-join dialog), remove,
 * set as history staff. `done` runs after a change (the list reloads).
 */
export function useHouseActions(done: () => void) {
  const { t } = useTranslation();
  const [refusing, setRefusing] = useState<PersonHouseRow | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      done();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    } finally {
      setBusy(false);
    }
  };

  const certify = (row: PersonHouseRow) =>
    run(async () => {
      if (!(await confirm(t('owners.confirm.certify', { name: row.name })))) return;
      try {
        await reviewRequest({ personHouseId: row.personHouseId, status: 2 });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.status !== 409 || row.identity !== 1) {
          showToast('error', e.message);
          throw e;
        }
        // SPEC §4: the house has an owner — certify the new one and move the old one to history?
        if (!(await confirm(t('owners.confirm.ownerChange', { name: row.name, owner: row.currentOwnerName ?? '' }))))
          return;
        await reviewRequest({ personHouseId: row.personHouseId, status: 2, replaceOwner: true }).catch(
          (err: unknown) => {
            if (err instanceof ApiError) showToast('error', err.message);
            throw err;
          },
        );
      }
    });

  const refuse = (row: PersonHouseRow, reason: string) =>
    run(async () => {
      await reviewRequest({ personHouseId: row.personHouseId, status: 3, refuseReason: reason || undefined }).catch(
        (err: unknown) => {
          if (err instanceof ApiError) showToast('error', err.message);
          throw err;
        },
      );
      setRefusing(null);
    });

  const remove = (row: PersonHouseRow) =>
    run(async () => {
      if (await confirm(t('owners.confirm.remove', { name: row.name }))) await removePersonHouse(row.personHouseId);
    });

  const toHistory = (row: PersonHouseRow) =>
    run(async () => {
      if (await confirm(t('owners.confirm.history', { name: row.name }))) await setAsHistoryStaff(row.personHouseId);
    });

  return { certify, refuse, remove, toHistory, refusing, setRefusing, busy };
}

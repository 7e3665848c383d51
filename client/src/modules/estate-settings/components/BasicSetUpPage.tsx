import { useEffect, useMemo, useState } from 'react';
import { Button, Form, Header, Message, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import {
  LANGUAGES,
  SOS_REANNOUNCE_SECONDS,
  VOTE_REMINDER_UNITS,
  voteReminderUnitOf,
  type EstateSettingsUpdate,
} from '@pm/shared';
import { ApiError, fetchEstateSettings, updateEstateSettings, type EstateSettings } from '../../api';
import { PictureField } from '../../ui/components/PictureField';
import { showToast } from '../../ui/states/toasts';
import { formatTime } from '../../ui/utils/formatTime';
import { estateInfo } from '../states/estateInfo';
import { timeZoneOptions } from '../utils/timeZones';
import './estate-settings.css';

/** The form's values; '' for a setting left to the environment's default. */
interface Draft {
  name: string;
  address: string;
  logo: string;
  timeZone: string;
  defaultLanguage: string;
  sosReannounceSeconds: string;
  voteReminderUnitMs: string;
}

function draftOf(s: EstateSettings): Draft {
  const inherited = new Set(s.inherited);
  return {
    name: s.name,
    address: s.address ?? '',
    logo: s.logo ?? '',
    timeZone: s.timeZone,
    defaultLanguage: inherited.has('defaultLanguage') ? '' : s.defaultLanguage,
    sosReannounceSeconds: inherited.has('sosReannounceSeconds') ? '' : String(s.sosReannounceSeconds),
    voteReminderUnitMs: inherited.has('voteReminderUnitMs') ? '' : String(s.voteReminderUnitMs),
  };
}

/** What the form says is wrong, by field (translation keys with their values), before anything is sent. */
export function draftErrors(d: Draft): Partial<Record<keyof Draft, [string, Record<string, unknown>?]>> {
  const errors: Partial<Record<keyof Draft, [string, Record<string, unknown>?]>> = {};
  if (!d.name.trim()) errors.name = ['estateSettings.errors.nameRequired'];
  else if (d.name.trim().length > 100) errors.name = ['estateSettings.errors.tooLong', { max: 100 }];
  if (d.address.trim().length > 200) errors.address = ['estateSettings.errors.tooLong', { max: 200 }];
  if (!d.timeZone) errors.timeZone = ['estateSettings.errors.timeZone'];
  const seconds = d.sosReannounceSeconds.trim();
  if (
    seconds &&
    (!/^\d+$/.test(seconds) || +seconds < SOS_REANNOUNCE_SECONDS.min || +seconds > SOS_REANNOUNCE_SECONDS.max)
  )
    errors.sosReannounceSeconds = ['estateSettings.errors.sosRange', SOS_REANNOUNCE_SECONDS];
  return errors;
}

/** The fields that differ from the saved settings, as the update call takes them. */
function changesOf(d: Draft, saved: Draft): EstateSettingsUpdate {
  const out: EstateSettingsUpdate = {};
  if (d.name.trim() !== saved.name) out.name = d.name.trim();
  if (d.address.trim() !== saved.address) out.address = d.address.trim() || null;
  if (d.logo !== saved.logo) out.logo = d.logo || null;
  if (d.timeZone !== saved.timeZone) out.timeZone = d.timeZone;
  if (d.defaultLanguage !== saved.defaultLanguage)
    out.defaultLanguage = (d.defaultLanguage || null) as EstateSettingsUpdate['defaultLanguage'];
  if (d.sosReannounceSeconds.trim() !== saved.sosReannounceSeconds)
    out.sosReannounceSeconds = d.sosReannounceSeconds.trim() ? Number(d.sosReannounceSeconds) : null;
  if (d.voteReminderUnitMs !== saved.voteReminderUnitMs)
    out.voteReminderUnitMs = d.voteReminderUnitMs ? Number(d.voteReminderUnitMs) : null;
  return out;
}

/**
 * /basic-set-up/index (SPEC §2, issue 33): the estate's name, address and logo (the sidebar's,
 * while the settings drawer's "sidebar logo" is on), time zone, the language of new accounts, how
 * soon an unanswered SOS call is announced again and the vote reminder unit. Empty choices follow
 * the environment's default. Saved settings apply at once; a change made elsewhere shows here at
 * once, unless this form has unsaved edits (then it says so and offers to load it).
 */
export default function BasicSetUpPage() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<EstateSettings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);
  const [changedElsewhere, setChangedElsewhere] = useState(false);
  const { info } = useSnapshot(estateInfo);
  const saved = useMemo(() => (settings ? draftOf(settings) : null), [settings]);
  const dirty = !!draft && !!saved && JSON.stringify(draft) !== JSON.stringify(saved);

  const load = (signal?: AbortSignal) =>
    fetchEstateSettings(signal).then((s) => {
      setSettings(s);
      setDraft(draftOf(s));
      setShown(false);
      setChangedElsewhere(false);
    });

  const [failed, setFailed] = useState(false);
  const firstLoad = (signal?: AbortSignal) => {
    setFailed(false);
    load(signal).catch((e: unknown) => {
      if (!signal?.aborted) setFailed(!(e instanceof DOMException && e.name === 'AbortError'));
    });
  };
  useEffect(() => {
    const abort = new AbortController();
    firstLoad(abort.signal);
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the screen opens
  }, []);

  // The estate's settings changed (this tab's save, or anyone's elsewhere): show them, unless the
  // person is editing; then say so, and let them choose.
  useEffect(() => {
    if (!info || !settings || !saved) return;
    const same =
      info.name === settings.name &&
      info.address === settings.address &&
      info.logo === settings.logo &&
      info.timeZone === settings.timeZone &&
      info.defaultLanguage === settings.defaultLanguage &&
      info.sosReannounceSeconds === settings.sosReannounceSeconds &&
      info.voteReminderUnitMs === settings.voteReminderUnitMs;
    if (same) return;
    if (dirty) setChangedElsewhere(true);
    else void load().catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the estate's settings
  }, [info]);

  const zones = useMemo(() => timeZoneOptions(draft?.timeZone), [draft?.timeZone]);
  if (failed)
    return (
      <Segment className="basic-set-up" data-testid="basic-set-up">
        <Message negative>
          <p>{t('estateSettings.loadFailed')}</p>
          <Button type="button" onClick={() => firstLoad()} data-testid="settings-retry">
            {t('estateSettings.retry')}
          </Button>
        </Message>
      </Segment>
    );
  if (!settings || !draft || !saved) return <Segment loading className="basic-set-up" data-testid="basic-set-up" />;

  const errors = draftErrors(draft);
  const errorOf = (k: keyof Draft) => {
    const e = shown ? errors[k] : undefined;
    return e ? t(e[0], e[1]) : null;
  };
  const fieldError = (k: keyof Draft) => {
    const text = errorOf(k);
    return text ? { content: text, pointing: 'above' as const } : undefined;
  };
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const d = settings.defaults;
  const unitName = (ms: number) => {
    const unit = voteReminderUnitOf(ms);
    return unit ? t(`estateSettings.units.${unit}`) : t('estateSettings.units.other', { seconds: ms / 1000 });
  };

  const submit = async () => {
    setShown(true);
    if (Object.keys(errors).length > 0 || saving) return;
    const changes = changesOf(draft, saved);
    if (Object.keys(changes).length === 0) return;
    setSaving(true);
    try {
      const next = await updateEstateSettings({ ...changes, version: settings.updatedAt }, { silent: true });
      setSettings(next);
      setDraft(draftOf(next));
      setShown(false);
      setChangedElsewhere(false);
      showToast('success', t('estateSettings.saved'), { key: 'estate-settings' });
    } catch (e) {
      showToast('error', e instanceof ApiError ? e.message : t('errors.generic'));
      // Someone saved meanwhile: their settings are shown, the person's edits are gone.
      if (e instanceof ApiError && e.status === 409) await load().catch(() => undefined);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Segment className="basic-set-up" data-testid="basic-set-up">
      {changedElsewhere && (
        <Message info data-testid="changed-elsewhere">
          <p>{t('estateSettings.changedElsewhere')}</p>
          <Button type="button" size="small" onClick={() => void load()} data-testid="load-changes">
            {t('estateSettings.loadChanges')}
          </Button>
        </Message>
      )}
      <Form onSubmit={() => void submit()} noValidate data-testid="settings-form">
        <Header as="h2" size="small">
          {t('estateSettings.sections.estate')}
        </Header>
        <Form.Input
          id="estate-name"
          label={t('estateSettings.fields.name')}
          required
          value={draft.name}
          maxLength={100}
          onChange={(_, v) => set({ name: v.value })}
          error={fieldError('name')}
          data-testid="estate-name"
        />
        <Form.Input
          id="estate-address"
          label={t('estateSettings.fields.address')}
          value={draft.address}
          maxLength={200}
          onChange={(_, v) => set({ address: v.value })}
          error={fieldError('address')}
          data-testid="estate-address"
        />
        <PictureField
          label={t('estateSettings.fields.logo')}
          kind="logo"
          value={draft.logo}
          onChange={(logo) => set({ logo })}
          data-testid="estate-logo"
        />
        <p className="estate-settings-hint">{t('estateSettings.hints.logo')}</p>

        <Header as="h2" size="small">
          {t('estateSettings.sections.timeAndLanguage')}
        </Header>
        <Form.Field required error={!!errorOf('timeZone')}>
          <label htmlFor="estate-time-zone">{t('estateSettings.fields.timeZone')}</label>
          <select
            id="estate-time-zone"
            value={draft.timeZone}
            onChange={(e) => set({ timeZone: e.target.value })}
            aria-describedby="estate-time-zone-hint"
            data-testid="estate-time-zone"
          >
            {zones.map((z) => (
              <option key={z.value} value={z.value}>
                {z.text}
              </option>
            ))}
          </select>
        </Form.Field>
        <p className="estate-settings-hint" id="estate-time-zone-hint">
          {t('estateSettings.hints.timeZone')}
        </p>
        <Form.Field>
          <label htmlFor="estate-language">{t('estateSettings.fields.defaultLanguage')}</label>
          <select
            id="estate-language"
            value={draft.defaultLanguage}
            onChange={(e) => set({ defaultLanguage: e.target.value })}
            aria-describedby="estate-language-hint"
            data-testid="estate-language"
          >
            <option value="">
              {t('estateSettings.defaultChoice', { value: t(`languages.${d.defaultLanguage}`) })}
            </option>
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`languages.${l}`)}
              </option>
            ))}
          </select>
        </Form.Field>
        <p className="estate-settings-hint" id="estate-language-hint">
          {t('estateSettings.hints.defaultLanguage')}
        </p>

        <Header as="h2" size="small">
          {t('estateSettings.sections.alerts')}
        </Header>
        <Form.Input
          id="estate-sos-seconds"
          type="number"
          inputMode="numeric"
          min={SOS_REANNOUNCE_SECONDS.min}
          max={SOS_REANNOUNCE_SECONDS.max}
          label={t('estateSettings.fields.sosReannounceSeconds')}
          placeholder={t('estateSettings.defaultSeconds', { count: d.sosReannounceSeconds })}
          value={draft.sosReannounceSeconds}
          onChange={(_, v) => set({ sosReannounceSeconds: v.value })}
          error={fieldError('sosReannounceSeconds')}
          aria-describedby="estate-sos-hint"
          data-testid="estate-sos-seconds"
        />
        <p className="estate-settings-hint" id="estate-sos-hint">
          {t('estateSettings.hints.sosReannounceSeconds', {
            min: SOS_REANNOUNCE_SECONDS.min,
            max: SOS_REANNOUNCE_SECONDS.max,
            count: d.sosReannounceSeconds,
          })}
        </p>
        <Form.Field>
          <label htmlFor="estate-reminder-unit">{t('estateSettings.fields.voteReminderUnit')}</label>
          <select
            id="estate-reminder-unit"
            value={draft.voteReminderUnitMs}
            onChange={(e) => set({ voteReminderUnitMs: e.target.value })}
            aria-describedby="estate-reminder-hint"
            data-testid="estate-reminder-unit"
          >
            <option value="">{t('estateSettings.defaultChoice', { value: unitName(d.voteReminderUnitMs) })}</option>
            {Object.values(VOTE_REMINDER_UNITS).map((ms) => (
              <option key={ms} value={String(ms)}>
                {unitName(ms)}
              </option>
            ))}
          </select>
        </Form.Field>
        <p className="estate-settings-hint" id="estate-reminder-hint">
          {t('estateSettings.hints.voteReminderUnit')}
        </p>

        <div className="estate-settings-actions">
          <Button primary type="submit" loading={saving} disabled={saving} data-testid="settings-save">
            {t('common.save')}
          </Button>
          <Button
            type="button"
            disabled={!dirty || saving}
            onClick={() => {
              setDraft(saved);
              setShown(false);
            }}
            data-testid="settings-undo"
          >
            {t('estateSettings.undo')}
          </Button>
          {settings.updatedAt && (
            <span className="estate-settings-hint" data-testid="settings-updated">
              {t('estateSettings.lastChanged', {
                time: formatTime(settings.updatedAt),
                name: settings.updatedBy ?? '–',
              })}
            </span>
          )}
        </div>
      </Form>
    </Segment>
  );
}

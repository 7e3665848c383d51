import { useState } from 'react';
import { Button, Checkbox, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { readAdLink, RESIDENT_APP_SCREENS, type ResidentAppScreen } from '@pm/shared';
import { saveAd, type AdRow } from '../../api';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { PictureField } from '../../ui/components/PictureField';
import { showToast } from '../../ui/states/toasts';
import { isDateRangeValid } from '../../ui/utils/dateRange';
import { appLink } from '../utils/adLink';

interface Draft {
  title: string;
  image: string;
  detailImage: string;
  linkKind: 'web' | 'app';
  url: string;
  screen: ResidentAppScreen;
  start: string;
  end: string;
  enabled: boolean;
}

function draftOf(ad: AdRow | null): Draft {
  const target = ad?.link ? readAdLink(ad.link) : null;
  return {
    title: ad?.title ?? '',
    image: ad?.image ?? '',
    detailImage: ad?.detailImage ?? '',
    linkKind: target?.kind ?? 'web',
    url: target?.kind === 'web' ? target.url : ad?.link && !target ? ad.link : '',
    screen: target?.kind === 'app' ? target.screen : 'home',
    start: ad?.startDate ?? '',
    end: ad?.endDate ?? '',
    enabled: ad?.enabled ?? true,
  };
}

const linkOf = (d: Draft) => (d.linkKind === 'app' ? appLink(d.screen) : d.url.trim());

/** The form's problems by field (translation keys), SPEC §5's required ad picture, detail image and jump link among them. */
export function adDraftErrors(d: Draft): Partial<Record<'title' | 'image' | 'detailImage' | 'link', string>> {
  const errors: Partial<Record<'title' | 'image' | 'detailImage' | 'link', string>> = {};
  if (!d.title.trim()) errors.title = 'ads.errors.titleRequired';
  if (!d.image) errors.image = 'ads.errors.imageRequired';
  if (!d.detailImage) errors.detailImage = 'ads.errors.detailImageRequired';
  if (d.linkKind === 'web' && !d.url.trim()) errors.link = 'ads.errors.linkRequired';
  else if (!readAdLink(linkOf(d))) errors.link = 'ads.errors.link';
  return errors;
}

/**
 * Add or edit an ad (SPEC §2 "ads" dialog, §3, §5): title, the ad picture and its detail image,
 * the jump link (a web page, http or https only, or a screen of the resident app), the period
 * (days of the estate) and on/off. `ad` null: a new one, added at the end of the order.
 */
export function AdDialog({ ad, onClose, onSaved }: { ad: AdRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(() => draftOf(ad));
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const errors = adDraftErrors(draft);
  const periodValid = isDateRangeValid({ start: draft.start, end: draft.end });
  const error = (k: keyof typeof errors) => (shown && errors[k] ? t(errors[k]) : null);
  const pointing = (k: keyof typeof errors) => {
    const text = error(k);
    return text ? { content: text, pointing: 'above' as const } : undefined;
  };

  const submit = async () => {
    setShown(true);
    if (Object.keys(errors).length > 0 || !periodValid || saving) return;
    setSaving(true);
    try {
      await saveAd({
        adId: ad?.adId,
        title: draft.title.trim(),
        image: draft.image,
        detailImage: draft.detailImage,
        link: linkOf(draft),
        startDate: draft.start || null,
        endDate: draft.end || null,
        enabled: draft.enabled,
      });
      showToast('success', t('ads.saved'), { key: 'ad-saved' });
      onSaved();
    } catch {
      // The data-access layer showed the api's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <DraggableDialog
      open
      onClose={onClose}
      title={ad ? t('ads.editTitle', { title: ad.title }) : t('ads.addTitle')}
      initialFocus="#ad-title"
      actions={
        <>
          <Button type="button" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button primary type="submit" form="ad-form" loading={saving} disabled={saving} data-testid="ad-save">
            {t('common.save')}
          </Button>
        </>
      }
    >
      <Form id="ad-form" onSubmit={() => void submit()} noValidate data-testid="ad-form">
        <Form.Input
          id="ad-title"
          label={t('ads.fields.title')}
          required
          maxLength={100}
          value={draft.title}
          onChange={(_, v) => set({ title: v.value })}
          error={pointing('title')}
          data-testid="ad-title"
        />
        <div className="ad-pictures">
          <PictureField
            label={t('ads.fields.image')}
            kind="ad"
            required
            value={draft.image}
            onChange={(image) => set({ image })}
            error={error('image')}
            data-testid="ad-image"
          />
          <PictureField
            label={t('ads.fields.detailImage')}
            kind="ad"
            required
            value={draft.detailImage}
            onChange={(detailImage) => set({ detailImage })}
            error={error('detailImage')}
            data-testid="ad-detail-image"
          />
        </div>
        <Form.Group grouped>
          <span id="ad-link-kind" className="ad-field-label">
            {t('ads.fields.link')}
          </span>
          <div role="radiogroup" aria-labelledby="ad-link-kind" className="ad-link-kinds">
            {(['web', 'app'] as const).map((kind) => (
              <Form.Radio
                key={kind}
                id={`ad-link-${kind}`}
                label={t(`ads.linkKinds.${kind}`)}
                name="ad-link-kind"
                value={kind}
                checked={draft.linkKind === kind}
                onChange={() => set({ linkKind: kind })}
                data-testid={`ad-link-${kind}`}
              />
            ))}
          </div>
        </Form.Group>
        {draft.linkKind === 'web' ? (
          <Form.Input
            id="ad-url"
            type="url"
            label={t('ads.fields.url')}
            required
            placeholder="https://"
            maxLength={500}
            value={draft.url}
            onChange={(_, v) => set({ url: v.value })}
            error={pointing('link')}
            aria-describedby="ad-url-hint"
            data-testid="ad-url"
          />
        ) : (
          <Form.Field required>
            <label htmlFor="ad-screen">{t('ads.fields.screen')}</label>
            <select
              id="ad-screen"
              value={draft.screen}
              onChange={(e) => set({ screen: e.target.value as ResidentAppScreen })}
              data-testid="ad-screen"
            >
              {RESIDENT_APP_SCREENS.map((s) => (
                <option key={s} value={s}>
                  {t(`ads.screens.${s}`)}
                </option>
              ))}
            </select>
          </Form.Field>
        )}
        {draft.linkKind === 'web' && (
          <p className="ad-hint" id="ad-url-hint">
            {t('ads.hints.url')}
          </p>
        )}
        <Form.Field role="group" aria-labelledby="ad-period">
          <span id="ad-period" className="ad-field-label">
            {t('ads.fields.period')}
          </span>
          <DateRangePicker
            value={{ start: draft.start, end: draft.end }}
            onChange={(r) => set({ start: r.start, end: r.end })}
          />
          <p className="ad-hint ad-period-hint">{t('ads.hints.period')}</p>
        </Form.Field>
        <Form.Field>
          <Checkbox
            toggle
            id="ad-enabled"
            label={t('ads.fields.enabled')}
            checked={draft.enabled}
            onChange={(_, v) => set({ enabled: !!v.checked })}
            data-testid="ad-enabled"
          />
        </Form.Field>
      </Form>
    </DraggableDialog>
  );
}

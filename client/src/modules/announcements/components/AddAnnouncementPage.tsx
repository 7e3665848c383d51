import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Checkbox, Form, Message, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { AnnouncementType, Identity, SelectionMode, enumValues } from '@pm/shared';
import {
  countRecipients,
  fetchRecipientChoices,
  publishAnnouncement,
  type AnnouncementDraft,
  type RecipientChoices,
} from '../../api';
import { estateInfo } from '../../estate-settings/states/estateInfo';
import { reminderIntervalLabel } from '../../estate-settings/utils/reminderUnit';
import { SelectField } from '../../ui/components/SelectField';
import { showToast } from '../../ui/states/toasts';
import { enumLabel, enumOptions } from '../../ui/utils/enumLabels';
import { AnnouncementContent } from './AnnouncementContent';
import '../announcements.css';

// The editor (TipTap, ProseMirror) is loaded only on this screen, and only when it is shown.
const RichTextEditor = lazy(() => import('./RichTextEditor'));

interface Draft {
  type: number;
  title: string;
  content: string;
  deadline: string;
  meetingPlace: string;
  meetingTime: string;
  selectionMode: number;
  reminderInterval: string;
  options: string[];
  blocks: number[];
  carParks: number[];
  shops: number[];
  identities: number[];
  allowComment: boolean;
  publishAt: string;
}

const EMPTY: Draft = {
  type: AnnouncementType.info,
  title: '',
  content: '',
  deadline: '',
  meetingPlace: '',
  meetingTime: '',
  selectionMode: SelectionMode.single,
  reminderInterval: '24',
  options: ['', ''],
  blocks: [],
  carParks: [],
  shops: [],
  identities: [Identity.owner, Identity.tenant, Identity.relativesFriends],
  allowComment: false,
  publishAt: '',
};

const toggle = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);
const hasText = (html: string) => /<img\b/.test(html) || html.replace(/<[^>]*>/g, '').trim().length > 0;

/** The first rule of SPEC §5 the draft breaks (a translation key), or null. */
export function draftError(d: Draft): string | null {
  if (!d.title.trim()) return 'announcements.errors.required.title';
  if (!hasText(d.content)) return 'announcements.errors.required.content';
  if (d.type === AnnouncementType.meeting) {
    if (!d.meetingPlace.trim()) return 'announcements.errors.required.meetingPlace';
    if (!d.meetingTime) return 'announcements.errors.required.meetingTime';
  }
  if (d.type === AnnouncementType.vote) {
    if (!d.deadline) return 'announcements.errors.required.deadline';
    if (!d.reminderInterval || !(Number(d.reminderInterval) >= 1))
      return 'announcements.errors.required.reminderInterval';
    if (d.options.some((o) => !o.trim())) return 'announcements.errors.required.option';
  }
  if (d.blocks.length === 0) return 'announcements.errors.atLeastOneBlock';
  if (d.identities.length === 0) return 'announcements.errors.atLeastOneIdentity';
  return null;
}

function toRequest(d: Draft): AnnouncementDraft {
  const isVote = d.type === AnnouncementType.vote;
  const isMeeting = d.type === AnnouncementType.meeting;
  return {
    type: d.type,
    title: d.title.trim(),
    content: d.content,
    allowComment: d.allowComment,
    deadline: iso(d.deadline),
    publishAt: iso(d.publishAt),
    recipientBlockIds: d.blocks,
    recipientCarParkIds: d.carParks,
    recipientShopIds: d.shops,
    recipientIdentities: d.identities,
    ...(isMeeting ? { meetingPlace: d.meetingPlace.trim(), meetingTime: iso(d.meetingTime) } : {}),
    ...(isVote
      ? {
          selectionMode: d.selectionMode,
          reminderInterval: Number(d.reminderInterval),
          options: d.options.map((o) => o.trim()),
        }
      : {}),
  };
}

/**
 * Add announcement (SPEC §2, §3, §5): type, title, rich-text content with pasted or dropped
 * images, meeting place and time, vote options with selection mode, deadline and reminder
 * interval, recipients (blocks, car parks, shops × identities) with how many people they reach,
 * a preview as residents see it, publish.
 */
export default function AddAnnouncementPage() {
  const { t } = useTranslation();
  const estate = useSnapshot(estateInfo);
  const navigate = useNavigate();
  const labelId = useId();
  const [d, setD] = useState<Draft>(EMPTY);
  const [choices, setChoices] = useState<RecipientChoices | null>(null);
  const [reach, setReach] = useState<number | null>(null);
  const [uploads, setUploads] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setD((old) => ({ ...old, ...patch }));

  useEffect(() => {
    const abort = new AbortController();
    fetchRecipientChoices(abort.signal).then(setChoices, () => undefined);
    return () => abort.abort();
  }, []);
  // How many people the chosen recipients reach, recounted shortly after each change.
  useEffect(() => {
    setReach(null);
    if (d.blocks.length === 0 || d.identities.length === 0) return setReach(0);
    const abort = new AbortController();
    const timer = setTimeout(() => {
      countRecipients(
        {
          recipientBlockIds: d.blocks,
          recipientCarParkIds: d.carParks,
          recipientShopIds: d.shops,
          recipientIdentities: d.identities,
        },
        abort.signal,
      ).then(
        (r) => setReach(r.count),
        () => undefined,
      );
    }, 300);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [d.blocks, d.carParks, d.shops, d.identities]);

  const submit = async () => {
    const broken = draftError(d);
    setError(broken);
    if (broken || uploads > 0) return;
    setBusy(true);
    try {
      const saved = await publishAnnouncement(toRequest(d));
      showToast('success', t('announcements.published'));
      navigate(`/announcement-management/index?open=${saved.id}&tab=result`);
    } catch {
      // The api's message is shown as a toast by the http layer.
    } finally {
      setBusy(false);
    }
  };

  const isVote = d.type === AnnouncementType.vote;
  const group = (
    title: string,
    items: { id: number; name: string }[],
    chosen: number[],
    key: 'blocks' | 'carParks' | 'shops',
    testId: string,
  ) => (
    <Form.Field>
      <fieldset className="announcement-fieldset" data-testid={testId}>
        <legend>{title}</legend>
        <div className="announcement-check-group">
          {items.map((b) => (
            <Checkbox
              key={b.id}
              id={`recipient-${key}-${b.id}`}
              label={b.name}
              checked={chosen.includes(b.id)}
              onChange={() => set({ [key]: toggle(chosen, b.id) } as Partial<Draft>)}
            />
          ))}
        </div>
      </fieldset>
    </Form.Field>
  );

  return (
    <Segment className="announcement-form" data-testid="add-announcement-page">
      <Form onSubmit={submit} noValidate>
        <SelectField
          label={t('announcements.fields.type')}
          value={String(d.type)}
          onChange={(v) => set({ type: Number(v) || AnnouncementType.info })}
          options={enumOptions(t, AnnouncementType)}
          emptyText={t('announcements.fields.type')}
          data-testid="type"
        />
        <Form.Input
          id="announcement-title"
          label={t('announcements.fields.title')}
          value={d.title}
          maxLength={200}
          required
          onChange={(_, v) => set({ title: v.value })}
          data-testid="title"
        />
        <Form.Field required>
          <label id={labelId}>{t('announcements.fields.content')}</label>
          <Suspense fallback={<Segment loading basic style={{ minHeight: 180 }} />}>
            <RichTextEditor
              value={d.content}
              labelId={labelId}
              onChange={(content) => set({ content })}
              onUploading={(delta) => setUploads((n) => n + delta)}
            />
          </Suspense>
          {uploads > 0 && <small role="status">{t('announcements.uploading')}</small>}
        </Form.Field>
        {d.type === AnnouncementType.meeting && (
          <Form.Group widths="equal">
            <Form.Input
              id="announcement-meeting-place"
              label={t('announcements.fields.meetingPlace')}
              value={d.meetingPlace}
              required
              onChange={(_, v) => set({ meetingPlace: v.value })}
              data-testid="meeting-place"
            />
            <Form.Input
              id="announcement-meeting-time"
              type="datetime-local"
              label={t('announcements.fields.meetingTime')}
              value={d.meetingTime}
              required
              onChange={(_, v) => set({ meetingTime: v.value })}
              data-testid="meeting-time"
            />
          </Form.Group>
        )}
        <Form.Group widths="equal">
          <Form.Input
            id="announcement-deadline"
            type="datetime-local"
            label={t('announcements.fields.deadline')}
            value={d.deadline}
            required={isVote}
            onChange={(_, v) => set({ deadline: v.value })}
            data-testid="deadline"
          />
          {isVote && (
            <Form.Input
              id="announcement-reminder"
              type="number"
              min={1}
              label={reminderIntervalLabel(t, estate.info?.voteReminderUnitMs)}
              value={d.reminderInterval}
              required
              onChange={(_, v) => set({ reminderInterval: v.value })}
              data-testid="reminder-interval"
            />
          )}
        </Form.Group>
        {isVote && (
          <>
            <SelectField
              label={t('announcements.fields.selectionMode')}
              value={String(d.selectionMode)}
              onChange={(v) => set({ selectionMode: Number(v) || SelectionMode.single })}
              options={enumValues(SelectionMode).map((v) => ({ value: v, text: enumLabel(t, SelectionMode, v) }))}
              emptyText={t('announcements.fields.selectionMode')}
              data-testid="selection-mode"
            />
            <Form.Field required>
              <fieldset className="announcement-fieldset" data-testid="options">
                <legend>{t('announcements.fields.options')}</legend>
                {d.options.map((o, i) => (
                  <div className="option-row" key={i}>
                    <Form.Input
                      aria-label={t('announcements.fields.option', { n: i + 1 })}
                      placeholder={t('announcements.fields.option', { n: i + 1 })}
                      value={o}
                      maxLength={200}
                      onChange={(_, v) => set({ options: d.options.map((x, j) => (j === i ? v.value : x)) })}
                      data-testid={`option-${i}`}
                    />
                    <Button
                      type="button"
                      icon="trash"
                      basic
                      aria-label={t('announcements.removeOption', { n: i + 1 })}
                      onClick={() => {
                        if (d.options.length <= 1)
                          return showToast('error', t('announcements.errors.deleteAtLeastOne'));
                        set({ options: d.options.filter((_, j) => j !== i) });
                      }}
                    />
                  </div>
                ))}
                <Button
                  type="button"
                  basic
                  icon="plus"
                  content={t('announcements.addOption')}
                  onClick={() => set({ options: [...d.options, ''] })}
                  data-testid="add-option"
                />
              </fieldset>
            </Form.Field>
          </>
        )}
        <Segment secondary>
          <h2 className="announcement-recipients-title">{t('announcements.fields.recipients')}</h2>
          {choices ? (
            <>
              {group(t('announcements.fields.blocks'), choices.blocks, d.blocks, 'blocks', 'blocks')}
              {choices.carParks.length > 0 &&
                group(t('announcements.fields.carParks'), choices.carParks, d.carParks, 'carParks', 'car-parks')}
              {choices.shops.length > 0 &&
                group(t('announcements.fields.shops'), choices.shops, d.shops, 'shops', 'shops')}
            </>
          ) : (
            <Segment loading basic />
          )}
          <Form.Field>
            <fieldset className="announcement-fieldset" data-testid="identities">
              <legend>{t('announcements.fields.identities')}</legend>
              <div className="announcement-check-group">
                {enumValues(Identity).map((i) => (
                  <Checkbox
                    key={i}
                    id={`recipient-identity-${i}`}
                    label={enumLabel(t, Identity, i)}
                    checked={d.identities.includes(i)}
                    onChange={() => set({ identities: toggle(d.identities, i) })}
                  />
                ))}
              </div>
            </fieldset>
          </Form.Field>
          <p role="status" data-testid="reach">
            {reach === null ? t('announcements.reachLoading') : t('announcements.reach', { count: reach })}
          </p>
        </Segment>
        <Form.Input
          id="announcement-publish-at"
          type="datetime-local"
          label={t('announcements.fields.publishAt')}
          value={d.publishAt}
          onChange={(_, v) => set({ publishAt: v.value })}
          data-testid="publish-at"
        />
        <Form.Checkbox
          id="announcement-allow-comment"
          label={t('announcements.fields.allowComment')}
          checked={d.allowComment}
          onChange={() => set({ allowComment: !d.allowComment })}
        />
        {error && (
          <Message negative role="alert" data-testid="form-error">
            {t(error)}
          </Message>
        )}
        <Button type="button" onClick={() => setPreview((p) => !p)} aria-expanded={preview} data-testid="preview">
          {t('announcements.preview')}
        </Button>
        <Button primary type="submit" loading={busy} disabled={busy || uploads > 0} data-testid="publish">
          {t('announcements.publish')}
        </Button>
        <Button type="button" basic onClick={() => navigate('/announcement-management/index')}>
          {t('announcements.back')}
        </Button>
      </Form>
      {preview && (
        <Segment data-testid="preview-pane">
          <h2>{d.title}</h2>
          <AnnouncementContent
            detail={{
              type: d.type,
              content: d.content,
              meetingPlace: d.meetingPlace,
              meetingTime: iso(d.meetingTime) ?? null,
              selectionMode: isVote ? d.selectionMode : null,
              reminderInterval: isVote ? Number(d.reminderInterval) : null,
              options: isVote ? d.options.map((content) => ({ content })) : undefined,
            }}
          />
        </Segment>
      )}
    </Segment>
  );
}

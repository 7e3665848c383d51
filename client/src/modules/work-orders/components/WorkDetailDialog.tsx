import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Comment, Form, Grid, Header, Label, Segment, Tab } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { completeWork, dealWith, fetchReplies, fetchWorkDetail, imageUrl, saveReply, type WorkDetail } from '../../api';
import type { Reply } from '@pm/shared';
import { usePermission } from '../../auth/hooks/usePermission';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { VoicePlayer } from '../../ui/components/VoicePlayer';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { actionsFor, formatTime, mediaList, unitDisplay } from '../utils/workFormat';
import type { WorkScreen } from '../utils/workKinds';
import { MoreIndustriesDialog } from './MoreIndustriesDialog';
import { PictureList, PictureUpload, Stars } from './WorkMedia';
import { StatusLabel } from './StatusLabel';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Grid.Row className="work-field">
      <Grid.Column width={5} className="work-field-label">
        {label}
      </Grid.Column>
      <Grid.Column width={11}>{children}</Grid.Column>
    </Grid.Row>
  );
}

/** Deal-with or complete form: a required note (checked on change), pictures, then a confirmation. */
function StepForm({
  screen,
  step,
  onDone,
}: {
  screen: WorkScreen;
  step: 'deal' | 'complete';
  onDone: (note: string, img: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [img, setImg] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const error =
    touched && !note.trim()
      ? t(step === 'deal' ? 'validation.dealNoteRequired' : 'validation.completeNoteRequired')
      : '';
  const submit = async () => {
    setTouched(true);
    if (!note.trim()) return;
    if (!(await confirm(t(step === 'deal' ? 'workOrders.confirmDeal' : 'workOrders.confirmComplete')))) return;
    setBusy(true);
    try {
      await onDone(note.trim(), img);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Segment data-testid={`${step}-form`}>
      <Header as="h4">{t(step === 'deal' ? 'workOrders.dealTitle' : 'workOrders.completeTitle')}</Header>
      <Form>
        <Form.TextArea
          name={`${step}Note`}
          label={t(step === 'deal' ? 'workOrders.dealNote' : 'workOrders.completeNote')}
          value={note}
          error={error || undefined}
          onChange={(_, d) => {
            setNote(String(d.value ?? ''));
            setTouched(true);
          }}
        />
        <PictureUpload kind={screen.kind === 'complaint' ? 'complain' : 'eventorder'} value={img} onChange={setImg} />
        <Button
          primary
          type="button"
          loading={busy}
          onClick={() => void submit()}
          data-testid={`${step}-submit`}
          style={{ marginTop: '1em' }}
        >
          {t(step === 'deal' ? 'workOrders.dealWith' : 'workOrders.complete')}
        </Button>
      </Form>
    </Segment>
  );
}

function InfoPane({
  screen,
  detail,
  onChanged,
}: {
  screen: WorkScreen;
  detail: WorkDetail;
  onChanged: (d: WorkDetail) => void;
}) {
  const { t } = useTranslation();
  const canUpdate = usePermission(screen.perms.update);
  const [step, setStep] = useState<'deal' | 'complete' | null>(null);
  const [reporterOpen, setReporterOpen] = useState(false);
  const actions = actionsFor(detail.status, canUpdate);
  const done = async (note: string, img: string) => {
    const next =
      step === 'deal'
        ? await dealWith(screen.kind, detail.id, note, img)
        : await completeWork(screen.kind, detail.id, note, img);
    showToast('success', t(step === 'deal' ? 'workOrders.dealt' : 'workOrders.completed'));
    setStep(null);
    onChanged(next);
  };
  return (
    <div data-testid="work-info">
      <Grid className="work-fields" stackable>
        <Field label={t(screen.codeColumn)}>{detail.code}</Field>
        <Field label={t('workOrders.columns.status')}>
          <StatusLabel status={detail.status} />
        </Field>
        {detail.type !== null && (
          <Field label={t('workOrders.columns.type')}>{t(`workOrders.eventType.t${detail.type}`)}</Field>
        )}
        <Field label={t('workOrders.columns.theme')}>{detail.name}</Field>
        <Field label={t('workOrders.columns.reporter')}>
          <a role="button" tabIndex={0} onClick={() => setReporterOpen(true)} data-testid="reporter-link">
            {detail.reportPersonName}
          </a>
          {detail.personIdentity ? (
            <Label size="mini" content={t(`workOrders.identity.i${detail.personIdentity}`)} style={{ marginLeft: 8 }} />
          ) : null}
        </Field>
        <Field label={t('workOrders.columns.house')}>{unitDisplay(detail)}</Field>
        <Field label={t('workOrders.columns.reportTime')}>{formatTime(detail.reportTime)}</Field>
        <Field label={t('workOrders.description')}>{detail.note}</Field>
        <Field label={t('workOrders.pictures')}>
          <PictureList joined={detail.img} />
        </Field>
        {mediaList(detail.voice).length > 0 && (
          <Field label={t('workOrders.voice')}>
            {mediaList(detail.voice).map((v) => (
              <VoicePlayer key={v} source={imageUrl(v)} />
            ))}
          </Field>
        )}
      </Grid>
      {detail.status >= 2 && (
        <Segment data-testid="deal-info">
          <Header as="h4">{t('workOrders.dealInfo')}</Header>
          <Grid className="work-fields" stackable>
            <Field label={t('workOrders.dealPerson')}>{detail.personDealName}</Field>
            <Field label={t('workOrders.dealTime')}>{formatTime(detail.dealTime)}</Field>
            <Field label={t('workOrders.dealNote')}>{detail.dealNote}</Field>
            <Field label={t('workOrders.pictures')}>
              <PictureList joined={detail.dealImg} />
            </Field>
          </Grid>
        </Segment>
      )}
      {detail.status === 3 && (
        <Segment data-testid="complete-info">
          <Header as="h4">{t('workOrders.completeInfo')}</Header>
          <Grid className="work-fields" stackable>
            <Field label={t('workOrders.completePerson')}>{detail.personCompleteName}</Field>
            <Field label={t('workOrders.completeTime')}>{formatTime(detail.completeTime)}</Field>
            <Field label={t('workOrders.completeNote')}>{detail.completeNote}</Field>
            <Field label={t('workOrders.pictures')}>
              <PictureList joined={detail.completeImg} />
            </Field>
          </Grid>
          <Header as="h4">{t('workOrders.rating')}</Header>
          {detail.serviceEfficiency === null ? (
            <span className="work-muted">{t('workOrders.notRated')}</span>
          ) : (
            <Grid className="work-fields" stackable>
              <Field label={t('workOrders.efficiency')}>
                <Stars value={detail.serviceEfficiency} />
              </Field>
              <Field label={t('workOrders.attitude')}>
                <Stars value={detail.serviceAttitude} />
              </Field>
              <Field label={t('workOrders.process')}>
                <Stars value={detail.serviceProcess} />
              </Field>
              {detail.serviceComment && <Field label={t('workOrders.comment')}>{detail.serviceComment}</Field>}
            </Grid>
          )}
        </Segment>
      )}
      {step === null && (actions.deal || actions.complete) && (
        <Button
          primary
          onClick={() => setStep(actions.deal ? 'deal' : 'complete')}
          data-testid={actions.deal ? 'deal-button' : 'complete-button'}
        >
          {t(actions.deal ? 'workOrders.dealWith' : 'workOrders.complete')}
        </Button>
      )}
      {step && <StepForm screen={screen} step={step} onDone={done} />}
      <MoreIndustriesDialog
        personId={reporterOpen ? detail.reportPersonId : null}
        name={detail.reportPersonName}
        onClose={() => setReporterOpen(false)}
      />
    </div>
  );
}

function ReplyPane({ screen, detail, onReplied }: { screen: WorkScreen; detail: WorkDetail; onReplied: () => void }) {
  const { t } = useTranslation();
  const [replies, setReplies] = useState<Reply[]>([]);
  const [content, setContent] = useState('');
  const [img, setImg] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const load = useCallback(
    (signal?: AbortSignal) =>
      fetchReplies(screen.kind, detail.id, signal)
        .then((r) => setReplies(r.list))
        .catch(() => undefined),
    [screen.kind, detail.id],
  );
  useEffect(() => {
    const ac = new AbortController();
    void load(ac.signal);
    return () => ac.abort();
  }, [load]);
  const error = touched && !content.trim() ? t('validation.replyRequired') : '';
  const send = async () => {
    setTouched(true);
    if (!content.trim()) return;
    setBusy(true);
    try {
      await saveReply(screen.kind, detail.id, content.trim(), img);
      showToast('success', t('workOrders.replied'));
      setContent('');
      setImg('');
      setTouched(false);
      await load();
      onReplied();
    } catch {
      // shown by the data-access layer
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="work-replies">
      {replies.length === 0 ? (
        <p className="work-muted">{t('workOrders.noReplies')}</p>
      ) : (
        <Comment.Group>
          {replies.map((r) => (
            <Comment key={r.replyId} data-testid="reply-item">
              {r.personPhoto && <Comment.Avatar src={imageUrl(r.personPhoto)} />}
              <Comment.Content>
                <Comment.Author as="span">{r.personName}</Comment.Author>
                <Comment.Metadata>
                  <span>{t(r.companyType === null ? 'workOrders.resident' : 'workOrders.staff')}</span>
                  <span>{formatTime(r.replyTime)}</span>
                </Comment.Metadata>
                <Comment.Text>{r.content}</Comment.Text>
                {mediaList(r.img).length > 0 && <PictureList joined={r.img} />}
                {mediaList(r.voice).map((v) => (
                  <VoicePlayer key={v} source={imageUrl(v)} />
                ))}
              </Comment.Content>
            </Comment>
          ))}
        </Comment.Group>
      )}
      <Form>
        <Form.TextArea
          name="replyContent"
          label={t('workOrders.replyContent')}
          value={content}
          error={error || undefined}
          onChange={(_, d) => setContent(String(d.value ?? ''))}
          onBlur={() => setTouched(true)}
        />
        <PictureUpload kind={screen.kind === 'complaint' ? 'complain' : 'eventorder'} value={img} onChange={setImg} />
        <Button
          primary
          type="button"
          loading={busy}
          onClick={() => void send()}
          data-testid="reply-submit"
          style={{ marginTop: '1em' }}
        >
          {t('workOrders.sendReply')}
        </Button>
      </Form>
    </div>
  );
}

/** The detail dialog (SPEC §2): info tab, and the reply tab for those with …:reply. */
export function WorkDetailDialog({
  screen,
  id,
  onClose,
  onChanged,
}: {
  screen: WorkScreen;
  id: number | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const canReply = usePermission(screen.perms.reply);
  const [detail, setDetail] = useState<WorkDetail | null>(null);
  // The parent re-renders on every live update with a new onClose; the detail must not be
  // fetched again (and an open deal or complete form lost) because of that.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const reload = useCallback(() => {
    if (id === null) return;
    void fetchWorkDetail(screen.kind, id)
      .then(setDetail)
      .catch(() => closeRef.current());
  }, [screen.kind, id]);
  useEffect(() => {
    setDetail(null);
    reload();
  }, [reload]);
  const panes = detail
    ? [
        {
          menuItem: { key: 'info', content: t(screen.infoTab), 'data-testid': 'tab-info' },
          render: () => (
            <Tab.Pane>
              <InfoPane
                screen={screen}
                detail={detail}
                onChanged={(d) => {
                  setDetail(d);
                  onChanged();
                }}
              />
            </Tab.Pane>
          ),
        },
        ...(canReply
          ? [
              {
                menuItem: {
                  key: 'reply',
                  content: t('workOrders.replyCount', { count: detail.replyCount }),
                  'data-testid': 'tab-reply',
                },
                render: () => (
                  <Tab.Pane>
                    <ReplyPane screen={screen} detail={detail} onReplied={reload} />
                  </Tab.Pane>
                ),
              },
            ]
          : []),
      ]
    : [];
  return (
    <DraggableDialog
      open={id !== null}
      title={detail?.name ?? t('workOrders.details')}
      onClose={onClose}
      size="large"
      data-testid="work-detail"
    >
      {detail ? <Tab panes={panes} /> : <Segment loading style={{ minHeight: 120 }} />}
    </DraggableDialog>
  );
}

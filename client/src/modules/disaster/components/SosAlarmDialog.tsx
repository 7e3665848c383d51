import { useState } from 'react';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { acknowledgeSos, closeSos } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { firstUnacknowledged, mergeCall, orderedCalls, showCall, shownCall, sosAlarms } from '../states/sosAlarms';
import { playSosSound } from '../utils/sosSound';
import { SosStateLabel } from './SosStateLabel';

/**
 * SPEC §2 "disaster call for help (alarm)", placed at 15vh: the person, their house, position and
 * time of an SOS call; Acknowledge, then close it with a note. Closing the dialog leaves the
 * call as it is (still in the alarm bell, announced again while nobody acknowledges it).
 */
export function SosAlarmDialog() {
  const { t } = useTranslation();
  const snap = useSnapshot(sosAlarms);
  const call = shownCall(snap as typeof sosAlarms);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const waiting = orderedCalls(snap.calls as typeof sosAlarms.calls).filter(
    (c) => c.state === 'open' && c.id !== call?.id,
  );

  const act = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      const changed = (await work()) as Parameters<typeof mergeCall>[0];
      mergeCall(changed);
      // Closed here: on to the next call waiting, if any.
      if (changed.state === 'closed') showCall(firstUnacknowledged());
      showToast('success', t(done));
      setNote('');
    } catch {
      // The call's error toast said why (someone else was first): show the call as it is now.
    } finally {
      setBusy(false);
    }
  };
  const close = () => showCall(null);

  if (!call) return null;
  const field = (label: string, value: string | null | undefined, testId: string) => (
    <div className="sos-field">
      <span className="sos-field-label">{label}</span>
      <span className="sos-field-value" data-testid={testId}>
        {value || '–'}
      </span>
    </div>
  );
  return (
    <DraggableDialog
      open
      top="15vh"
      title={t('disaster.sos.title')}
      onClose={close}
      data-testid="sos-dialog"
      initialFocus={call.state === 'open' ? '[data-testid=sos-acknowledge]' : undefined}
      actions={
        <>
          {waiting.length > 0 && (
            <Button basic onClick={() => showCall(waiting[0].id)} data-testid="sos-next">
              {t('disaster.sos.next', { count: waiting.length })}
            </Button>
          )}
          {call.state === 'open' && (
            <Button
              color="red"
              disabled={busy}
              onClick={() => void act(() => acknowledgeSos(call.id), 'disaster.sos.acknowledgedToast')}
              data-testid="sos-acknowledge"
            >
              {t('disaster.sos.acknowledge')}
            </Button>
          )}
          {call.state === 'closed' && (
            <Button basic onClick={() => showCall(firstUnacknowledged())} data-testid="sos-dismiss">
              {t('common.close')}
            </Button>
          )}
        </>
      }
    >
      <div className="sos-alarm" role="alert" aria-live="assertive">
        <div className="sos-headline">
          <SosStateLabel state={call.state} />
          {snap.soundBlocked && call.state === 'open' && (
            <Button size="mini" basic icon="volume up" content={t('disaster.sos.playSound')} onClick={playSosSound} />
          )}
        </div>
        {field(t('disaster.sos.person'), call.personName, 'sos-person')}
        {field(t('disaster.sos.phone'), call.phone, 'sos-phone')}
        {field(t('disaster.sos.house'), unitDisplay(call), 'sos-house')}
        {field(t('disaster.sos.position'), call.position, 'sos-position')}
        {field(t('disaster.sos.time'), formatTime(call.createdAt), 'sos-time')}
        {call.acknowledgedAt &&
          field(
            t('disaster.sos.acknowledgedBy'),
            `${call.acknowledgedBy ?? ''} · ${formatTime(call.acknowledgedAt)}`,
            'sos-acknowledged-by',
          )}
        {call.handledAt &&
          field(t('disaster.sos.closedBy'), `${call.handledBy ?? ''} · ${formatTime(call.handledAt)}`, 'sos-closed-by')}
        {call.handledNote && field(t('disaster.sos.note'), call.handledNote, 'sos-note')}
      </div>
      {call.state === 'acknowledged' && (
        <Form
          className="sos-close-form"
          onSubmit={() => void act(() => closeSos(call.id, note.trim()), 'disaster.sos.closedToast')}
        >
          <Form.TextArea
            id="sos-close-note"
            label={t('disaster.sos.closeNote')}
            value={note}
            maxLength={500}
            rows={2}
            onChange={(_, d) => setNote(String(d.value ?? ''))}
            data-testid="sos-close-note"
          />
          <Button type="submit" primary disabled={busy || !note.trim()} data-testid="sos-close">
            {t('disaster.sos.closeCall')}
          </Button>
          {waiting.length === 0 && <span className="warn-hint sos-none-waiting">{t('disaster.sos.noneWaiting')}</span>}
        </Form>
      )}
    </DraggableDialog>
  );
}

import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button, Form, Message } from 'semantic-ui-react';
import { ChatRecordType, EventType } from '@pm/shared';
import { fetchResidentContext, messageToWork, type ChatRecord, type ResidentContext } from '../../api';
import { useSessionPerms } from '../hooks/useSessionPerms';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { SelectField } from '../../ui/components/SelectField';
import { showToast } from '../../ui/states/toasts';
import { enumOptions } from '../../ui/utils/enumLabels';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { MessageBody } from './MessageBody';

/**
 * A message becomes a complaint or an event work order in two clicks: "Make complaint / work
 * order" on the message opens this form already filled (the text as description and first line as
 * theme, the picture, the sender's first house); "Create" files it in the sender's name.
 */
export function MessageToWorkDialog({ record, onClose }: { record: ChatRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const perms = useSessionPerms();
  const [context, setContext] = useState<ResidentContext | null>(null);
  const [kind, setKind] = useState<'complaint' | 'eventOrder'>(perms.has('complain:list') ? 'complaint' : 'eventOrder');
  const text = record.type === ChatRecordType.text ? record.content : '';
  const [name, setName] = useState(
    text.split('\n')[0].slice(0, 60) || t('im.work.defaultName', { name: record.fromName }),
  );
  const [note, setNote] = useState(text || t('im.work.defaultNote', { name: record.fromName }));
  const [type, setType] = useState('1');
  const [house, setHouse] = useState('');
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<{ kind: string; id: number; code: string } | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchResidentContext(record.fromPersonId, abort.signal).then(
      (c) => {
        setContext(c);
        const h = c.houses[0];
        if (h) setHouse(`${h.houseType}:${h.houseId}`);
      },
      () => undefined,
    );
    return () => abort.abort();
  }, [record.fromPersonId]);
  const submit = async () => {
    const [houseType, houseId] = house.split(':').map(Number);
    if (!houseType || !name.trim() || !note.trim()) return;
    setBusy(true);
    try {
      const answer = await messageToWork({
        groupId: record.groupId,
        seq: record.seq,
        kind,
        type: kind === 'eventOrder' ? Number(type) : undefined,
        name: name.trim(),
        note: note.trim(),
        houseType,
        houseId,
      });
      setMade(answer);
      showToast('success', t('im.work.made', { code: answer.code }));
    } catch {
      // the error toast says why
    } finally {
      setBusy(false);
    }
  };
  const path = made?.kind === 'complaint' ? '/complaints-suggestions/index' : '/event-work-order/index';
  return (
    <DraggableDialog
      open
      title={t('im.work.title')}
      onClose={onClose}
      data-testid="make-work-dialog"
      actions={
        made ? (
          <Button onClick={onClose}>{t('im.actions.close')}</Button>
        ) : (
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              primary
              loading={busy}
              disabled={busy || !house || !context?.houses.length}
              onClick={() => void submit()}
              data-testid="make-work-submit"
            >
              {t('im.actions.create')}
            </Button>
          </>
        )
      }
    >
      {made ? (
        <Message positive>
          {t('im.work.made', { code: made.code })} <Link to={`${path}?open=${made.id}`}>{t('im.work.open')}</Link>
        </Message>
      ) : (
        <Form>
          <div className="make-work-source">
            <MessageBody type={record.type} content={record.content} />
          </div>
          <Form.Group inline>
            {perms.has('complain:list') && (
              <Form.Radio
                id="work-kind-complaint"
                label={t('im.work.complaint')}
                checked={kind === 'complaint'}
                onChange={() => setKind('complaint')}
              />
            )}
            {perms.has('eventorder:list') && (
              <Form.Radio
                id="work-kind-event"
                label={t('im.work.eventOrder')}
                checked={kind === 'eventOrder'}
                onChange={() => setKind('eventOrder')}
                data-testid="work-kind-event"
              />
            )}
          </Form.Group>
          {kind === 'eventOrder' && (
            <SelectField
              label={t('workOrders.columns.type')}
              value={type}
              options={enumOptions(t, EventType)}
              onChange={setType}
              emptyText={t('im.work.chooseType')}
            />
          )}
          <Form.Input
            id="work-name"
            label={t('im.work.name')}
            value={name}
            maxLength={100}
            required
            onChange={(_, d) => setName(String(d.value))}
          />
          <Form.TextArea
            id="work-note"
            label={t('im.work.note')}
            value={note}
            maxLength={2000}
            required
            onChange={(_, d) => setNote(String(d.value))}
          />
          {context && context.houses.length === 0 ? (
            <Message warning>{t('im.work.noHouse', { name: record.fromName })}</Message>
          ) : (
            <SelectField
              label={t('im.work.house')}
              value={house}
              options={(context?.houses ?? []).map((h) => ({
                value: `${h.houseType}:${h.houseId}`,
                text: unitDisplay(h),
              }))}
              emptyText={t('im.work.chooseHouse')}
              onChange={setHouse}
            />
          )}
        </Form>
      )}
    </DraggableDialog>
  );
}

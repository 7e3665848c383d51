import { useEffect, useState } from 'react';
import { Button, Form, Pagination, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DisasterReply } from '@pm/shared';
import { fetchWarnPeople, handleHelpRequest, type WarnPeopleList, type WarnPerson } from '../../api';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { showToast } from '../../ui/states/toasts';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';

const LIMIT = 20;

/** One list of a warning's recipients; the help list marks a request handled with a note. */
export function WarnPeople({ warnId, list, changes }: { warnId: number; list: WarnPeopleList; changes: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ list: WarnPerson[]; total: number } | null>(null);
  const [handling, setHandling] = useState<number | null>(null);
  const [note, setNote] = useState('');
  const [reloads, setReloads] = useState(0);
  useEffect(() => setPage(1), [warnId, list]);
  useEffect(() => {
    const abort = new AbortController();
    fetchWarnPeople(warnId, list, page, LIMIT, abort.signal).then(setRows, () => undefined);
    return () => abort.abort();
  }, [warnId, list, page, changes, reloads]);

  const handle = async (id: number) => {
    try {
      await handleHelpRequest(id, note.trim());
      showToast('success', t('disaster.help.handledToast'));
      setHandling(null);
      setNote('');
      setReloads((n) => n + 1);
    } catch {
      // The error toast says why (someone else handled it first).
    }
  };

  if (!rows) return null;
  if (rows.total === 0) return <EmptyPlaceholder text={t('disaster.warn.nobody')} />;
  const help = list === 'help';
  return (
    <>
      <Table compact unstackable className="warn-people" data-testid={`warn-people-${list}`}>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t('disaster.columns.name')}</Table.HeaderCell>
            <Table.HeaderCell>{t('disaster.columns.house')}</Table.HeaderCell>
            <Table.HeaderCell>{t('disaster.columns.phone')}</Table.HeaderCell>
            <Table.HeaderCell>{t('disaster.columns.reply')}</Table.HeaderCell>
            <Table.HeaderCell>{t('disaster.columns.time')}</Table.HeaderCell>
            {help && <Table.HeaderCell>{t('disaster.columns.handled')}</Table.HeaderCell>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.list.map((p) => (
            <Table.Row key={p.id} data-testid="warn-person">
              <Table.Cell>{p.name}</Table.Cell>
              <Table.Cell>{unitDisplay(p) || t('disaster.staffMember')}</Table.Cell>
              <Table.Cell>{p.phone}</Table.Cell>
              <Table.Cell>
                {p.reply ? enumLabel(t, DisasterReply, p.reply) : ''}
                {p.note && <div className="warn-note">{p.note}</div>}
              </Table.Cell>
              <Table.Cell>{formatTime(p.replyTime ?? p.readTime ?? '')}</Table.Cell>
              {help && (
                <Table.Cell>
                  {p.handledAt ? (
                    <span data-testid="help-handled">
                      {p.handledBy} · {formatTime(p.handledAt)}
                      {p.handledNote && <div className="warn-note">{p.handledNote}</div>}
                    </span>
                  ) : handling === p.id ? (
                    <Form onSubmit={() => void handle(p.id)} className="help-form">
                      <Form.Input
                        id={`help-note-${p.id}`}
                        label={t('disaster.help.note')}
                        value={note}
                        maxLength={500}
                        onChange={(_, d) => setNote(d.value)}
                        data-testid="help-note"
                      />
                      <Button type="submit" size="mini" primary disabled={!note.trim()} data-testid="help-save">
                        {t('disaster.help.save')}
                      </Button>
                    </Form>
                  ) : (
                    <Button size="mini" basic color="red" onClick={() => setHandling(p.id)} data-testid="help-handle">
                      {t('disaster.help.markHandled')}
                    </Button>
                  )}
                </Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      {rows.total > LIMIT && (
        <Pagination
          size="mini"
          activePage={page}
          totalPages={Math.ceil(rows.total / LIMIT)}
          onPageChange={(_, d) => setPage(Number(d.activePage))}
          aria-label={t('disaster.warn.pages')}
        />
      )}
    </>
  );
}

import { Button, Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { ALARM_TYPES, MESSAGE_PANEL_TYPES } from '@pm/shared';
import { fetchMessages, type NotificationMessage } from '../../api';
import { ListScreen, type ListColumn, type StatusTab } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { liveState } from '../../live/states/liveState';
import { useOpenMessage } from '../../messages/hooks/useOpenMessage';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { SelectField } from '../../ui/components/SelectField';
import { isDateRangeValid } from '../../ui/utils/dateRange';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';

/** The filters and their URL names: `?type=50&from=2026-11-01&to=2026-11-07`. */
const FILTERS = { type: '', from: '', to: '' };

/** Status tabs: all, unread, read (the api's unReadStatus 0 / 1). */
const READ_TABS = [
  { value: 0, label: 'historicalMessages.all', unReadStatus: undefined },
  { value: 1, label: 'historicalMessages.unread', unReadStatus: 0 },
  { value: 2, label: 'historicalMessages.read', unReadStatus: 1 },
] as const;

/** Every message type a person can receive, in number order. */
const TYPES = [...new Set([...ALARM_TYPES, ...MESSAGE_PANEL_TYPES])].sort((a, b) => a - b);

/**
 * /dashboard/historical-message: every notification message of the person, read and unread,
 * filtered by type and days of the estate, paged. View marks it read and opens the record, as in
 * the message panel. New messages (the live unread counters move) reload the page.
 */
export default function HistoricalMessagesPage() {
  const { t } = useTranslation();
  const open = useOpenMessage();
  const live = useSnapshot(liveState);
  const typeName = (type: number) => t(`messages.types.t${type}`, { defaultValue: t('messages.types.other') });
  const list = useListController<NotificationMessage, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ status, page, limit, filters: f }, signal) =>
      fetchMessages(
        page,
        limit,
        {
          messageTypeList: f.type ? [Number(f.type)] : undefined,
          unReadStatus: READ_TABS.find((tab) => tab.value === status)?.unReadStatus,
          startTime: f.from || undefined,
          endTime: f.to || undefined,
        },
        signal,
      ),
    reloadKey: JSON.stringify(live.snapshot.unreadByType),
    validateFilters: (d) => isDateRangeValid({ start: d.from, end: d.to }),
  });

  const statusTabs: StatusTab[] = READ_TABS.map((tab) => ({ value: tab.value, label: t(tab.label) }));

  const columns: ListColumn<NotificationMessage>[] = [
    {
      key: 'type',
      header: t('historicalMessages.columns.type'),
      cell: (m) => (
        <>
          {/* A dot is no element a name may go on (aria-prohibited-attr): the word is for screen readers. */}
          {!m.readStatus && (
            <>
              <Label circular color="red" empty size="mini" aria-hidden="true" />
              <span className="visually-hidden">{t('historicalMessages.unread')}</span>
            </>
          )}{' '}
          {typeName(m.messageType)}
        </>
      ),
    },
    {
      key: 'about',
      header: t('historicalMessages.columns.about'),
      cell: (m) => [m.personTrigger?.name, m.name, unitDisplay(m), m.position].filter(Boolean).join(' · '),
    },
    { key: 'time', header: t('historicalMessages.columns.time'), cell: (m) => formatTime(m.messageTime) },
    {
      key: 'actions',
      header: t('historicalMessages.columns.actions'),
      cell: (m) => (
        <Button
          size="mini"
          basic
          primary
          onClick={() => void open(m, { onRead: list.reload })}
          aria-label={`${t('messages.actions.view')} ${typeName(m.messageType)}`}
          data-testid="message-view"
        >
          {t('messages.actions.view')}
        </Button>
      ),
    },
  ];

  const filters = (
    <>
      <SelectField
        label={t('historicalMessages.filters.type')}
        value={list.draft.type}
        onChange={(type) => list.setDraft({ type })}
        options={TYPES.map((v) => ({ value: v, text: typeName(v) }))}
        emptyText={t('historicalMessages.all')}
        data-testid="type-filter"
      />
      <DateRangePicker
        value={{ start: list.draft.from, end: list.draft.to }}
        onChange={(r) => list.setDraft({ from: r.start, to: r.end })}
      />
    </>
  );

  return (
    <ListScreen
      list={list}
      data-testid="historical-messages"
      statusTabs={statusTabs}
      filters={filters}
      columns={columns}
      rowKey={(m) => m.messageId}
      rowTestId={(m) => `message-row-${m.messageId}`}
      tableTestId="message-table"
      emptyText={t('historicalMessages.empty')}
    />
  );
}

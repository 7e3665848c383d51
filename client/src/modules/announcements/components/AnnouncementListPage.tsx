import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Form, Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { AnnouncementType } from '@pm/shared';
import { fetchAnnouncements, type AnnouncementListRow } from '../../api';
import { ListScreen, type ListColumn, type StatusTab } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { SelectField } from '../../ui/components/SelectField';
import { enumLabel, enumOptions } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { revokeWithConfirm } from '../utils/revokeWithConfirm';
import { AnnouncementDetailDialog } from './AnnouncementDetailDialog';
import '../announcements.css';

/** The filters and their URL names: `?q=water&type=3`. */
const FILTERS = { q: '', type: '' };

/** Status tabs: all, in force, revoked. */
const STATUS = { all: 0, active: 1, revoked: 2 } as const;

/**
 * Announcement management (SPEC §2): the list with type and keyword filters and status tabs,
 * the detail dialog (content, read results, read and unread lists), revoke with confirmation.
 * Reloads live when an announcement is published, revoked, read or voted on.
 */
export default function AnnouncementListPage() {
  const { t } = useTranslation();
  const [changes, setChanges] = useState(0);
  useLiveEvent((e) => {
    // Comments change no row of the list.
    if (e.topic === 'announcements' && e.action !== 'commented' && e.action !== 'commentHidden')
      setChanges((n) => n + 1);
  });
  const list = useListController<AnnouncementListRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ status, page, limit, filters: f }, signal) =>
      fetchAnnouncements(
        page,
        limit,
        {
          keyword: f.q || undefined,
          type: Number(f.type) || undefined,
          revoked: status === STATUS.active ? 0 : status === STATUS.revoked ? 1 : undefined,
        },
        signal,
      ),
    reloadKey: changes,
  });

  const statusTabs: StatusTab[] = [
    { value: STATUS.all, label: t('announcements.all') },
    { value: STATUS.active, label: t('announcements.active') },
    { value: STATUS.revoked, label: t('announcements.revoked') },
  ];

  const columns: ListColumn<AnnouncementListRow>[] = [
    { key: 'title', header: t('announcements.fields.title'), cell: (r) => r.title },
    { key: 'type', header: t('announcements.fields.type'), cell: (r) => enumLabel(t, AnnouncementType, r.type) },
    { key: 'publisher', header: t('announcements.fields.publisher'), cell: (r) => r.publisherName },
    { key: 'publishTime', header: t('announcements.fields.publishTime'), cell: (r) => formatTime(r.publishTime) },
    {
      key: 'read',
      header: t('announcements.fields.readCount'),
      cell: (r) => `${r.readCount} / ${r.recipientCount}`,
    },
    {
      key: 'status',
      header: t('announcements.fields.status'),
      cell: (r) =>
        r.revoked ? (
          <Label size="small" color="grey" data-testid="revoked-label">
            {t('announcements.revoked')}
          </Label>
        ) : r.scheduled ? (
          <Label size="small" color="blue">
            {t('announcements.scheduled')}
          </Label>
        ) : (
          <Label size="small" color="green">
            {t('announcements.active')}
          </Label>
        ),
    },
    {
      key: 'actions',
      header: t('announcements.actions'),
      cell: (r) => (
        <>
          <Button
            as={Link}
            to={list.linkTo({ open: r.id, tab: null })}
            size="mini"
            basic
            primary
            aria-label={`${t('announcements.detail')} ${r.title}`}
            data-testid="open-detail"
          >
            {t('announcements.detail')}
          </Button>
          {!r.revoked && (
            <Button
              size="mini"
              basic
              color="red"
              aria-label={`${t('announcements.revoke')} ${r.title}`}
              data-testid="revoke"
              onClick={async () => {
                if (await revokeWithConfirm(t, r.id)) list.reload();
              }}
            >
              {t('announcements.revoke')}
            </Button>
          )}
        </>
      ),
    },
  ];

  const filters = (
    <>
      <Form.Input
        id="announcement-keyword"
        label={t('announcements.fields.title')}
        icon="search"
        iconPosition="left"
        value={list.draft.q}
        onChange={(_, d) => list.setDraft({ q: d.value })}
        data-testid="keyword"
      />
      <SelectField
        label={t('announcements.fields.type')}
        value={list.draft.type}
        onChange={(type) => list.setDraft({ type })}
        options={enumOptions(t, AnnouncementType)}
        emptyText={t('announcements.all')}
        data-testid="type-filter"
      />
    </>
  );

  return (
    <>
      <div className="announcement-toolbar">
        <Button
          as={Link}
          to="/announcement-management/add-announcement"
          primary
          icon="plus"
          content={t('announcements.add')}
          data-testid="add-announcement"
        />
      </div>
      <ListScreen
        list={list}
        data-testid="announcement-list"
        statusTabs={statusTabs}
        filters={filters}
        columns={columns}
        rowKey={(r) => r.id}
        rowTestId={(r) => `announcement-row-${r.id}`}
        tableTestId="announcement-table"
        emptyText={t('announcements.empty')}
      >
        <AnnouncementDetailDialog
          id={list.open}
          tab={list.tab}
          tabLink={(tab) => list.linkTo({ tab })}
          onClose={list.closeRecord}
          onChanged={list.reload}
        />
      </ListScreen>
    </>
  );
}

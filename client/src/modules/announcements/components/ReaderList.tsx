import { useEffect, useState } from 'react';
import { Segment, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { ReadResult } from '@pm/shared';
import { fetchReaders, type AnnouncementDetail, type AnnouncementReader } from '../../api';
import { ListPagination } from '../../ui/components/ListPagination';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';

interface Props {
  detail: AnnouncementDetail;
  /** 1 the read list, 0 the unread list. */
  read: 0 | 1;
  reloadKey: number;
}

/** The read or unread list: each recipient with their read result (SPEC §4) and chosen options. */
export function ReaderList({ detail, read, reloadKey }: Props) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ page: 1, limit: 10 });
  const [data, setData] = useState<{ list: AnnouncementReader[]; total: number } | null>(null);
  useEffect(() => setPage((p) => ({ ...p, page: 1 })), [read]);
  useEffect(() => {
    const abort = new AbortController();
    fetchReaders(detail.id, read, page.page, page.limit, abort.signal).then(setData, () => undefined);
    return () => abort.abort();
  }, [detail.id, read, page, reloadKey]);
  const optionName = new Map(detail.options.map((o) => [o.id, o.content]));
  if (!data) return <Segment loading basic style={{ minHeight: 80 }} />;
  return (
    <div data-testid={read ? 'read-list' : 'unread-list'}>
      <Table compact unstackable>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t('announcements.fields.name')}</Table.HeaderCell>
            <Table.HeaderCell>{t('announcements.fields.readResult')}</Table.HeaderCell>
            <Table.HeaderCell>{t('announcements.fields.readTime')}</Table.HeaderCell>
            {detail.options.length > 0 && <Table.HeaderCell>{t('announcements.fields.choice')}</Table.HeaderCell>}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {data.list.map((r) => (
            <Table.Row key={r.personId} data-testid="reader-row">
              <Table.Cell>{r.name}</Table.Cell>
              <Table.Cell>{enumLabel(t, ReadResult, r.readResult)}</Table.Cell>
              <Table.Cell>{r.readTime ? formatTime(r.readTime) : ''}</Table.Cell>
              {detail.options.length > 0 && (
                <Table.Cell>{r.optionIds.map((id) => optionName.get(id) ?? id).join(', ')}</Table.Cell>
              )}
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      <ListPagination
        total={data.total}
        page={page.page}
        limit={page.limit}
        onChange={(p, limit) => setPage({ page: p, limit })}
        label={t('common.paginationOf', { name: t(read ? 'announcements.tabs.read' : 'announcements.tabs.unread') })}
      />
    </div>
  );
}

import { Link } from 'react-router-dom';
import { Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { AUDIT_KINDS } from '@pm/shared';
import { fetchAuditEvents, type AuditRow } from '../../api';
import { ListScreen, type ListColumn } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { DateRangePicker } from '../../ui/components/DateRangePicker';
import { SelectField } from '../../ui/components/SelectField';
import { isDateRangeValid } from '../../ui/utils/dateRange';
import { formatTime } from '../../ui/utils/formatTime';
import { AuditDiffDialog } from './AuditDiffDialog';

const FILTERS = { who: '', what: '', from: '', to: '' };

/**
 * The audit trail (issue 30): who changed what in enterprise management and when, newest first,
 * filtered by who, what and days of the estate; a row's "Changes" link opens its before and after.
 */
export function AuditTab() {
  const { t } = useTranslation();
  const list = useListController<AuditRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ page, limit, filters }, signal) =>
      fetchAuditEvents(
        {
          page,
          limit,
          actor: filters.who || undefined,
          kind: (AUDIT_KINDS as readonly string[]).includes(filters.what)
            ? (filters.what as (typeof AUDIT_KINDS)[number])
            : undefined,
          startTime: filters.from || undefined,
          endTime: filters.to || undefined,
        },
        signal,
      ),
    validateFilters: (d) => isDateRangeValid({ start: d.from, end: d.to }),
  });
  const open = list.open === null ? null : (list.data?.list.find((r) => r.auditId === list.open) ?? null);

  const columns: ListColumn<AuditRow>[] = [
    { key: 'time', header: t('enterprise.audit.fields.time'), cell: (r) => formatTime(r.time) },
    { key: 'who', header: t('enterprise.audit.fields.who'), cell: (r) => r.actorName || `#${r.actorAccountId}` },
    { key: 'what', header: t('enterprise.audit.fields.what'), cell: (r) => t(`enterprise.audit.kinds.${r.kind}`) },
    {
      key: 'entity',
      header: t('enterprise.audit.fields.entity'),
      cell: (r) => r.summary ?? (r.entityId === null ? '–' : `#${r.entityId}`),
    },
    {
      key: 'action',
      header: t('enterprise.audit.fields.action'),
      cell: (r) => t(`enterprise.audit.actions.${r.action}`),
    },
    {
      key: 'changes',
      header: t('enterprise.audit.fields.changes'),
      cell: (r) => (
        <Link
          to={list.linkTo({ open: r.auditId })}
          aria-label={t('enterprise.audit.openChanges', {
            what: t(`enterprise.audit.kinds.${r.kind}`),
            time: formatTime(r.time),
          })}
          data-testid={`audit-open-${r.auditId}`}
        >
          {t('enterprise.audit.changes')}
        </Link>
      ),
    },
  ];

  return (
    <div data-testid="audit-tab">
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => r.auditId}
        filters={
          <>
            <Form.Input
              id="audit-who"
              label={t('enterprise.audit.fields.who')}
              value={list.draft.who}
              onChange={(_, v) => list.setDraft({ who: v.value })}
              data-testid="audit-who"
            />
            <SelectField
              label={t('enterprise.audit.fields.what')}
              value={list.draft.what}
              onChange={(what) => list.setDraft({ what })}
              options={AUDIT_KINDS.map((k) => ({ value: k, text: t(`enterprise.audit.kinds.${k}`) }))}
              emptyText={t('enterprise.audit.allKinds')}
              data-testid="audit-what"
            />
            <DateRangePicker
              value={{ start: list.draft.from, end: list.draft.to }}
              onChange={(r) => list.setDraft({ from: r.start, to: r.end })}
            />
          </>
        }
        tableTestId="audit-table"
        rowTestId={(r) => `audit-row-${r.auditId}`}
      >
        {open && <AuditDiffDialog row={open} onClose={list.closeRecord} />}
      </ListScreen>
    </div>
  );
}

import { Label, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { AuditRow, AuditValue } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { formatTime } from '../../ui/utils/formatTime';

/** Field names the trail keeps (audit-snapshots.ts in the api) that have a label of their own. */
const LABELLED = new Set([
  'username',
  'name',
  'email',
  'enabled',
  'roleId',
  'roleName',
  'passwordChanged',
  'roleValue',
  'remark',
  'menus',
  'holders',
  'staffNumber',
  'gender',
  'tel',
  'position',
  'yearOfBirth',
  'departmentId',
  'departmentName',
  'parentId',
  'parentName',
  'principalPersonId',
  'principalName',
  'sort',
  'companyId',
  'companyType',
  'contactPerson',
  'contactTel',
  'address',
  'logo',
  'hotlines',
  'total',
  'created',
  'updated',
  'createdNumbers',
  'updatedNumbers',
]);

const same = (a: AuditValue | undefined, b: AuditValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** One event's values before and after, field by field; the fields that changed are marked in words. */
export function AuditDiffDialog({ row, onClose }: { row: AuditRow; onClose: () => void }) {
  const { t } = useTranslation();
  const before = row.before ?? {};
  const after = row.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = fields.filter((f) => !same(before[f], after[f]));
  const ordered = [...changed, ...fields.filter((f) => !changed.includes(f))];
  const show = (v: AuditValue | undefined, side: 'before' | 'after') => {
    if ((side === 'before' ? row.before : row.after) === null) return '–';
    if (v === undefined || v === null || v === '') return '–';
    if (typeof v === 'boolean') return t(v ? 'common.yes' : 'common.no');
    if (Array.isArray(v)) return v.length ? v.join(', ') : '–';
    return String(v);
  };
  const label = (f: string) => (LABELLED.has(f) ? t(`enterprise.audit.fieldNames.${f}`) : f);
  return (
    <DraggableDialog
      open
      onClose={onClose}
      title={t('enterprise.audit.dialogTitle', {
        what: t(`enterprise.audit.kinds.${row.kind}`),
        action: t(`enterprise.audit.actions.${row.action}`),
      })}
      data-testid="audit-diff"
    >
      <p>
        {formatTime(row.time)} · {row.actorName || `#${row.actorAccountId}`}
        {row.summary ? ` · ${row.summary}` : ''}
      </p>
      <p data-testid="audit-changed-count">{t('enterprise.audit.changedCount', { count: changed.length })}</p>
      <div className="enterprise-audit-diff">
        <Table compact unstackable celled>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell scope="col">{t('enterprise.audit.field')}</Table.HeaderCell>
              <Table.HeaderCell scope="col">{t('enterprise.audit.before')}</Table.HeaderCell>
              <Table.HeaderCell scope="col">{t('enterprise.audit.after')}</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {ordered.map((f) => {
              const isChanged = changed.includes(f);
              return (
                <Table.Row key={f} data-testid={`audit-field-${f}`} data-changed={isChanged ? 'yes' : 'no'}>
                  <Table.Cell>
                    {isChanged ? <strong>{label(f)}</strong> : label(f)}
                    {isChanged && (
                      <Label size="mini" color="orange" className="enterprise-audit-changed">
                        {t('enterprise.audit.changed')}
                      </Label>
                    )}
                  </Table.Cell>
                  <Table.Cell data-testid="before">{show(before[f], 'before')}</Table.Cell>
                  <Table.Cell data-testid="after">
                    {isChanged ? <strong>{show(after[f], 'after')}</strong> : show(after[f], 'after')}
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table>
      </div>
    </DraggableDialog>
  );
}

import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LinkTabs } from '../../ui/components/LinkTabs';
import { AccountTab } from './AccountTab';
import { AuditTab } from './AuditTab';
import { CompanyTab } from './CompanyTab';
import { DepartmentTab } from './DepartmentTab';
import { RoleTab } from './RoleTab';
import { StaffTab } from './StaffTab';
import '../enterprise.css';

const VIEWS = ['staff', 'departments', 'accounts', 'roles', 'company', 'audit'] as const;
type View = (typeof VIEWS)[number];

/**
 * /enterprise-management/index (SPEC §2, role ADMIN, issue 30): the tabs are links
 * (`?view=departments`), so a reload or a pasted link shows the same tab.
 */
export default function EnterpriseManagementPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const asked = new URLSearchParams(search).get('view');
  const view: View = (VIEWS as readonly string[]).includes(asked ?? '') ? (asked as View) : 'staff';
  return (
    <div className="enterprise" data-testid="enterprise">
      <LinkTabs
        label={t('enterprise.tabsLabel')}
        items={VIEWS.map((v) => ({
          key: v,
          to: { search: v === 'staff' ? '' : `?view=${v}` },
          content: t(`enterprise.tabs.${v}`),
          active: v === view,
          testId: `enterprise-tab-${v}`,
        }))}
      />
      {view === 'staff' && <StaffTab />}
      {view === 'departments' && <DepartmentTab />}
      {view === 'accounts' && <AccountTab />}
      {view === 'roles' && <RoleTab />}
      {view === 'company' && <CompanyTab />}
      {view === 'audit' && <AuditTab />}
    </div>
  );
}

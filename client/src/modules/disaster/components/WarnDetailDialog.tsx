import { useEffect, useRef, useState } from 'react';
import { Button, Label, Statistic } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DisasterReply, DisasterType, enumValues } from '@pm/shared';
import { fetchWarning, revokeWarning, type WarnDetail, type WarnPeopleList } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { LinkTabs } from '../../ui/components/LinkTabs';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { WarnPeople } from './WarnPeople';

const TABS: WarnPeopleList[] = ['unread', 'read', 'help', 'safe'];

interface Props {
  id: number | null;
  tab: string | null;
  tabLink: (tab: WarnPeopleList | null) => string;
  onClose: () => void;
  /** Bumped on every live warning event: the counts are read again. */
  changes: number;
  onChanged: () => void;
}

/**
 * One warning followed live (SPEC §2 alert-detail): replies by kind with their counts, the read
 * and unread lists, the help list (handled with a note) and the safe list; revoke with confirmation.
 */
export function WarnDetailDialog({ id, tab, tabLink, onClose, changes, onChanged }: Props) {
  const { t } = useTranslation();
  const [detail, setDetail] = useState<WarnDetail | null>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    if (id === null) return setDetail(null);
    const abort = new AbortController();
    fetchWarning(id, abort.signal).then(setDetail, () => !abort.signal.aborted && closeRef.current());
    return () => abort.abort();
  }, [id, changes]);

  const active: WarnPeopleList = TABS.includes(tab as WarnPeopleList) ? (tab as WarnPeopleList) : 'unread';
  const shown = detail && detail.id === id ? detail : null;
  const revoke = async () => {
    if (!shown || !(await confirm(t('disaster.warn.revokeConfirm')))) return;
    try {
      setDetail(await revokeWarning(shown.id));
      showToast('success', t('disaster.messages.revoked'));
      onChanged();
    } catch {
      // The error toast says why.
    }
  };
  const tabCount: Record<WarnPeopleList, number> = shown
    ? {
        unread: shown.recipients - shown.read,
        read: shown.read,
        help: shown.askHelp,
        safe: shown.replies[DisasterReply.safe] ?? 0,
      }
    : { unread: 0, read: 0, help: 0, safe: 0 };
  return (
    <DraggableDialog
      open={id !== null}
      title={t('disaster.warn.detailTitle')}
      onClose={onClose}
      size="large"
      data-testid="warn-detail"
      actions={
        shown &&
        !shown.revoked && (
          <Button color="red" basic onClick={() => void revoke()} data-testid="revoke-warning">
            {t('disaster.warn.revoke')}
          </Button>
        )
      }
    >
      {shown && (
        <>
          <p className="warn-meta">
            <Label color="orange">{enumLabel(t, DisasterType, shown.type)}</Label> {formatTime(shown.publishTime)} ·{' '}
            {shown.publisherName}
            {shown.revoked && <Label className="warn-revoked">{t('disaster.warn.revoked')}</Label>}
          </p>
          <p className="warn-text" data-testid="warn-content">
            {shown.content}
          </p>
          <Statistic.Group size="mini" widths={4} className="warn-replies" data-testid="reply-counts">
            {enumValues(DisasterReply).map((v) => (
              <Statistic
                key={v}
                data-testid={`reply-count-${v}`}
                color={v === DisasterReply.askForHelp ? 'red' : undefined}
              >
                <Statistic.Value>{shown.replies[v] ?? 0}</Statistic.Value>
                <Statistic.Label>{enumLabel(t, DisasterReply, v)}</Statistic.Label>
              </Statistic>
            ))}
          </Statistic.Group>
          <LinkTabs
            replace
            label={t('disaster.warn.detailTitle')}
            items={TABS.map((name) => ({
              key: name,
              to: tabLink(name === 'unread' ? null : name),
              content: t(`disaster.tabs.${name}`, { count: tabCount[name] }),
              active: active === name,
              testId: `warn-tab-${name}`,
            }))}
          />
          <WarnPeople warnId={shown.id} list={active} changes={changes} />
        </>
      )}
    </DraggableDialog>
  );
}

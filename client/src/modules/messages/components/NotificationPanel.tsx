import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Item, Loader } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { ALARM_TYPES, messageViewLink, messageViewTarget } from '@pm/shared';
import { fetchUnreadMessages, markMessageRead, type NotificationMessage } from '../../api';
import { hasPermission } from '../../auth/hooks/usePermission';
import { countMessageRead } from '../../live/states/liveState';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { RelativeTime } from '../../ui/components/RelativeTime';
import { showToast } from '../../ui/states/toasts';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { SCREENS } from '../../layout/utils/screenRegistry';
import { viewSosCall } from '../../disaster/utils/viewSosCall';

interface Props {
  /** MESSAGE_PANEL_TYPES or ALARM_TYPES. */
  types: number[];
  onNavigate?: () => void;
}

function describe(m: NotificationMessage): string {
  return [m.personTrigger?.name, m.name, unitDisplay(m), m.position].filter(Boolean).join(' · ');
}

/** The message or alarm panel (SPEC §9): unread rows, View marks read and opens the record. */
export function NotificationPanel({ types, onNavigate }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [rows, setRows] = useState<NotificationMessage[] | null>(null);
  const key = types.join(',');

  useEffect(() => {
    const abort = new AbortController();
    fetchUnreadMessages(key.split(',').map(Number), abort.signal)
      .then((page) => setRows(page.list))
      .catch(() => !abort.signal.aborted && setRows([]));
    return () => abort.abort();
  }, [key]);

  const view = async (m: NotificationMessage) => {
    // An alarm opens the alarm dialog and stays unread while nobody acknowledged the call (issue
    // 21: View never consumes an alarm unseen); one acknowledged or closed is read once shown.
    if ((ALARM_TYPES as number[]).includes(m.messageType) && m.dataId) {
      onNavigate?.();
      const state = await viewSosCall(m.dataId);
      if (state === 'acknowledged' || state === 'closed') {
        await markMessageRead(m.messageId).then(
          () => countMessageRead(m.messageType),
          () => undefined,
        );
      }
      return;
    }
    const target = messageViewTarget(m.messageType);
    const allowed = !!target && hasPermission(target.perm);
    // Until its screen is built, View opens the placeholder and leaves the message unread: it
    // must still be there to act on once the screen exists.
    if (target && allowed && !(target.path in SCREENS)) {
      onNavigate?.();
      navigate(`/redirect${target.path}`);
      return;
    }
    try {
      // Read either way: SPEC §6 marks it read even when the details are not allowed.
      await markMessageRead(m.messageId);
    } catch {
      return;
    }
    setRows((r) => (r ?? []).filter((x) => x.messageId !== m.messageId));
    countMessageRead(m.messageType);
    if (!allowed || !target) {
      showToast('error', t('errors.noDetailPermission'));
      return;
    }
    onNavigate?.();
    navigate(`/redirect${messageViewLink(target, m.dataId)}`);
  };

  if (rows === null) return <Loader active inline="centered" size="small" />;
  if (rows.length === 0) return <EmptyPlaceholder text={t('messages.empty')} />;
  return (
    <Item.Group divided className="notification-panel" data-testid="notification-panel">
      {rows.map((m) => (
        <Item key={m.messageId} data-testid="notification-row" data-message-type={m.messageType}>
          <Item.Content>
            <Item.Header as="div" className="notification-title">
              {t(`messages.types.t${m.messageType}`, { defaultValue: t('messages.types.other') })}
            </Item.Header>
            <Item.Meta>
              <RelativeTime value={m.messageTime} />
            </Item.Meta>
            {describe(m) && <Item.Description>{describe(m)}</Item.Description>}
            <Item.Extra>
              <Button
                size="mini"
                basic
                color="teal"
                floated="right"
                onClick={() => void view(m)}
                data-testid="notification-view"
              >
                {t('messages.actions.view')}
              </Button>
            </Item.Extra>
          </Item.Content>
        </Item>
      ))}
    </Item.Group>
  );
}

import { useEffect, useState } from 'react';
import { Button, Item, Loader } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchUnreadMessages, type NotificationMessage } from '../../api';
import { useOpenMessage } from '../hooks/useOpenMessage';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { RelativeTime } from '../../ui/components/RelativeTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';

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
  const open = useOpenMessage();
  const [rows, setRows] = useState<NotificationMessage[] | null>(null);
  const key = types.join(',');

  useEffect(() => {
    const abort = new AbortController();
    fetchUnreadMessages(key.split(',').map(Number), abort.signal)
      .then((page) => setRows(page.list))
      .catch(() => !abort.signal.aborted && setRows([]));
    return () => abort.abort();
  }, [key]);

  const view = (m: NotificationMessage) =>
    open(m, { onNavigate, onRead: () => setRows((r) => (r ?? []).filter((x) => x.messageId !== m.messageId)) });

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

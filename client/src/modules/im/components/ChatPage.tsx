import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Button, Icon, Input, Loader } from 'semantic-ui-react';
import { fetchConversations, type ChatGroupRow } from '../../api';
import { session } from '../../auth/states/session';
import { layoutSettings } from '../../layout/states/layoutSettings';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { liveState } from '../../live/states/liveState';
import { holdToasts } from '../../messages/utils/notifyLiveEvent';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { useSessionPerms } from '../hooks/useSessionPerms';
import { ConversationList } from './ConversationList';
import { ConversationView } from './ConversationView';
import { GroupCreateDialog } from './GroupCreateDialog';
import '../im.css';

/**
 * SPEC §2 /instant-messaging/chat: the conversation list (search by name, Pinyin with the
 * settings drawer's switch) and the open conversation (`?open=<groupId>`). The list is read again
 * on every chat event and reconnect (SPEC §7 "on the chat page the chat list is refreshed"); chat
 * notifications are held back here, the list shows them. On a phone the list and the conversation
 * take turns.
 */
export default function ChatPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const openId = Number(params.get('open')) || null;
  const me = useSnapshot(session).pId ?? 0;
  const { narrow, pinyinSearch } = useSnapshot(layoutSettings);
  const { snapshots } = useSnapshot(liveState);
  const perms = useSessionPerms();
  const [key, setKey] = useState('');
  const [rows, setRows] = useState<ChatGroupRow[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [creating, setCreating] = useState(false);
  const [version, setVersion] = useState(0);
  const refreshTimer = useRef<ReturnType<typeof setTimeout>>();

  useEffect(() => holdToasts((e) => e.topic === 'chat'), []);
  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(
      () =>
        fetchConversations(key.trim(), pinyinSearch, abort.signal).then(
          (page) => {
            setRows(page.list);
            setFailed(false);
          },
          () => !abort.signal.aborted && setFailed(true),
        ),
      key ? 300 : 0,
    );
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [key, pinyinSearch, version, snapshots]);
  const refresh = useCallback(() => {
    clearTimeout(refreshTimer.current);
    refreshTimer.current = setTimeout(() => setVersion((v) => v + 1), 150);
  }, []);
  useLiveEvent((e) => {
    if (e.topic === 'chat') refresh();
  });

  const linkTo = (groupId: number) => `/instant-messaging/chat?open=${groupId}`;
  const listed = rows?.find((g) => g.groupId === openId) ?? null;
  // A conversation that leaves the list while open (dissolved, removed) stays shown, read-only.
  const kept = useRef<ChatGroupRow | null>(null);
  if (listed) kept.current = listed;
  const row = listed ?? (kept.current?.groupId === openId ? kept.current : null);
  // A conversation just created or opened from elsewhere: read the list again until it is there.
  useEffect(() => {
    if (openId && rows && !row && !key) refresh();
  }, [openId, rows, row, key, refresh]);
  const close = () => navigate('/instant-messaging/chat');
  const canMakeWork = perms.has('complain:list') || perms.has('eventorder:list');

  return (
    <div className={`chat-page${openId ? ' has-open' : ''}`} data-testid="chat-page">
      <aside className="chat-sidebar" aria-label={t('im.conversations')}>
        <div className="chat-sidebar-tools">
          <Input
            icon="search"
            size="small"
            value={key}
            onChange={(_, d) => setKey(String(d.value))}
            placeholder={t(pinyinSearch ? 'im.searchPinyin' : 'im.search')}
            aria-label={t('im.search')}
            data-testid="chat-search"
          />
          <Button
            icon
            basic
            size="small"
            onClick={() => setCreating(true)}
            aria-label={t('im.createGroup')}
            title={t('im.createGroup')}
            data-testid="chat-create-group"
          >
            <Icon name="add user" />
          </Button>
        </div>
        {rows === null ? (
          failed ? (
            <div className="chat-empty" role="alert">
              {t('im.loadFailed')}
            </div>
          ) : (
            <Loader active inline="centered" />
          )
        ) : rows.length === 0 ? (
          <EmptyPlaceholder text={key ? t('im.noMatch') : t('im.noConversations')} />
        ) : (
          <ConversationList rows={rows} openId={openId} me={me} linkTo={linkTo} />
        )}
      </aside>
      <div className="chat-main">
        {row ? (
          <ConversationView
            key={row.groupId}
            row={row}
            me={me}
            canMakeWork={canMakeWork}
            narrow={narrow}
            onBack={close}
            onLeft={close}
          />
        ) : (
          <EmptyPlaceholder text={t('im.chooseConversation')} />
        )}
      </div>
      {creating && (
        <GroupCreateDialog
          open
          me={me}
          onClose={() => setCreating(false)}
          onCreated={(groupId) => {
            setCreating(false);
            navigate(linkTo(groupId));
          }}
        />
      )}
    </div>
  );
}

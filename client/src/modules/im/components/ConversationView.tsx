import { useCallback, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Icon, Loader } from 'semantic-ui-react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { ChatGroupRow, ChatRecord } from '../../api';
import { useConversation, type PendingMessage } from '../hooks/useConversation';
import { AT_BOTTOM_PX, useFollowBottom } from '../hooks/useFollowBottom';
import { ChatAvatar } from './ChatAvatar';
import { Composer, outgoingOf } from './Composer';
import { MessageRow } from './MessageRow';
import { MessageToWorkDialog } from './MessageToWorkDialog';
import { PictureDialog } from './PictureDialog';
import { ResidentPanel } from './ResidentPanel';
import { GroupSettingsDialog } from './GroupSettingsDialog';

/** Index of the first item: far above 0, so older pages can be put in front (react-virtuoso's firstItemIndex). */
const START = 1_000_000_000;

type Item = { key: string; record?: ChatRecord; pending?: PendingMessage };
const itemKey = (_: number, item: Item) => item.key;
const VIEWPORT_MARGIN = { top: 400, bottom: 200 };

interface Props {
  row: ChatGroupRow;
  me: number;
  canMakeWork: boolean;
  narrow: boolean;
  onBack: () => void;
  onLeft: () => void;
}

/**
 * An open conversation: its history in a virtualized list (react-virtuoso; older pages load on
 * scrolling up and the position stays), new messages scroll it down only when the person was at
 * the bottom, otherwise a "new messages" marker jumps there; the editor; drop files anywhere on it.
 * Beside a private chat with a resident: their houses and open complaints and work orders.
 */
export function ConversationView({ row, me, canMakeWork, narrow, onBack, onLeft }: Props) {
  const { t } = useTranslation();
  const list = useRef<VirtuosoHandle>(null);
  const scrollToLast = useCallback(() => list.current?.scrollToIndex({ index: 'LAST', align: 'end' }), []);
  const follow = useFollowBottom(scrollToLast);
  const { state, loadOlder, send, resend, discard, clearUnseen } = useConversation(row.groupId, me, {
    atBottom: follow.isFollowing,
    // After the list has rendered the new item, and again once pictures above it may have grown.
    onOwnRecord: () => {
      for (const ms of [0, 400]) setTimeout(scrollToLast, ms);
    },
  });
  const [prepended, setPrepended] = useState(0);
  const [picture, setPicture] = useState<string | null>(null);
  const [workFrom, setWorkFrom] = useState<ChatRecord | null>(null);
  const [settings, setSettings] = useState(false);
  const [panel, setPanel] = useState(!narrow);
  const [dragging, setDragging] = useState(false);
  // The resident panel waits until the history has been drawn: its request, rendering and layout
  // then do not delay the newest message on opening (the first frames are the history's alone).
  const [historyShown, setHistoryShown] = useState(false);
  const shownOnce = useRef(false);
  const onItemsRendered = useCallback((rendered: unknown[]) => {
    if (shownOnce.current || rendered.length === 0) return;
    shownOnce.current = true;
    requestAnimationFrame(() => setTimeout(() => setHistoryShown(true), 0));
  }, []);

  const items: Item[] = useMemo(
    () => [
      ...state.records.map((r) => ({ key: `r${r.seq}`, record: r })),
      ...state.pending.map((p) => ({ key: `p${p.clientId}`, pending: p })),
    ],
    [state.records, state.pending],
  );
  const startReached = useCallback(async () => {
    const added = await loadOlder();
    if (added > 0) setPrepended((n) => n + added);
  }, [loadOlder]);
  const toBottom = () => {
    list.current?.scrollToIndex({ index: items.length - 1, align: 'end', behavior: 'auto' });
    clearUnseen();
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (state.closed) return;
    for (const o of outgoingOf([...e.dataTransfer.files])) send(o);
  };
  const residentId = row.other?.resident ? row.other.personId : null;
  const closed = state.closed !== null;
  // The list's props keep their identity from render to render: react-virtuoso then re-renders
  // only the rows whose item changed (MessageRow is memoised), and its header is not a new
  // component type (remounted, measured again) on every state change.
  const showSender = row.groupType === 2;
  const onMakeWork = canMakeWork && !closed ? setWorkFrom : undefined;
  const itemContent = useCallback(
    (_: number, item: Item) => (
      <MessageRow
        record={item.record}
        pending={item.pending}
        me={me}
        showSender={showSender}
        onOpenPicture={setPicture}
        onResend={resend}
        onDiscard={discard}
        onMakeWork={onMakeWork}
      />
    ),
    [me, showSender, resend, discard, onMakeWork],
  );
  const hasOlder = state.hasOlder;
  const components = useMemo(
    () => ({
      Header: () =>
        hasOlder ? (
          <div className="chat-older">{t('im.loadingOlder')}</div>
        ) : (
          <div className="chat-start">{t('im.start')}</div>
        ),
    }),
    [hasOlder, t],
  );
  const onStartReached = useCallback(() => void startReached(), [startReached]);
  const followAtBottom = follow.onAtBottom;
  const onAtBottom = useCallback(
    (bottom: boolean) => {
      followAtBottom(bottom);
      if (bottom) clearUnseen();
    },
    [followAtBottom, clearUnseen],
  );

  return (
    <section className="chat-conversation" aria-label={row.groupName} data-testid="chat-conversation">
      <header className="chat-header">
        {narrow && (
          <Button icon basic size="small" onClick={onBack} aria-label={t('im.actions.back')} data-testid="chat-back">
            <Icon name="arrow left" />
          </Button>
        )}
        <ChatAvatar
          url={row.groupType === 1 ? row.members.find((m) => m.personId !== me)?.images[0]?.url : null}
          group={row.groupType === 2}
        />
        <div className="chat-header-title">
          <h2 data-testid="chat-title">{row.groupName}</h2>
          <span className="chat-header-sub">
            {row.groupType === 2
              ? t('im.memberCount', { count: row.memberCount })
              : row.other?.resident
                ? t('im.resident')
                : t('im.staff')}
          </span>
        </div>
        {residentId && (
          <Button
            basic
            size="small"
            onClick={() => setPanel((v) => !v)}
            aria-pressed={panel}
            data-testid="chat-resident-toggle"
          >
            <Icon name="home" />
            {t('im.residentInfo')}
          </Button>
        )}
        {row.groupType === 2 && !closed && (
          <Button basic size="small" onClick={() => setSettings(true)} data-testid="chat-group-settings">
            <Icon name="setting" />
            {t('im.groupSettings')}
          </Button>
        )}
      </header>
      <div className="chat-body">
        <div
          className={`chat-history${dragging ? ' dragging' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="chat-history"
        >
          {state.loading ? (
            <Loader active inline="centered" />
          ) : state.failed ? (
            <div className="chat-empty" role="alert">
              {t('im.loadFailed')}
            </div>
          ) : (
            <Virtuoso
              ref={list}
              className="chat-virtuoso"
              // Reachable with the keyboard: arrow keys and Page Up scroll the history (and load older pages).
              tabIndex={0}
              role="log"
              aria-label={t('im.history', { name: row.groupName })}
              data={items}
              firstItemIndex={START - prepended}
              initialTopMostItemIndex={Math.max(0, items.length - 1)}
              computeItemKey={itemKey}
              startReached={onStartReached}
              scrollerRef={follow.scrollerRef}
              followOutput={follow.followOutput}
              atBottomStateChange={onAtBottom}
              atBottomThreshold={AT_BOTTOM_PX}
              increaseViewportBy={VIEWPORT_MARGIN}
              components={components}
              itemContent={itemContent}
              itemsRendered={onItemsRendered}
            />
          )}
          {state.unseen > 0 && (
            <Button
              className="chat-new-marker"
              color="teal"
              size="small"
              onClick={toBottom}
              data-testid="chat-new-marker"
            >
              <Icon name="arrow down" />
              {t('im.newMessages', { count: state.unseen })}
            </Button>
          )}
        </div>
        {/* After the history is drawn: its first page's request and rendering come first. */}
        {residentId && panel && (historyShown || (!state.loading && state.records.length === 0)) && (
          <ResidentPanel personId={residentId} />
        )}
      </div>
      {closed ? (
        <div className="chat-closed" role="status" data-testid="chat-closed">
          {t(state.closed === 'dissolved' ? 'im.closed.dissolved' : 'im.closed.removed')}
          <Button size="small" basic onClick={onLeft}>
            {t('im.actions.close')}
          </Button>
        </div>
      ) : (
        <Composer onSend={send} />
      )}
      <PictureDialog url={picture} onClose={() => setPicture(null)} />
      {workFrom && <MessageToWorkDialog record={workFrom} onClose={() => setWorkFrom(null)} />}
      {settings && (
        <GroupSettingsDialog groupId={row.groupId} me={me} onClose={() => setSettings(false)} onLeft={onLeft} />
      )}
    </section>
  );
}

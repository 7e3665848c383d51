import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Label } from 'semantic-ui-react';
import { BADGE_MAX } from '@pm/shared';
import type { ChatGroupRow } from '../../api';
import { RelativeTime } from '../../ui/components/RelativeTime';
import { startOpening } from '../hooks/useConversation';
import { previewText } from '../utils/chatContent';
import { ChatAvatar } from './ChatAvatar';

/** The conversation list: name and avatar, last message (text or placeholder), its time and the unread count. */
export function ConversationList({
  rows,
  openId,
  me,
  linkTo,
}: {
  rows: ChatGroupRow[];
  openId: number | null;
  me: number;
  linkTo: (groupId: number) => string;
}) {
  const { t } = useTranslation();
  return (
    <ul className="chat-list-rows" aria-label={t('im.conversations')} data-testid="chat-list">
      {rows.map((g) => {
        const other = g.groupType === 1 ? g.members.find((m) => m.personId !== me) : undefined;
        const last = g.lastRecord;
        return (
          <li key={g.groupId}>
            <Link
              to={linkTo(g.groupId)}
              // The first page is asked for at the click, while the route change renders.
              onClick={(e) => {
                if (g.groupId !== openId && !e.defaultPrevented && !e.metaKey && !e.ctrlKey && !e.shiftKey)
                  startOpening(g.groupId);
              }}
              className={`chat-list-row${g.groupId === openId ? ' active' : ''}`}
              aria-current={g.groupId === openId ? 'page' : undefined}
              data-testid="chat-list-row"
              data-group={g.groupId}
            >
              <ChatAvatar url={other?.images[0]?.url} group={g.groupType === 2} />
              <span className="chat-list-text">
                <span className="chat-list-name">
                  {g.groupName}
                  {g.isWorkGroup && <span className="chat-list-tag">{t('im.workGroup')}</span>}
                </span>
                <span className="chat-list-preview">
                  {last && g.groupType === 2 && last.type !== 10
                    ? `${last.fromPersonId === me ? t('im.system.you') : last.fromName}: `
                    : ''}
                  {previewText(t, last, me)}
                </span>
              </span>
              <span className="chat-list-side">
                {last && <RelativeTime value={last.createdAt} />}
                {g.unread > 0 && (
                  <Label
                    circular
                    color="red"
                    size="mini"
                    data-testid="chat-unread"
                    aria-label={t('im.unread', { count: g.unread })}
                  >
                    {g.unread > BADGE_MAX ? `${BADGE_MAX}+` : g.unread}
                  </Label>
                )}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

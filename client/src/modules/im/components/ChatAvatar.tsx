import { Icon } from 'semantic-ui-react';
import { imageUrl } from '../../api';

/** A person's avatar (first image), or a group's icon. */
export function ChatAvatar({ url, group, size = 36 }: { url?: string | null; group?: boolean; size?: number }) {
  if (url) return <img className="chat-avatar" src={imageUrl(url)} alt="" width={size} height={size} loading="lazy" />;
  return (
    <span className="chat-avatar chat-avatar-icon" style={{ width: size, height: size }} aria-hidden="true">
      <Icon name={group ? 'users' : 'user'} />
    </span>
  );
}

import { useEffect, useState } from 'react';
import { Button, Comment, Label, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchComments, hideComment, type AnnouncementCommentRow } from '../../api';
import { formatTime } from '../../ui/utils/formatTime';

/**
 * The residents' comments (SPEC §3 "allow comments"); staff hide one from residents or show it
 * again. Reloads when `reloadKey` changes (a live event about the announcement: a new comment,
 * a comment hidden in another console).
 */
export function CommentList({ announcementId, reloadKey }: { announcementId: number; reloadKey: number }) {
  const { t } = useTranslation();
  const [comments, setComments] = useState<AnnouncementCommentRow[] | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchComments(announcementId, abort.signal).then(setComments, () => undefined);
    return () => abort.abort();
  }, [announcementId, reloadKey]);
  if (!comments) return <Segment loading basic style={{ minHeight: 80 }} />;
  if (comments.length === 0) return <p>{t('announcements.noComments')}</p>;
  return (
    <Comment.Group data-testid="comments">
      {comments.map((c) => (
        <Comment key={c.id} data-testid="comment" data-hidden={c.hidden}>
          <Comment.Content>
            <Comment.Author as="span">{c.name}</Comment.Author>
            <Comment.Metadata>
              {formatTime(c.createdAt)}
              {c.hidden && (
                <Label size="mini" color="grey">
                  {t('announcements.hidden')}
                </Label>
              )}
            </Comment.Metadata>
            <Comment.Text>{c.content}</Comment.Text>
            <Button
              size="mini"
              basic
              data-testid="comment-hide"
              onClick={async () => {
                const changed = await hideComment(c.id, !c.hidden);
                setComments((list) => list?.map((x) => (x.id === changed.id ? changed : x)) ?? null);
              }}
            >
              {c.hidden ? t('announcements.show') : t('announcements.hide')}
            </Button>
          </Comment.Content>
        </Comment>
      ))}
    </Comment.Group>
  );
}

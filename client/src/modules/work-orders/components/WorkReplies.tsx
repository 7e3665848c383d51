import { useCallback, useEffect, useId, useState } from 'react';
import { Button, Comment, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { Reply } from '@pm/shared';
import { fetchReplies, imageUrl, saveReply, type WorkDetail } from '../../api';
import { VoicePlayer } from '../../ui/components/VoicePlayer';
import { showToast } from '../../ui/states/toasts';
import { formatTime } from '../../ui/utils/formatTime';
import { mediaList } from '../utils/workFormat';
import type { WorkKind } from '../utils/workKinds';
import { PictureList, PictureUpload } from './WorkMedia';

/** Replies fetched per page. */
const REPLY_PAGE = 100;

/** The conversation with the resident: the replies so far and a reply form (required on blur, SPEC §5). */
export function WorkReplies({
  kind,
  detail,
  onReplied,
}: {
  kind: WorkKind;
  detail: WorkDetail;
  onReplied: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [replies, setReplies] = useState<Reply[]>([]);
  const [total, setTotal] = useState(0);
  /** Pages of REPLY_PAGE shown: the conversation grows by a page at a time, none is left out. */
  const [pages, setPages] = useState(1);
  const [content, setContent] = useState('');
  const [img, setImg] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const load = useCallback(
    async (signal?: AbortSignal) => {
      const all: Reply[] = [];
      let count = 0;
      try {
        for (let page = 1; page <= pages; page++) {
          const r = await fetchReplies(kind.kind, detail.id, page, REPLY_PAGE, signal);
          all.push(...r.list);
          count = r.total;
          if (all.length >= count) break;
        }
      } catch {
        return; // told by the data-access layer, or superseded
      }
      setReplies(all);
      setTotal(count);
    },
    [kind.kind, detail.id, pages],
  );
  // A new reply (the resident's, live, or this person's) changes the record's reply count: fetch again.
  useEffect(() => {
    const ac = new AbortController();
    void load(ac.signal);
    return () => ac.abort();
  }, [load, detail.replyCount]);
  const error = touched && !content.trim() ? t('validation.replyRequired') : '';
  const send = async () => {
    setTouched(true);
    if (!content.trim()) return;
    setBusy(true);
    try {
      await saveReply(kind.kind, detail.id, content.trim(), img);
      showToast('success', t('workOrders.replied'));
      setContent('');
      setImg('');
      setTouched(false);
      // Enough pages for the new reply (the last one) to show.
      setPages(Math.ceil((total + 1) / REPLY_PAGE));
      onReplied();
    } catch {
      // shown by the data-access layer
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="work-replies">
      {replies.length === 0 ? (
        <p className="work-muted">{t('workOrders.noReplies')}</p>
      ) : (
        <Comment.Group>
          {replies.map((r) => (
            <Comment key={r.replyId} data-testid="reply-item">
              {r.personPhoto && <Comment.Avatar src={imageUrl(r.personPhoto)} alt="" />}
              <Comment.Content>
                <Comment.Author as="span">{r.personName}</Comment.Author>
                <Comment.Metadata>
                  <span>{t(r.companyType === null ? 'workOrders.resident' : 'workOrders.staff')}</span>
                  <span>{formatTime(r.replyTime)}</span>
                </Comment.Metadata>
                <Comment.Text>{r.content}</Comment.Text>
                {mediaList(r.img).length > 0 && <PictureList joined={r.img} />}
                {mediaList(r.voice).map((v) => (
                  <VoicePlayer key={v} source={imageUrl(v)} />
                ))}
              </Comment.Content>
            </Comment>
          ))}
        </Comment.Group>
      )}
      {replies.length < total && (
        <Button type="button" basic onClick={() => setPages((p) => p + 1)} data-testid="more-replies">
          {t('workOrders.moreReplies', { count: Math.min(REPLY_PAGE, total - replies.length) })}
        </Button>
      )}
      <Form>
        <Form.TextArea
          id={`${id}-reply`}
          name="replyContent"
          label={t('workOrders.replyContent')}
          value={content}
          error={error || undefined}
          onChange={(_, d) => setContent(String(d.value ?? ''))}
          onBlur={() => setTouched(true)}
        />
        <PictureUpload kind={kind.uploadKind} value={img} onChange={setImg} />
        <Button
          primary
          type="button"
          loading={busy}
          onClick={() => void send()}
          data-testid="reply-submit"
          style={{ marginTop: '1em' }}
        >
          {t('workOrders.sendReply')}
        </Button>
      </Form>
    </div>
  );
}

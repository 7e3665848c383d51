import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Checkbox, Form, Image } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { deleteAds, fetchAd, fetchAds, imageUrl, sortAds, switchAd, type AdRow } from '../../api';
import { useSelection } from '../../buildings/hooks/useSelection';
import { ListScreen, type ListColumn, type StatusTab } from '../../list/components/ListScreen';
import { useListController } from '../../list/hooks/useListController';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { adLinkText } from '../utils/adLink';
import { AdDialog } from './AdDialog';
import { AdStateLabel } from './AdStateLabel';
import '../ads.css';

/** Filters and their URL names: `?q=cleaning`. */
const FILTERS = { q: '' };

/** Status tabs: all, shown to residents now, not shown (off, not begun or ended). */
const TABS = [
  { value: 0, label: 'ads.tabs.all', showing: undefined },
  { value: 1, label: 'ads.tabs.showing', showing: true },
  { value: 2, label: 'ads.tabs.hidden', showing: false },
] as const;

/**
 * /ad-settings/index (SPEC §2, issue 33): the resident app's ads of the estate in their order,
 * with what residents see of each now. Add (a dialog), edit (`?open=<id>`, a link), delete (one,
 * or the selected ones), move up and down (also across pages), switch on and off.
 */
export default function AdSettingsPage() {
  const { t } = useTranslation();
  const selection = useSelection();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<AdRow | null>(null);
  const [busy, setBusy] = useState(false);
  /** The button to focus once the list shows the moved ad in its new place. */
  const focusNext = useRef<string | null>(null);
  const list = useListController<AdRow, typeof FILTERS>({
    filters: FILTERS,
    fetchList: ({ status, page, limit, filters }, signal) =>
      fetchAds(
        { page, limit, keyword: filters.q || undefined, showing: TABS.find((x) => x.value === status)?.showing },
        signal,
      ),
  });
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  const offset = (list.page - 1) * list.limit;

  // `?open=<id>` opens that ad's editor (a pasted link, reload, back).
  useEffect(() => {
    if (list.open === null) {
      setEditing(null);
      return;
    }
    const abort = new AbortController();
    fetchAd(list.open, abort.signal).then(setEditing, () => list.closeRecord());
    return () => abort.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the open id only
  }, [list.open]);

  useEffect(() => {
    if (!focusNext.current) return;
    document.querySelector<HTMLElement>(focusNext.current)?.focus();
    focusNext.current = null;
  }, [list.data]);

  const changed = () => {
    selection.clear();
    list.reload();
  };

  /** Swaps the ad with its neighbour in the whole order (the neighbour may be on another page). */
  const move = async (row: AdRow, at: number, delta: -1 | 1) => {
    setBusy(true);
    try {
      const neighbourAt = offset + at + delta;
      const neighbour =
        rows[at + delta] ??
        (
          await fetchAds({
            page: neighbourAt + 1,
            limit: 1,
            keyword: list.filters.q || undefined,
            showing: TABS.find((x) => x.value === list.status)?.showing,
          })
        ).list[0];
      if (!neighbour) return;
      await sortAds(delta < 0 ? [row.adId, neighbour.adId] : [neighbour.adId, row.adId]);
      focusNext.current = `[data-testid="move-${delta < 0 ? 'up' : 'down'}-${row.adId}"]:not([disabled])`;
      // Moved off this page: follow it there.
      if (at + delta < 0 || at + delta >= rows.length)
        list.changePage(Math.floor(neighbourAt / list.limit) + 1, list.limit);
      else list.reload();
    } catch {
      // told by the data-access layer
    } finally {
      setBusy(false);
    }
  };

  const remove = async (ids: number[], what: string) => {
    if (ids.length === 0) {
      showToast('error', t('toast.selectAtLeastOne'));
      return;
    }
    if (!(await confirm(what))) return;
    try {
      await deleteAds(ids);
      showToast('success', t('ads.deleted', { count: ids.length }));
      changed();
    } catch {
      // told by the data-access layer
    }
  };

  const toggle = async (row: AdRow, enabled: boolean) => {
    try {
      await switchAd(row.adId, enabled);
      showToast('success', t(enabled ? 'ads.switchedOn' : 'ads.switchedOff', { title: row.title }));
      list.reload();
    } catch {
      // told by the data-access layer
    }
  };

  const period = (r: AdRow) =>
    r.startDate || r.endDate
      ? t('ads.periodText', { start: r.startDate ?? '…', end: r.endDate ?? '…' })
      : t('ads.periodAlways');

  const columns: ListColumn<AdRow>[] = [
    {
      key: 'select',
      header: t('ads.columns.select'),
      cell: (r) => (
        <input
          type="checkbox"
          className="ad-check"
          aria-label={t('ads.actions.selectRow', { title: r.title })}
          checked={selection.ids.has(r.adId)}
          onChange={(e) => selection.toggle(r.adId, e.target.checked)}
          data-testid={`select-${r.adId}`}
        />
      ),
    },
    {
      key: 'order',
      header: t('ads.columns.order'),
      cell: (r) => {
        const at = rows.indexOf(r);
        return (
          <span className="ad-order">
            <span className="ad-order-number">{offset + at + 1}</span>
            <Button
              icon="arrow up"
              size="mini"
              basic
              disabled={busy || offset + at === 0}
              aria-label={t('ads.actions.moveUp', { title: r.title })}
              onClick={() => void move(r, at, -1)}
              data-testid={`move-up-${r.adId}`}
            />
            <Button
              icon="arrow down"
              size="mini"
              basic
              disabled={busy || offset + at >= total - 1}
              aria-label={t('ads.actions.moveDown', { title: r.title })}
              onClick={() => void move(r, at, 1)}
              data-testid={`move-down-${r.adId}`}
            />
          </span>
        );
      },
    },
    {
      key: 'image',
      header: t('ads.columns.image'),
      cell: (r) => <Image src={imageUrl(r.image)} size="tiny" rounded bordered alt={r.title} className="ad-thumb" />,
    },
    { key: 'title', header: t('ads.columns.title'), cell: (r) => <span data-testid="ad-title-cell">{r.title}</span> },
    {
      key: 'link',
      header: t('ads.columns.link'),
      cell: (r) => <span className="ad-link-text">{adLinkText(t, r.link)}</span>,
    },
    { key: 'period', header: t('ads.columns.period'), cell: period },
    { key: 'state', header: t('ads.columns.state'), cell: (r) => <AdStateLabel state={r.state} /> },
    {
      key: 'enabled',
      header: t('ads.columns.enabled'),
      cell: (r) => (
        <Checkbox
          toggle
          checked={r.enabled}
          aria-label={t('ads.actions.switch', { title: r.title })}
          onChange={(_, v) => void toggle(r, !!v.checked)}
          data-testid={`switch-${r.adId}`}
        />
      ),
    },
    {
      key: 'actions',
      header: t('common.operate'),
      cell: (r) => (
        <span className="ad-actions">
          <Link
            to={list.linkTo({ open: r.adId })}
            className="ui mini basic primary button"
            aria-label={t('ads.actions.edit', { title: r.title })}
            data-testid="open-detail"
          >
            {t('common.edit')}
          </Link>
          <Button
            size="mini"
            basic
            negative
            aria-label={t('ads.actions.delete', { title: r.title })}
            onClick={() => void remove([r.adId], t('ads.confirmDelete', { title: r.title }))}
            data-testid={`delete-${r.adId}`}
          >
            {t('common.delete')}
          </Button>
        </span>
      ),
    },
  ];

  const statusTabs: StatusTab[] = TABS.map((x) => ({ value: x.value, label: t(x.label) }));

  return (
    <div className="ad-settings" data-testid="ad-settings">
      <div className="ad-toolbar">
        <Button
          primary
          icon="plus"
          content={t('ads.actions.add')}
          onClick={() => setAdding(true)}
          data-testid="ad-add"
        />
        <Button
          basic
          negative
          icon="trash alternate outline"
          content={t('ads.actions.deleteSelected')}
          onClick={() => void remove([...selection.ids], t('ads.confirmDeleteSelected', { count: selection.ids.size }))}
          data-testid="ad-delete-selected"
        />
        <span role="status" data-testid="selected-count">
          {t('ads.selected', { count: selection.ids.size })}
        </span>
      </div>
      <ListScreen
        list={list}
        columns={columns}
        rowKey={(r) => r.adId}
        statusTabs={statusTabs}
        filters={
          <Form.Input
            id="ad-keyword"
            label={t('ads.filters.keyword')}
            value={list.draft.q}
            onChange={(_, v) => list.setDraft({ q: v.value })}
            data-testid="ad-keyword"
          />
        }
        emptyText={t('ads.empty')}
        tableTestId="ad-table"
        rowTestId={(r) => `ad-row-${r.adId}`}
      >
        {adding && (
          <AdDialog
            ad={null}
            onClose={() => setAdding(false)}
            onSaved={() => {
              setAdding(false);
              changed();
            }}
          />
        )}
        {editing && (
          <AdDialog
            key={editing.adId}
            ad={editing}
            onClose={list.closeRecord}
            onSaved={() => {
              list.closeRecord();
              changed();
            }}
          />
        )}
      </ListScreen>
    </div>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox, Form, Icon, Loader, Message } from 'semantic-ui-react';
import {
  fetchBookSettings,
  fetchStaffDirectory,
  saveBookSettings,
  type AddressBookSettings,
  type StaffDirectory,
} from '../../api';
import { SelectField } from '../../ui/components/SelectField';
import { showToast } from '../../ui/states/toasts';
import { formatTime } from '../../ui/utils/formatTime';
import '../im.css';

interface Entry {
  kind: 1 | 2;
  id: number;
  title: string;
  name: string;
  staffCount?: number;
}

/**
 * SPEC §2 /instant-messaging/address-book-settings (decided in issue 31, documented in
 * /openapi.json): what residents see in their app's address book — a title, whether staff phone
 * numbers show, and entries in order, each a department (all its staff who can chat) or one staff
 * member, with an optional heading. Residents start a chat from it.
 */
export default function AddressBookSettingsPage() {
  const { t } = useTranslation();
  const [saved, setSaved] = useState<AddressBookSettings | null>(null);
  const [directory, setDirectory] = useState<StaffDirectory | null>(null);
  const [title, setTitle] = useState('');
  const [showPhone, setShowPhone] = useState(false);
  const [entries, setEntries] = useState<Entry[]>([]);
  const [department, setDepartment] = useState('');
  const [person, setPerson] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);

  const load = (s: AddressBookSettings) => {
    setSaved(s);
    setTitle(s.title);
    setShowPhone(s.showPhone);
    setEntries(
      s.entries.map((e) => ({
        kind: e.kind as 1 | 2,
        id: e.id,
        title: e.title,
        name: e.name,
        staffCount: e.staffCount,
      })),
    );
  };
  useEffect(() => {
    const abort = new AbortController();
    fetchBookSettings(abort.signal).then(load, () => undefined);
    fetchStaffDirectory('', false, abort.signal).then(setDirectory, () => undefined);
    return () => abort.abort();
  }, []);

  const has = (kind: number, id: number) => entries.some((e) => e.kind === kind && e.id === id);
  const departments = (directory?.departments ?? []).filter((d) => d.departmentId !== null);
  const staff = (directory?.departments ?? []).flatMap((d) => d.staff);
  const move = (i: number, by: -1 | 1) =>
    setEntries((list) => {
      const next = [...list];
      [next[i], next[i + by]] = [next[i + by], next[i]];
      return next;
    });
  const add = (kind: 1 | 2, value: string) => {
    const id = Number(value);
    if (!id || has(kind, id)) return;
    const name =
      kind === 1
        ? (departments.find((d) => d.departmentId === id)?.name ?? '')
        : (staff.find((s) => s.personId === id)?.name ?? '');
    setEntries((list) => [...list, { kind, id, title: '', name }]);
    if (kind === 1) setDepartment('');
    else setPerson('');
  };
  const save = async () => {
    setTried(true);
    if (!title.trim()) return;
    setBusy(true);
    try {
      load(
        await saveBookSettings({
          title: title.trim(),
          showPhone,
          entries: entries.map((e) => ({ kind: e.kind, id: e.id, title: e.title.trim() || undefined })),
        }),
      );
      showToast('success', t('im.settings.saved'));
    } catch {
      // the error toast says why
    } finally {
      setBusy(false);
    }
  };

  if (!saved || !directory) return <Loader active inline="centered" />;
  return (
    <div className="book-settings" data-testid="book-settings">
      <Message info>{t('im.settings.intro')}</Message>
      <Form onSubmit={() => void save()}>
        <Form.Input
          id="book-title"
          label={t('im.settings.title')}
          value={title}
          maxLength={50}
          required
          error={tried && !title.trim() ? { content: t('im.settings.titleRequired'), pointing: 'above' } : undefined}
          onChange={(_, d) => setTitle(String(d.value))}
          data-testid="book-title"
        />
        <Form.Field>
          <Checkbox
            id="book-show-phone"
            toggle
            label={t('im.settings.showPhone')}
            checked={showPhone}
            onChange={(_, d) => setShowPhone(!!d.checked)}
          />
        </Form.Field>
        <h2 className="chat-dialog-heading">{t('im.settings.entries')}</h2>
        {entries.length === 0 && <p className="book-meta">{t('im.settings.noEntries')}</p>}
        <ol className="book-settings-entries" data-testid="book-settings-entries">
          {entries.map((e, i) => (
            <li key={`${e.kind}:${e.id}`} className="book-settings-entry">
              <span className="book-settings-name">
                <span>
                  <Icon name={e.kind === 1 ? 'sitemap' : 'user'} />
                  {e.name}
                </span>
                <span className="book-meta">
                  {t(e.kind === 1 ? 'im.settings.department' : 'im.settings.person')}
                  {e.staffCount !== undefined && ` · ${t('im.settings.visible', { count: e.staffCount })}`}
                </span>
              </span>
              <Form.Input
                id={`book-entry-title-${i}`}
                aria-label={t('im.settings.entryTitle', { name: e.name })}
                placeholder={t('im.settings.entryTitlePlaceholder')}
                value={e.title}
                maxLength={50}
                onChange={(_, d) =>
                  setEntries((list) => list.map((x, j) => (j === i ? { ...x, title: String(d.value) } : x)))
                }
              />
              <span className="book-settings-buttons">
                <Button
                  type="button"
                  icon
                  size="mini"
                  basic
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                  aria-label={t('im.settings.up', { name: e.name })}
                >
                  <Icon name="arrow up" />
                </Button>
                <Button
                  type="button"
                  icon
                  size="mini"
                  basic
                  disabled={i === entries.length - 1}
                  onClick={() => move(i, 1)}
                  aria-label={t('im.settings.down', { name: e.name })}
                >
                  <Icon name="arrow down" />
                </Button>
                <Button
                  type="button"
                  icon
                  size="mini"
                  basic
                  onClick={() => setEntries((list) => list.filter((_, j) => j !== i))}
                  aria-label={t('im.settings.remove', { name: e.name })}
                >
                  <Icon name="trash alternate outline" />
                </Button>
              </span>
            </li>
          ))}
        </ol>
        <Form.Group widths="equal">
          <SelectField
            label={t('im.settings.addDepartment')}
            value={department}
            onChange={(v) => add(1, v)}
            emptyText={t('im.settings.choose')}
            options={departments
              .filter((d) => !has(1, d.departmentId!))
              .map((d) => ({ value: d.departmentId!, text: d.name ?? '' }))}
            data-testid="book-add-department"
          />
          <SelectField
            label={t('im.settings.addPerson')}
            value={person}
            onChange={(v) => add(2, v)}
            emptyText={t('im.settings.choose')}
            options={staff.filter((s) => !has(2, s.personId)).map((s) => ({ value: s.personId, text: s.name }))}
            data-testid="book-add-person"
          />
        </Form.Group>
        <div className="book-settings-save">
          <Button primary type="submit" loading={busy} disabled={busy} data-testid="book-settings-save">
            {t('im.settings.save')}
          </Button>
          {saved.updatedAt && (
            <span className="book-meta">{t('im.settings.lastSaved', { time: formatTime(saved.updatedAt) })}</span>
          )}
        </div>
      </Form>
    </div>
  );
}

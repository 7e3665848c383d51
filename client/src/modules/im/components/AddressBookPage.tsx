import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Button, Icon, Input, Loader, Menu } from 'semantic-ui-react';
import { Identity } from '@pm/shared';
import {
  fetchResidentDirectory,
  fetchStaffDirectory,
  openPrivateChat,
  type ResidentEntry,
  type StaffDirectory,
} from '../../api';
import { session } from '../../auth/states/session';
import { layoutSettings } from '../../layout/states/layoutSettings';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { ListPagination } from '../../ui/components/ListPagination';
import { SelectField } from '../../ui/components/SelectField';
import { enumLabel } from '../../ui/utils/enumLabels';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { ChatAvatar } from './ChatAvatar';
import { ChatRecordDialog } from './ChatRecordDialog';
import { GroupCreateDialog } from './GroupCreateDialog';
import { PersonHousesDialog } from './PersonHousesDialog';
import '../im.css';

type Person = { personId: number; name: string };

/**
 * SPEC §2 /instant-messaging/address-book: staff by department and residents by house, with phone
 * and identity; search by name and phone (and Pinyin with the settings drawer's switch). From an
 * entry: chat (a private chat, created on first use), the chat record, the person's houses; a
 * group chat is created from here too.
 */
export default function AddressBookPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'residents' ? 'residents' : 'staff';
  const me = useSnapshot(session).pId ?? 0;
  const { pinyinSearch } = useSnapshot(layoutSettings);
  const [key, setKey] = useState('');
  const [houseType, setHouseType] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(20);
  const [staff, setStaff] = useState<StaffDirectory | null>(null);
  const [residents, setResidents] = useState<{ list: ResidentEntry[]; total: number } | null>(null);
  const [record, setRecord] = useState<Person | null>(null);
  const [houses, setHouses] = useState<Person | null>(null);
  const [creating, setCreating] = useState(false);

  useEffect(() => setPage(1), [key, houseType, tab, pinyinSearch]);
  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(
      () => {
        if (tab === 'staff')
          fetchStaffDirectory(key.trim(), pinyinSearch, abort.signal).then(setStaff, () => undefined);
        else
          fetchResidentDirectory(
            page,
            limit,
            key.trim(),
            pinyinSearch,
            Number(houseType) || undefined,
            abort.signal,
          ).then(setResidents, () => undefined);
      },
      key ? 300 : 0,
    );
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [tab, key, pinyinSearch, houseType, page, limit]);

  const chat = async (personId: number) => {
    const { groupId } = await openPrivateChat(me, personId);
    navigate(`/instant-messaging/chat?open=${groupId}`);
  };
  const actions = (p: Person, canChat: boolean, resident: boolean) => (
    <span className="book-actions">
      {p.personId !== me && canChat && (
        <Button
          size="mini"
          primary
          basic
          onClick={() => void chat(p.personId).catch(() => undefined)}
          data-testid="book-chat"
          aria-label={t('im.book.chatWith', { name: p.name })}
        >
          <Icon name="comments outline" />
          {t('im.book.chat')}
        </Button>
      )}
      {/* Said in words, not as a greyed-out button that nobody can focus or ask why. */}
      {p.personId !== me && !canChat && (
        <span className="book-no-chat" title={t('im.book.noChatWhy')} data-testid="book-no-chat">
          {t('im.book.noChat')}
        </span>
      )}
      {p.personId !== me && (
        <Button
          size="mini"
          basic
          onClick={() => setRecord(p)}
          data-testid="book-chat-record"
          aria-label={t('im.book.recordOf', { name: p.name })}
        >
          {t('im.book.chatRecord')}
        </Button>
      )}
      {resident && (
        <Button
          size="mini"
          basic
          onClick={() => setHouses(p)}
          data-testid="book-houses"
          aria-label={t('im.book.housesOf', { name: p.name })}
        >
          {t('im.book.houses')}
        </Button>
      )}
    </span>
  );

  /** Residents grouped under their house's heading, in house order. */
  const byHouse: { house: string; rows: ResidentEntry[] }[] = [];
  for (const r of residents?.list ?? []) {
    const house = `${t(`workOrders.houseType.h${r.houseType}`)} · ${unitDisplay(r)}`;
    const last = byHouse.at(-1);
    if (last?.house === house) last.rows.push(r);
    else byHouse.push({ house, rows: [r] });
  }

  return (
    <div className="address-book" data-testid="address-book">
      <div className="book-toolbar">
        <Menu pointing secondary className="book-tabs" aria-label={t('im.book.tabs')}>
          <Menu.Item
            active={tab === 'staff'}
            onClick={() => setParams({})}
            aria-pressed={tab === 'staff'}
            as="button"
            data-testid="book-tab-staff"
          >
            {t('im.book.staff')}
          </Menu.Item>
          <Menu.Item
            active={tab === 'residents'}
            onClick={() => setParams({ tab: 'residents' })}
            aria-pressed={tab === 'residents'}
            as="button"
            data-testid="book-tab-residents"
          >
            {t('im.book.residents')}
          </Menu.Item>
        </Menu>
        <Input
          icon="search"
          value={key}
          onChange={(_, d) => setKey(String(d.value))}
          placeholder={t(pinyinSearch ? 'im.book.searchPinyin' : 'im.book.search')}
          aria-label={t('im.book.search')}
          data-testid="book-search"
        />
        {tab === 'residents' && (
          <div className="book-house-type">
            <SelectField
              label={t('im.book.houseType')}
              value={houseType}
              onChange={setHouseType}
              emptyText={t('workOrders.status.all')}
              options={[1, 2, 3].map((h) => ({ value: h, text: t(`workOrders.houseType.h${h}`) }))}
            />
          </div>
        )}
        <Button onClick={() => setCreating(true)} data-testid="book-create-group">
          <Icon name="add user" />
          {t('im.createGroup')}
        </Button>
      </div>

      {tab === 'staff' &&
        (!staff ? (
          <Loader active inline="centered" />
        ) : staff.departments.every((d) => d.staff.length === 0) ? (
          <EmptyPlaceholder text={t('im.noMatch')} />
        ) : (
          staff.departments.map((d) => (
            <section key={d.departmentId ?? 0} className="book-section" aria-labelledby={`dept-${d.departmentId ?? 0}`}>
              <h2 id={`dept-${d.departmentId ?? 0}`}>
                {d.name ?? t('im.book.noDepartment')} <span className="book-count">{d.staff.length}</span>
              </h2>
              <ul className="book-entries">
                {d.staff.map((s) => (
                  <li key={s.personId} className="book-entry" data-testid="book-entry">
                    <ChatAvatar url={s.images[0]?.url} />
                    <span className="book-entry-text">
                      <strong>{s.name}</strong>
                      <span className="book-meta">
                        {[s.position, s.staffNumber, s.tel].filter(Boolean).join(' · ')}
                      </span>
                    </span>
                    {actions(s, s.canChat, false)}
                  </li>
                ))}
              </ul>
            </section>
          ))
        ))}

      {tab === 'residents' &&
        (!residents ? (
          <Loader active inline="centered" />
        ) : residents.list.length === 0 ? (
          <EmptyPlaceholder text={t('im.noMatch')} />
        ) : (
          <>
            {byHouse.map((h) => (
              <section key={h.house} className="book-section">
                <h2>{h.house}</h2>
                <ul className="book-entries">
                  {h.rows.map((r) => (
                    <li key={r.personHouseId} className="book-entry" data-testid="book-entry">
                      <ChatAvatar url={r.images[0]?.url} />
                      <span className="book-entry-text">
                        <strong>{r.name}</strong>
                        <span className="book-meta">
                          {[enumLabel(t, Identity, r.identity), r.tel].filter(Boolean).join(' · ')}
                        </span>
                      </span>
                      {actions(r, true, true)}
                    </li>
                  ))}
                </ul>
              </section>
            ))}
            <ListPagination
              page={page}
              limit={limit}
              total={residents.total}
              onChange={(p, l) => {
                setPage(p);
                setLimit(l);
              }}
            />
          </>
        ))}

      {record && <ChatRecordDialog person={record} me={me} onClose={() => setRecord(null)} />}
      {houses && <PersonHousesDialog person={houses} onClose={() => setHouses(null)} />}
      {creating && (
        <GroupCreateDialog
          open
          me={me}
          onClose={() => setCreating(false)}
          onCreated={(groupId) => navigate(`/instant-messaging/chat?open=${groupId}`)}
        />
      )}
    </div>
  );
}

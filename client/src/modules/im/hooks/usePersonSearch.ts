import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { fetchResidentDirectory, fetchStaffDirectory } from '../../api';
import { layoutSettings } from '../../layout/states/layoutSettings';
import { unitDisplay } from '../../ui/utils/unitDisplay';

export interface PickablePerson {
  personId: number;
  name: string;
  avatar: string | null;
  /** Department and position, or the house. */
  detail: string;
  kind: 'staff' | 'resident';
}

/**
 * Staff and residents matching a search (name, phone; Pinyin with the settings drawer's switch),
 * for choosing group members. Residents come 20 at most; each person once.
 */
export function usePersonSearch(key: string) {
  const { pinyinSearch } = useSnapshot(layoutSettings);
  const [people, setPeople] = useState<PickablePerson[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      Promise.all([
        fetchStaffDirectory(key, pinyinSearch, abort.signal),
        fetchResidentDirectory(1, 20, key, pinyinSearch, undefined, abort.signal),
      ]).then(
        ([staff, residents]) => {
          const seen = new Set<number>();
          const list: PickablePerson[] = [];
          for (const d of staff.departments)
            for (const s of d.staff)
              if (!seen.has(s.personId)) {
                seen.add(s.personId);
                list.push({
                  personId: s.personId,
                  name: s.name,
                  avatar: s.images[0]?.url ?? null,
                  detail: [d.name, s.position].filter(Boolean).join(' · '),
                  kind: 'staff',
                });
              }
          for (const r of residents.list)
            if (!seen.has(r.personId)) {
              seen.add(r.personId);
              list.push({
                personId: r.personId,
                name: r.name,
                avatar: r.images[0]?.url ?? null,
                detail: unitDisplay(r),
                kind: 'resident',
              });
            }
          setPeople(list);
          setLoading(false);
        },
        () => !abort.signal.aborted && setLoading(false),
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [key, pinyinSearch]);
  return { people, loading };
}

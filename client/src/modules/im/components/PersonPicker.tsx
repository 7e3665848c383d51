import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Form, Label } from 'semantic-ui-react';
import { usePersonSearch, type PickablePerson } from '../hooks/usePersonSearch';
import { ChatAvatar } from './ChatAvatar';

/** Choosing people (staff and residents) by searching; `exclude` are not offered (already members, oneself). */
export function PersonPicker({
  selected,
  onChange,
  exclude,
  error,
}: {
  selected: PickablePerson[];
  onChange: (people: PickablePerson[]) => void;
  exclude: number[];
  error?: string;
}) {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const { people, loading } = usePersonSearch(key);
  const chosen = new Set(selected.map((p) => p.personId));
  const toggle = (p: PickablePerson, on: boolean) =>
    onChange(on ? [...selected, p] : selected.filter((x) => x.personId !== p.personId));
  return (
    <div className="person-picker">
      <Form.Input
        id="person-picker-search"
        label={t('im.members.search')}
        icon="search"
        value={key}
        loading={loading}
        onChange={(_, d) => setKey(String(d.value))}
        placeholder={t('im.members.searchHint')}
        data-testid="person-picker-search"
      />
      <div className="person-picker-chosen" aria-live="polite">
        {selected.map((p) => (
          <Label key={p.personId} size="small">
            {p.name}
            <button
              type="button"
              className="person-picker-remove"
              aria-label={t('im.members.unselect', { name: p.name })}
              onClick={() => toggle(p, false)}
            >
              ×
            </button>
          </Label>
        ))}
      </div>
      {error && (
        <div className="person-picker-error" role="alert">
          {error}
        </div>
      )}
      <ul className="person-picker-list" aria-label={t('im.members.results')}>
        {people
          .filter((p) => !exclude.includes(p.personId))
          .map((p) => (
            <li key={p.personId}>
              <ChatAvatar url={p.avatar} size={28} />
              <Checkbox
                id={`pick-${p.personId}`}
                label={`${p.name} · ${t(p.kind === 'staff' ? 'im.staff' : 'im.resident')}${p.detail ? ` · ${p.detail}` : ''}`}
                checked={chosen.has(p.personId)}
                onChange={(_, d) => toggle(p, !!d.checked)}
                data-testid="person-picker-option"
              />
            </li>
          ))}
      </ul>
    </div>
  );
}

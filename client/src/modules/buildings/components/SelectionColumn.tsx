import type { TFunction } from 'i18next';
import type { ListColumn } from '../../list/components/ListScreen';
import type { Selection } from '../hooks/useSelection';

/** The first column of a house list: a checkbox per row (the page's "select all" is in SelectionBar). */
export function selectionColumn<Row>(
  t: TFunction,
  selection: Selection,
  idOf: (r: Row) => number,
  nameOf: (r: Row) => string,
): ListColumn<Row> {
  return {
    key: 'select',
    header: t('buildings.actions.select'),
    cell: (r) => (
      <input
        type="checkbox"
        className="buildings-check"
        aria-label={t('buildings.actions.selectRow', { name: nameOf(r) })}
        checked={selection.ids.has(idOf(r))}
        onChange={(e) => selection.toggle(idOf(r), e.target.checked)}
        data-testid={`select-${idOf(r)}`}
      />
    ),
  };
}

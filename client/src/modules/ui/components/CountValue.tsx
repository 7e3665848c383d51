import { useTranslation } from 'react-i18next';

/** The placeholder of a count that was never loaded: never a 0 that looks like a real figure. */
export const NOT_LOADED = '–';

/** A count, or "–" (read out as "not loaded yet") while it is unknown. */
export function CountValue({ value }: { value: number | null | undefined }) {
  const { t } = useTranslation();
  if (value === null || value === undefined)
    return (
      <span title={t('common.notLoaded')} data-count="unknown">
        <span aria-hidden="true">{NOT_LOADED}</span>
        <span className="visually-hidden">{t('common.notLoaded')}</span>
      </span>
    );
  return <span data-count={value}>{value}</span>;
}

import { Grid, Header, Icon } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { RATING_STARS } from '@pm/shared';
import type { WorkDetail } from '../../api';
import { WorkField } from './WorkField';

/** 1–3 stars (SPEC §3 service ratings), read out as "2 of 3 stars". */
function Stars({ value }: { value: number | null }) {
  const { t } = useTranslation();
  const stars = Array.from({ length: RATING_STARS }, (_, i) => i + 1);
  return (
    <span
      className="work-stars"
      role="img"
      aria-label={t('workOrders.stars', { count: value ?? 0, max: RATING_STARS })}
    >
      {stars.map((n) => (
        <Icon key={n} name={value !== null && n <= value ? 'star' : 'star outline'} color="yellow" aria-hidden="true" />
      ))}
    </span>
  );
}

/** The resident's service rating of a completed record. */
export function WorkRatings({ detail }: { detail: WorkDetail }) {
  const { t } = useTranslation();
  return (
    <>
      <Header as="h3" size="tiny">
        {t('workOrders.rating')}
      </Header>
      {detail.serviceEfficiency === null ? (
        <span className="work-muted">{t('workOrders.notRated')}</span>
      ) : (
        <Grid className="work-fields" stackable>
          <WorkField label={t('workOrders.efficiency')}>
            <Stars value={detail.serviceEfficiency} />
          </WorkField>
          <WorkField label={t('workOrders.attitude')}>
            <Stars value={detail.serviceAttitude} />
          </WorkField>
          <WorkField label={t('workOrders.process')}>
            <Stars value={detail.serviceProcess} />
          </WorkField>
          {detail.serviceComment && <WorkField label={t('workOrders.comment')}>{detail.serviceComment}</WorkField>}
        </Grid>
      )}
    </>
  );
}

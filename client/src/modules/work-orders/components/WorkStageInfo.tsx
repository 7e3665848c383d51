import type { ReactNode } from 'react';
import { Grid, Header, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import type { WorkDetail } from '../../api';
import { formatTime } from '../../ui/utils/formatTime';
import { PictureList } from './WorkMedia';
import { WorkField } from './WorkField';

/** What each handling stage shows: its labels and the record's fields of that stage. */
const STAGES = {
  deal: {
    title: 'workOrders.dealInfo',
    person: 'workOrders.dealPerson',
    time: 'workOrders.dealTime',
    note: 'workOrders.dealNote',
    of: (d: WorkDetail) => ({ person: d.personDealName, time: d.dealTime, note: d.dealNote, img: d.dealImg }),
  },
  complete: {
    title: 'workOrders.completeInfo',
    person: 'workOrders.completePerson',
    time: 'workOrders.completeTime',
    note: 'workOrders.completeNote',
    of: (d: WorkDetail) => ({
      person: d.personCompleteName,
      time: d.completeTime,
      note: d.completeNote,
      img: d.completeImg,
    }),
  },
} as const;

/** Who dealt with (or completed) the record, when, their note and pictures (SPEC §4). */
export function WorkStageInfo({
  stage,
  detail,
  children,
}: {
  stage: keyof typeof STAGES;
  detail: WorkDetail;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const s = STAGES[stage];
  const v = s.of(detail);
  return (
    <Segment data-testid={`${stage}-info`}>
      {/* Focus lands here after the step, when no next step is left to offer. */}
      <Header as="h3" size="tiny" tabIndex={-1} data-stage-heading>
        {t(s.title)}
      </Header>
      <Grid className="work-fields" stackable>
        <WorkField label={t(s.person)}>{v.person}</WorkField>
        <WorkField label={t(s.time)}>{formatTime(v.time)}</WorkField>
        <WorkField label={t(s.note)}>{v.note}</WorkField>
        <WorkField label={t('workOrders.pictures')}>
          <PictureList joined={v.img} />
        </WorkField>
      </Grid>
      {children}
    </Segment>
  );
}

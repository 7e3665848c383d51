import { useState } from 'react';
import { Grid, Label } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { EventType, Identity } from '@pm/shared';
import { imageUrl, type WorkDetail } from '../../api';
import { VoicePlayer } from '../../ui/components/VoicePlayer';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { mediaList } from '../utils/workFormat';
import type { WorkKind } from '../utils/workKinds';
import { MoreIndustriesDialog } from './MoreIndustriesDialog';
import { PictureList } from './WorkMedia';
import { StatusLabel } from './StatusLabel';
import { WorkField } from './WorkField';

/** What the resident reported: code, status, type, theme, reporter (with their other houses), house, time, description and media. */
export function WorkInfoSection({ kind, detail }: { kind: WorkKind; detail: WorkDetail }) {
  const { t } = useTranslation();
  const [reporterOpen, setReporterOpen] = useState(false);
  const voices = mediaList(detail.voice);
  return (
    <>
      <Grid className="work-fields" stackable>
        <WorkField label={t(kind.codeColumn)}>{detail.code}</WorkField>
        <WorkField label={t('workOrders.columns.status')}>
          <StatusLabel status={detail.status} />
        </WorkField>
        {kind.hasType && (
          <WorkField label={t('workOrders.columns.type')}>{enumLabel(t, EventType, detail.type)}</WorkField>
        )}
        <WorkField label={t('workOrders.columns.theme')}>{detail.name}</WorkField>
        <WorkField label={t('workOrders.columns.reporter')}>
          <button
            type="button"
            className="link-button"
            title={t('workOrders.moreIndustries')}
            onClick={() => setReporterOpen(true)}
            data-testid="reporter-link"
          >
            {detail.reportPersonName}
          </button>
          {detail.personIdentity ? (
            <Label size="mini" content={enumLabel(t, Identity, detail.personIdentity)} style={{ marginLeft: 8 }} />
          ) : null}
        </WorkField>
        <WorkField label={t('workOrders.columns.house')}>{unitDisplay(detail)}</WorkField>
        <WorkField label={t('workOrders.columns.reportTime')}>{formatTime(detail.reportTime)}</WorkField>
        <WorkField label={t('workOrders.description')}>{detail.note}</WorkField>
        <WorkField label={t('workOrders.pictures')}>
          <PictureList joined={detail.img} />
        </WorkField>
        {voices.length > 0 && (
          <WorkField label={t('workOrders.voice')}>
            {voices.map((v) => (
              <VoicePlayer key={v} source={imageUrl(v)} />
            ))}
          </WorkField>
        )}
      </Grid>
      <MoreIndustriesDialog
        personId={reporterOpen ? detail.reportPersonId : null}
        name={detail.reportPersonName}
        onClose={() => setReporterOpen(false)}
      />
    </>
  );
}

import { useEffect, useState } from 'react';
import { Button, Image, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { Gender, HouseType, Identity, JoinStatus, Relation } from '@pm/shared';
import { fetchPersonHouse, imageUrl, type PersonHouseRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { enumLabel } from '../../ui/utils/enumLabels';
import { formatTime } from '../../ui/utils/formatTime';
import { unitDisplay } from '../../ui/utils/unitDisplay';
import { MoreIndustriesDialog } from '../../work-orders/components/MoreIndustriesDialog';
import { accountText } from './accountText';
import { CertPicture } from './CertPicture';
import { PersonField } from './PersonField';

/** Owner info (SPEC §2, opened from the "more staff detail" link): the person, the house, the certificate. */
export function OwnerInfoDialog({ personHouseId, onClose }: { personHouseId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [row, setRow] = useState<PersonHouseRow | null>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    if (personHouseId === null) return;
    const ac = new AbortController();
    setRow(null);
    setMore(false);
    fetchPersonHouse(personHouseId, ac.signal)
      .then(setRow)
      .catch(() => undefined);
    return () => ac.abort();
  }, [personHouseId]);
  return (
    <DraggableDialog
      open={personHouseId !== null}
      title={t('owners.ownerInfo.title', { name: row?.name ?? '' })}
      onClose={onClose}
      top="5vh"
      data-testid="owner-info"
    >
      {!row ? (
        <Segment loading basic style={{ minHeight: 80 }} />
      ) : (
        <>
          <dl className="owners-fields">
            <PersonField label={t('owners.fields.name')}>
              {row.photo && <Image avatar src={imageUrl(row.photo)} alt="" />} {row.name}
            </PersonField>
            <PersonField label={t('owners.fields.personId')}>{row.personId}</PersonField>
            <PersonField label={t('owners.fields.gender')}>{enumLabel(t, Gender, row.gender)}</PersonField>
            <PersonField label={t('owners.fields.accountType')}>{accountText(t, row)}</PersonField>
            <PersonField label={t('owners.fields.house')}>
              {enumLabel(t, HouseType, row.houseType)} · {unitDisplay(row)}
            </PersonField>
            <PersonField label={t('owners.fields.identity')}>
              {enumLabel(t, Identity, row.identity)}
              {row.relation ? ` · ${enumLabel(t, Relation, row.relation)}` : ''}
            </PersonField>
            <PersonField label={t('owners.fields.status')}>{enumLabel(t, JoinStatus, row.status)}</PersonField>
            <PersonField label={t('owners.fields.joinTime')}>{formatTime(row.joinTime)}</PersonField>
            <PersonField label={t('owners.fields.certCode')}>{row.houseCertCode}</PersonField>
            <PersonField label={t('owners.fields.certPicture')}>
              {row.houseCertImg ? <CertPicture path={row.houseCertImg} size="small" /> : ''}
            </PersonField>
            {row.refuseReason && <PersonField label={t('owners.fields.refuseReason')}>{row.refuseReason}</PersonField>}
          </dl>
          <Button
            type="button"
            basic
            primary
            size="small"
            onClick={() => setMore(true)}
            data-testid="more-industries-link"
          >
            {t('owners.actions.moreIndustries')}
          </Button>
          <MoreIndustriesDialog personId={more ? row.personId : null} name={row.name} onClose={() => setMore(false)} />
        </>
      )}
    </DraggableDialog>
  );
}

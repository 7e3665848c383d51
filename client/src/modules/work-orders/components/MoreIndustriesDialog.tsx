import { useEffect, useState } from 'react';
import { Image, List, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { HouseType, Identity, type PersonAsset } from '@pm/shared';
import { fetchPersonAssets, imageUrl } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { enumLabel } from '../../ui/utils/enumLabels';
import { unitDisplay } from '../../ui/utils/unitDisplay';

function houseText(a: PersonAsset, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (!a.unit) return unitDisplay(a);
  const rooms = t('workOrders.unitRooms', {
    room: a.unit.room ?? 0,
    livingRoom: a.unit.livingRoom ?? 0,
    restroom: a.unit.restroom ?? 0,
  });
  return `${unitDisplay(a)} (${rooms})`;
}

/** "More industries" (SPEC §2): every house of the reporter, with type and identity. */
export function MoreIndustriesDialog({
  personId,
  name,
  onClose,
}: {
  personId: number | null;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [assets, setAssets] = useState<PersonAsset[] | null>(null);
  useEffect(() => {
    if (personId === null) return;
    const ac = new AbortController();
    setAssets(null);
    fetchPersonAssets(personId, ac.signal)
      .then(setAssets)
      .catch(() => setAssets([]));
    return () => ac.abort();
  }, [personId]);
  return (
    <DraggableDialog
      open={personId !== null}
      title={t('workOrders.moreIndustriesOf', { name })}
      onClose={onClose}
      data-testid="more-industries"
    >
      {assets === null ? (
        <Segment loading basic style={{ minHeight: 80 }} />
      ) : assets.length === 0 ? (
        <p>{t('workOrders.noHouses')}</p>
      ) : (
        <List divided relaxed>
          {assets.map((a) => (
            <List.Item key={a.personHouseId}>
              {a.houseCertImg && <Image avatar src={imageUrl(a.houseCertImg)} alt="" />}
              <List.Content>
                <List.Header>{houseText(a, t)}</List.Header>
                <List.Description>
                  {enumLabel(t, HouseType, a.type)} · {enumLabel(t, Identity, a.identity)}
                  {a.houseCertCode ? ` · ${t('workOrders.certificate')} ${a.houseCertCode}` : ''}
                </List.Description>
              </List.Content>
            </List.Item>
          ))}
        </List>
      )}
    </DraggableDialog>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { List, Loader } from 'semantic-ui-react';
import { Identity } from '@pm/shared';
import { fetchResidentContext, type ResidentContext } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { EmptyPlaceholder } from '../../ui/components/EmptyPlaceholder';
import { enumLabel } from '../../ui/utils/enumLabels';
import { unitDisplay } from '../../ui/utils/unitDisplay';

/** A person's houses (units, car park spaces, shops) and identity in each, from an address-book entry. */
export function PersonHousesDialog({
  person,
  onClose,
}: {
  person: { personId: number; name: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [data, setData] = useState<ResidentContext | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchResidentContext(person.personId, abort.signal).then(setData, () => undefined);
    return () => abort.abort();
  }, [person.personId]);
  return (
    <DraggableDialog
      open
      title={t('im.houses.title', { name: person.name })}
      onClose={onClose}
      data-testid="person-houses-dialog"
    >
      {!data ? (
        <Loader active inline="centered" />
      ) : data.houses.length === 0 ? (
        <EmptyPlaceholder text={t('im.houses.none')} />
      ) : (
        <List divided>
          {data.houses.map((h) => (
            <List.Item key={h.personHouseId}>
              <List.Content>
                <List.Header>{unitDisplay(h)}</List.Header>
                <List.Description>
                  {t(`workOrders.houseType.h${h.houseType}`)} · {enumLabel(t, Identity, h.identity)}
                </List.Description>
              </List.Content>
            </List.Item>
          ))}
        </List>
      )}
    </DraggableDialog>
  );
}

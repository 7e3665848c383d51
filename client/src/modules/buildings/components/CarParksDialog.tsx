import { useState } from 'react';
import { Button, Form, List } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { deleteCarPark, saveCarPark, type CarParkRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';

/** The estate's car parks: add, rename, delete (refused while anyone is bound to one of its spaces). */
export function CarParksDialog({
  open,
  carParks,
  onClose,
  onChanged,
}: {
  open: boolean;
  carParks: CarParkRow[];
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);
  const [shown, setShown] = useState(false);
  const required = t('buildings.messages.required', { field: t('buildings.fields.carParkName') });

  const save = async (value: string, id?: number) => {
    if (!value.trim()) return setShown(true);
    try {
      await saveCarPark(value.trim(), id);
      showToast('success', t('buildings.messages.saved'));
      setName('');
      setEditing(null);
      setShown(false);
      onChanged();
    } catch {
      // told
    }
  };
  const remove = async (c: CarParkRow) => {
    if (!(await confirm(t('buildings.messages.confirmDelete', { name: c.name })))) return;
    try {
      await deleteCarPark(c.carParkId);
      showToast('success', t('buildings.messages.deleted'));
      onChanged();
    } catch {
      // told
    }
  };

  return (
    <DraggableDialog
      open={open}
      title={t('buildings.titles.carParks')}
      onClose={onClose}
      data-testid="carparks-dialog"
      actions={<Button onClick={onClose}>{t('buildings.actions.close')}</Button>}
    >
      <Form noValidate onSubmit={() => void save(name)} className="buildings-inline-form">
        <Form.Input
          id="carpark-name"
          label={t('buildings.fields.carParkName')}
          value={name}
          maxLength={50}
          onChange={(_, d) => setName(d.value)}
          error={shown && !name.trim() ? { content: required, pointing: 'above' } : undefined}
          data-testid="carpark-name"
        />
        <Button primary type="submit" data-testid="carpark-add">
          {t('buildings.actions.addCarPark')}
        </Button>
      </Form>
      <List divided>
        {carParks.map((c) => (
          <List.Item key={c.carParkId} data-testid={`carpark-${c.carParkId}`}>
            {editing?.id === c.carParkId ? (
              <Form
                noValidate
                size="small"
                onSubmit={() => void save(editing.name, c.carParkId)}
                className="buildings-inline-form"
              >
                <Form.Input
                  id={`carpark-rename-${c.carParkId}`}
                  label={t('buildings.fields.carParkName')}
                  value={editing.name}
                  onChange={(_, d) => setEditing({ id: c.carParkId, name: d.value })}
                />
                <Button size="small" primary type="submit">
                  {t('buildings.actions.save')}
                </Button>
                <Button size="small" type="button" onClick={() => setEditing(null)}>
                  {t('buildings.actions.cancel')}
                </Button>
              </Form>
            ) : (
              <div className="buildings-floor-row">
                <span>
                  {c.name} · {t('buildings.fields.spaceCount')}: {c.spaceCount}
                </span>
                <span className="buildings-actions">
                  <Button size="mini" basic onClick={() => setEditing({ id: c.carParkId, name: c.name })}>
                    {t('buildings.actions.editCarPark')}
                  </Button>
                  <Button size="mini" basic negative onClick={() => void remove(c)}>
                    {t('buildings.actions.deleteCarPark')}
                  </Button>
                </span>
              </div>
            )}
          </List.Item>
        ))}
      </List>
    </DraggableDialog>
  );
}

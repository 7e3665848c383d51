import { useState } from 'react';
import { Button, Form, List, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { deleteBlock, deleteFloor, updateFloor, type BlockRow, type FloorRow } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';
import { BlockDialog } from './BlockDialog';

/**
 * The estate's blocks and their floors: edit or delete a block, rename or delete a floor. A
 * delete is refused by the api while anyone is bound (its message is shown).
 */
export function BlocksDialog({
  open,
  blocks,
  onClose,
  onChanged,
}: {
  open: boolean;
  blocks: BlockRow[];
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<BlockRow | null>(null);

  const remove = async (what: () => Promise<unknown>, name: string) => {
    if (!(await confirm(t('buildings.messages.confirmDelete', { name })))) return;
    try {
      await what();
      showToast('success', t('buildings.messages.deleted'));
      onChanged();
    } catch {
      // the call has told the person (e.g. someone is still bound)
    }
  };

  return (
    <DraggableDialog
      open={open}
      title={t('buildings.titles.blocks')}
      onClose={onClose}
      size="small"
      data-testid="blocks-dialog"
      actions={<Button onClick={onClose}>{t('buildings.actions.close')}</Button>}
    >
      {blocks.length === 0 && <p>{t('buildings.empty.blocks')}</p>}
      {blocks.map((b) => (
        <Segment key={b.blockId} data-testid={`block-${b.blockId}`}>
          <div className="buildings-block-head">
            <strong>
              {b.name} ({b.number})
            </strong>
            <span>
              {t('buildings.fields.units')}: {b.unitCount}
            </span>
            <span className="buildings-actions">
              <Button size="mini" basic onClick={() => setEditing(b)} data-testid="edit-block">
                {t('buildings.actions.editBlock')}
              </Button>
              <Button
                size="mini"
                basic
                negative
                onClick={() => void remove(() => deleteBlock(b.blockId), b.name)}
                data-testid="delete-block"
              >
                {t('buildings.actions.deleteBlock')}
              </Button>
            </span>
          </div>
          <List divided className="buildings-floors">
            {b.floors.map((f) => (
              <FloorItem
                key={f.floorId}
                floor={f}
                onChanged={onChanged}
                onDelete={() => void remove(() => deleteFloor(f.floorId), `${b.name} ${f.name}`)}
              />
            ))}
          </List>
        </Segment>
      ))}
      {editing && (
        <BlockDialog
          key={editing.blockId}
          block={editing}
          open
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            onChanged();
          }}
        />
      )}
    </DraggableDialog>
  );
}

function FloorItem({ floor, onChanged, onDelete }: { floor: FloorRow; onChanged: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState<string | null>(null);
  const save = async () => {
    if (!name?.trim()) return;
    try {
      await updateFloor(floor.floorId, name.trim());
      showToast('success', t('buildings.messages.saved'));
      setName(null);
      onChanged();
    } catch {
      // told
    }
  };
  return (
    <List.Item data-testid={`floor-${floor.floorId}`}>
      {name === null ? (
        <div className="buildings-floor-row">
          <span>
            {t('buildings.fields.floor')} {floor.name}
          </span>
          <span className="buildings-actions">
            <Button size="mini" basic onClick={() => setName(floor.name)}>
              {t('buildings.actions.editFloor')}
            </Button>
            <Button size="mini" basic negative onClick={onDelete}>
              {t('buildings.actions.deleteFloor')}
            </Button>
          </span>
        </div>
      ) : (
        <Form size="mini" onSubmit={() => void save()} className="buildings-floor-row">
          <Form.Input
            id={`floor-name-${floor.floorId}`}
            label={t('buildings.fields.floorName')}
            value={name}
            onChange={(_, d) => setName(d.value)}
            error={
              !name.trim() ? t('buildings.messages.required', { field: t('buildings.fields.floorName') }) : undefined
            }
          />
          <Button size="mini" primary type="submit">
            {t('buildings.actions.save')}
          </Button>
          <Button size="mini" type="button" onClick={() => setName(null)}>
            {t('buildings.actions.cancel')}
          </Button>
        </Form>
      )}
    </List.Item>
  );
}

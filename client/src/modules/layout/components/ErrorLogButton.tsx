import { useState } from 'react';
import { Button, Icon, Label, Table } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { errorLogState } from '../../ui/states/errorLog';
import { DraggableDialog } from '../../ui/components/DraggableDialog';

/** Shown only when client errors were collected in this tab. */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const snap = useSnapshot(errorLogState);
  const [open, setOpen] = useState(false);
  if (snap.errors.length === 0) return null;
  return (
    <>
      <Button
        basic
        icon
        className="topbar-button"
        title={t('layout.errorLog')}
        aria-label={t('layout.errorLog')}
        onClick={() => setOpen(true)}
        data-testid="error-log"
      >
        <Icon name="bug" color="red" />
        <Label color="red" floating circular size="mini">
          {snap.errors.length}
        </Label>
      </Button>
      <DraggableDialog open={open} onClose={() => setOpen(false)} title={t('layout.errorLog')} size="large">
        <Table compact celled>
          <Table.Body>
            {snap.errors.map((e, i) => (
              <Table.Row key={i}>
                <Table.Cell collapsing>{e.time}</Table.Cell>
                <Table.Cell>{e.message}</Table.Cell>
                <Table.Cell>{e.source}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      </DraggableDialog>
    </>
  );
}

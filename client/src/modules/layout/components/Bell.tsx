import { useState } from 'react';
import { Button, Icon, Label, Popup, type SemanticICONS } from 'semantic-ui-react';
import { BADGE_MAX } from '@pm/shared';
import { NotificationPanel } from '../../messages/components/NotificationPanel';

interface Props {
  icon: SemanticICONS;
  label: string;
  count: number;
  types: number[];
  testId: string;
}

/** A bell of the top bar with its unread badge (capped at 99+) and its panel. */
export function Bell({ icon, label, count, types, testId }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <Popup
      on="click"
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      position="bottom right"
      wide="very"
      className="bell-popup"
      header={label}
      content={open ? <NotificationPanel types={types} onNavigate={() => setOpen(false)} /> : null}
      trigger={
        <Button basic icon className="topbar-button" aria-label={label} title={label} data-testid={testId}>
          <Icon name={icon} />
          {count > 0 && (
            <Label color="red" floating circular size="mini" data-testid={`${testId}-count`}>
              {count > BADGE_MAX ? `${BADGE_MAX}+` : count}
            </Label>
          )}
        </Button>
      }
    />
  );
}

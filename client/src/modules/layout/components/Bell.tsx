import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const shown = count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
  // The name includes the badge people see ("Messages: 3 unread").
  const name = count > 0 ? t('layout.bellUnread', { label, number: shown }) : label;
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
        <Button basic icon className="topbar-button" aria-label={name} title={name} data-testid={testId}>
          <Icon name={icon} aria-hidden="true" />
          {count > 0 && (
            <Label color="red" floating circular size="mini" data-testid={`${testId}-count`}>
              {shown}
            </Label>
          )}
        </Button>
      }
    />
  );
}

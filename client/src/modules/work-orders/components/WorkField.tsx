import type { ReactNode } from 'react';
import { Grid } from 'semantic-ui-react';

/** One label and value of a record's details. */
export function WorkField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Grid.Row className="work-field">
      <Grid.Column width={5} className="work-field-label">
        {label}
      </Grid.Column>
      <Grid.Column width={11}>{children}</Grid.Column>
    </Grid.Row>
  );
}

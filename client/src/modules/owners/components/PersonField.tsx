import type { ReactNode } from 'react';

/** One labelled value of a person dialog (a description list row). */
export function PersonField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="owners-field">
      <dt>{label}</dt>
      <dd>{children === '' || children === null || children === undefined ? '–' : children}</dd>
    </div>
  );
}

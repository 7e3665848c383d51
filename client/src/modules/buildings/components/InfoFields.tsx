import type { ReactNode } from 'react';

/** The read-only fields of a house, as a definition list (label, value). */
export function InfoFields({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className="buildings-info" data-testid="house-fields">
      {items.map(([label, value]) => (
        <div key={label} className="buildings-info-item">
          <dt>{label}</dt>
          <dd>{value === null || value === '' || value === undefined ? '–' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

import { useId } from 'react';
import { Form } from 'semantic-ui-react';

/** A labelled native select that always has a value (no "any" choice), for dialog forms. */
export function ChoiceField({
  label,
  value,
  onChange,
  options,
  ...rest
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string | number; text: string }[];
  'data-testid'?: string;
}) {
  const id = useId();
  return (
    <Form.Field>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={rest['data-testid']}>
        {options.map((o) => (
          <option key={o.value} value={String(o.value)}>
            {o.text}
          </option>
        ))}
      </select>
    </Form.Field>
  );
}

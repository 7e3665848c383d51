import { useId } from 'react';
import { Form } from 'semantic-ui-react';

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string | number; text: string }[];
  /** Text of the empty choice ('' = not set). */
  emptyText: string;
  'data-testid'?: string;
}

/** A labelled native select: named for screen readers, operable with the keyboard, '' for "any". */
export function SelectField({ label, value, onChange, options, emptyText, ...rest }: Props) {
  const id = useId();
  return (
    <Form.Field>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={rest['data-testid']}>
        <option value="">{emptyText}</option>
        {options.map((o) => (
          <option key={o.value} value={String(o.value)}>
            {o.text}
          </option>
        ))}
      </select>
    </Form.Field>
  );
}

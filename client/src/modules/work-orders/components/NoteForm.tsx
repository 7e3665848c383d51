import { useId, useState } from 'react';
import { Button, Form, Header, Segment } from 'semantic-ui-react';
import { confirm } from '../../ui/states/confirms';
import { PictureUpload } from './WorkMedia';

interface Props {
  /** Field name and test-id prefix: `dealNote` / `deal-form`, `deal-submit`. */
  name: 'deal' | 'complete';
  title: string;
  label: string;
  /** Shown while the note is empty (checked on change, SPEC §5). */
  requiredMessage: string;
  /** The confirmation that names the new status. */
  confirmText: string;
  submitText: string;
  uploadKind: string;
  /** Saves; the form stays open when it throws (the data-access layer told why). */
  onSubmit: (note: string, img: string) => Promise<void>;
}

/** A required note with pictures, confirmed before it is sent: the shape of "deal with" and "complete". */
export function NoteForm({
  name,
  title,
  label,
  requiredMessage,
  confirmText,
  submitText,
  uploadKind,
  onSubmit,
}: Props) {
  const id = useId();
  const [note, setNote] = useState('');
  const [img, setImg] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const error = touched && !note.trim() ? requiredMessage : '';
  const submit = async () => {
    setTouched(true);
    if (!note.trim()) return;
    if (!(await confirm(confirmText))) return;
    setBusy(true);
    try {
      await onSubmit(note.trim(), img);
    } catch {
      // shown by the data-access layer
    } finally {
      setBusy(false);
    }
  };
  return (
    <Segment data-testid={`${name}-form`}>
      <Header as="h3" size="tiny">
        {title}
      </Header>
      <Form>
        <Form.TextArea
          id={`${id}-note`}
          name={`${name}Note`}
          label={label}
          value={note}
          autoFocus
          error={error || undefined}
          onChange={(_, d) => {
            setNote(String(d.value ?? ''));
            setTouched(true);
          }}
        />
        <PictureUpload kind={uploadKind} value={img} onChange={setImg} />
        <Button
          primary
          type="button"
          loading={busy}
          onClick={() => void submit()}
          data-testid={`${name}-submit`}
          style={{ marginTop: '1em' }}
        >
          {submitText}
        </Button>
      </Form>
    </Segment>
  );
}

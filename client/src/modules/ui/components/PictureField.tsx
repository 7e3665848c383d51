import { useId, useRef, useState } from 'react';
import { Button, Form, Image } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { imageUrl, uploadImage } from '../../api';
import { showToast } from '../states/toasts';

const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/**
 * One picture, uploaded at once to the upload service (which checks it by its bytes): a preview,
 * "Upload" / "Replace", and "Remove" when it may be empty. `value` is the upload path ('' = none).
 * A file that is no picture is refused before it is sent (SPEC §5 "please choose the correct file
 * format"); the service refuses one that only claims to be.
 */
export function PictureField({
  label,
  kind,
  value,
  onChange,
  required,
  error,
  'data-testid': testId,
}: {
  label: string;
  /** The upload folder (`POST /upload/uploadimage/{kind}`). */
  kind: string;
  value: string;
  onChange: (path: string) => void;
  required?: boolean;
  error?: string | null;
  'data-testid'?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (!PICTURE_TYPES.includes(file.type)) {
      showToast('error', t('errors.fileFormat'));
      return;
    }
    setBusy(true);
    try {
      onChange(await uploadImage(kind, file, file.name));
    } catch {
      // The data-access layer showed the service's message (format, size, quota).
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <Form.Field required={required} error={!!error} data-testid={testId}>
      <label id={`${id}-label`}>{label}</label>
      <div className="picture-field" role="group" aria-labelledby={`${id}-label`}>
        {value ? (
          <Image src={imageUrl(value)} size="small" rounded bordered alt={label} data-testid="picture-preview" />
        ) : (
          <span className="picture-field-empty">{t('common.noPicture')}</span>
        )}
        <input
          ref={input}
          type="file"
          accept={PICTURE_TYPES.join(',')}
          hidden
          onChange={(e) => void choose(e.target.files?.[0])}
          data-testid="picture-input"
        />
        <Button
          type="button"
          basic
          icon="upload"
          content={value ? t('common.replacePicture') : t('common.uploadPicture')}
          aria-describedby={`${id}-label`}
          // Not disabled while uploading: the focus stays on the button (a keyboard user goes on from it).
          loading={busy}
          aria-busy={busy}
          onClick={() => !busy && input.current?.click()}
          data-testid="picture-upload"
        />
        {value && !required && (
          <Button
            type="button"
            basic
            icon="trash alternate outline"
            content={t('common.removePicture')}
            aria-describedby={`${id}-label`}
            onClick={() => onChange('')}
            data-testid="picture-remove"
          />
        )}
      </div>
      {error && (
        <div className="ui pointing above prompt label" role="alert" id={`${id}-error`}>
          {error}
        </div>
      )}
    </Form.Field>
  );
}

import { useRef, useState } from 'react';
import { Button, Image } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { imageUrl, uploadImage } from '../../api';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { mediaList } from '../utils/workFormat';

/** Thumbnails of `;`-joined pictures; each is a button that opens the picture in a viewer. */
export function PictureList({ joined }: { joined: string | null | undefined }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const pictures = mediaList(joined);
  if (pictures.length === 0) return <span className="work-muted">{t('workOrders.noPictures')}</span>;
  return (
    <div className="work-pictures" data-testid="work-pictures">
      {pictures.map((p, i) => (
        <button
          key={p}
          type="button"
          className="work-picture-button"
          aria-label={t('workOrders.openPicture', { number: i + 1 })}
          onClick={() => setOpen(p)}
        >
          <Image src={imageUrl(p)} size="tiny" rounded bordered alt="" />
        </button>
      ))}
      <DraggableDialog open={open !== null} onClose={() => setOpen(null)} title={t('workOrders.pictures')} size="large">
        {open && <Image src={imageUrl(open)} centered alt="" />}
      </DraggableDialog>
    </div>
  );
}

/** Chooses pictures and uploads them at once; `onChange` gets the `;`-joined paths. */
export function PictureUpload({
  kind,
  value,
  onChange,
}: {
  kind: string;
  value: string;
  onChange: (joined: string) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const pictures = mediaList(value);
  const add = async (files: FileList | null) => {
    if (!files?.length) return;
    setBusy(true);
    try {
      const paths = [];
      for (const f of Array.from(files)) paths.push(await uploadImage(kind, f, f.name));
      onChange([...pictures, ...paths].join(';'));
    } catch {
      // The data-access layer already showed the api's message (wrong format, too large).
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="work-pictures">
      {pictures.map((p, i) => (
        <span key={p} className="work-picture-edit">
          <Image src={imageUrl(p)} size="tiny" rounded bordered alt="" />
          <button
            type="button"
            className="work-picture-remove"
            aria-label={t('workOrders.removePicture', { number: i + 1 })}
            onClick={() => onChange(pictures.filter((x) => x !== p).join(';'))}
          >
            <i className="close icon" aria-hidden="true" />
          </button>
        </span>
      ))}
      <input
        ref={input}
        type="file"
        accept="image/*"
        multiple
        hidden
        aria-label={t('workOrders.addPictures')}
        onChange={(e) => void add(e.target.files)}
      />
      <Button
        type="button"
        basic
        icon="image"
        content={t('workOrders.addPictures')}
        loading={busy}
        onClick={() => input.current?.click()}
      />
    </div>
  );
}

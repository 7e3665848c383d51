import { useRef, useState } from 'react';
import { Button, Icon, Image, Modal } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { imageUrl, uploadImage } from '../../api';
import { mediaList } from '../utils/workFormat';

/** Thumbnails of `;`-joined pictures; a click opens the picture in a viewer. */
export function PictureList({ joined }: { joined: string | null | undefined }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const pictures = mediaList(joined);
  if (pictures.length === 0) return <span className="work-muted">{t('workOrders.noPictures')}</span>;
  return (
    <div className="work-pictures" data-testid="work-pictures">
      {pictures.map((p) => (
        <Image key={p} src={imageUrl(p)} size="tiny" rounded bordered as="a" onClick={() => setOpen(p)} alt="" />
      ))}
      <Modal open={open !== null} onClose={() => setOpen(null)} closeIcon basic size="large">
        <Modal.Content image>{open && <Image src={imageUrl(open)} centered alt="" />}</Modal.Content>
      </Modal>
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
      {pictures.map((p) => (
        <span key={p} className="work-picture-edit">
          <Image src={imageUrl(p)} size="tiny" rounded bordered alt="" />
          <Icon name="close" link onClick={() => onChange(pictures.filter((x) => x !== p).join(';'))} />
        </span>
      ))}
      <input ref={input} type="file" accept="image/*" multiple hidden onChange={(e) => void add(e.target.files)} />
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

/** 1–3 stars (SPEC §3 service ratings). */
export function Stars({ value }: { value: number | null }) {
  return (
    <span className="work-stars" aria-label={String(value ?? 0)}>
      {[1, 2, 3].map((n) => (
        <Icon key={n} name={value !== null && n <= value ? 'star' : 'star outline'} color="yellow" />
      ))}
    </span>
  );
}

import { useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { Button, Form, Image } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { imageUrl, savePerson, uploadImage, type PersonInfo } from '../../api';
import { session, updateProfile } from '../../auth/states/session';
import { DraggableDialog } from '../../ui/components/DraggableDialog';
import { showToast } from '../../ui/states/toasts';
import { cropImage } from '../utils/cropImage';

/** Edit profile: name, and an avatar cropped to 300×300 PNG and uploaded (SPEC §2, §7). */
export function EditProfileDialog({ person, onClose }: { person: PersonInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const snap = useSnapshot(session);
  const [name, setName] = useState(person.name);
  const [nameError, setNameError] = useState('');
  const [source, setSource] = useState<string | null>(null);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      showToast('error', t('errors.fileFormat'));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => setSource(String(reader.result));
    reader.readAsDataURL(file);
  };

  const save = async () => {
    // SPEC §5: the rule on name is checked only on submit.
    if (!name.trim()) {
      setNameError(t('validation.nameRequired'));
      return;
    }
    if (snap.pId === undefined) return;
    setBusy(true);
    try {
      let url = person.images?.[0]?.url ?? '';
      if (source && area) url = await uploadImage('user', await cropImage(source, area), 'avatar.png');
      await savePerson(snap.pId, name.trim(), url ? [{ url }] : []);
      updateProfile(name.trim(), url);
      onClose();
    } catch {
      // the http layer showed the reason
    } finally {
      setBusy(false);
    }
  };

  return (
    <DraggableDialog
      open
      onClose={onClose}
      title={t('profile.edit')}
      size="small"
      data-testid="edit-profile-dialog"
      actions={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button primary loading={busy} disabled={busy} onClick={() => void save()} data-testid="profile-save">
            {t('common.save')}
          </Button>
        </>
      }
    >
      <Form>
        <Form.Field>
          <label>{t('profile.avatar')}</label>
          {source ? (
            <div className="avatar-cropper">
              <Cropper
                image={source}
                crop={crop}
                zoom={zoom}
                aspect={1}
                cropShape="round"
                onCropChange={setCrop}
                onZoomChange={setZoom}
                onCropComplete={(_, px) => setArea(px)}
              />
            </div>
          ) : (
            person.images?.[0]?.url && <Image src={imageUrl(person.images[0].url)} size="tiny" circular />
          )}
          <label className="ui basic button small choose-avatar">
            {t('profile.chooseAvatar')}
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              hidden
              onChange={(e) => choose(e.target.files?.[0])}
              data-testid="avatar-file"
            />
          </label>
        </Form.Field>
        <Form.Input
          id="profile-name"
          label={t('profile.name')}
          value={name}
          onChange={(_, d) => {
            setName(String(d.value));
            setNameError('');
          }}
          error={nameError ? { content: nameError, pointing: 'above' } : undefined}
          data-testid="profile-name-input"
        />
      </Form>
    </DraggableDialog>
  );
}

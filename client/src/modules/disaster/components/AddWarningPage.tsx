import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Checkbox, Form, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { DisasterType } from '@pm/shared';
import { fetchWarningBlocks, releaseWarning } from '../../api';
import { SelectField } from '../../ui/components/SelectField';
import { showToast } from '../../ui/states/toasts';
import { enumOptions } from '../../ui/utils/enumLabels';
import '../disaster.css';

/**
 * SPEC §2 add-disaster-warning: type, content and optionally the blocks it concerns. It goes to
 * every resident of the estate (or of those blocks) and every committee and office staff member.
 */
export default function AddWarningPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [type, setType] = useState('');
  const [content, setContent] = useState('');
  const [blocks, setBlocks] = useState<{ id: number; name: string }[]>([]);
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    fetchWarningBlocks(abort.signal).then(setBlocks, () => undefined);
    return () => abort.abort();
  }, []);
  const ready = type !== '' && content.trim() !== '';
  const submit = async () => {
    if (!ready) return;
    setBusy(true);
    try {
      const warn = await releaseWarning({ type: Number(type), content: content.trim(), blockIds: chosen });
      showToast('success', t('disaster.messages.released'));
      navigate(`/disaster-warning/disaster-release?open=${warn.id}`);
    } catch {
      setBusy(false);
    }
  };
  const toggle = (id: number, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  return (
    <Segment className="disaster-screen add-warning" data-testid="add-warning">
      <Form onSubmit={() => void submit()}>
        <SelectField
          label={t('disaster.columns.type')}
          value={type}
          onChange={setType}
          options={enumOptions(t, DisasterType)}
          emptyText={t('disaster.warn.chooseType')}
          data-testid="warn-type"
        />
        <Form.TextArea
          id="warn-content"
          label={t('disaster.columns.content')}
          value={content}
          rows={4}
          maxLength={2000}
          onChange={(_, d) => setContent(String(d.value ?? ''))}
          data-testid="warn-content-input"
        />
        <fieldset className="warn-blocks">
          <legend>{t('disaster.warn.blocks')}</legend>
          <p className="warn-hint">{t('disaster.warn.blocksHint')}</p>
          {blocks.map((b) => (
            <Checkbox
              key={b.id}
              id={`warn-block-${b.id}`}
              label={b.name}
              checked={chosen.includes(b.id)}
              onChange={(_, d) => toggle(b.id, !!d.checked)}
              data-testid="warn-block"
            />
          ))}
        </fieldset>
        <p className="warn-hint" data-testid="warn-audience">
          {chosen.length === 0
            ? t('disaster.warn.audienceAll')
            : t('disaster.warn.audienceBlocks', { count: chosen.length })}
        </p>
        <Button type="submit" color="red" disabled={!ready || busy} loading={busy} data-testid="warn-submit">
          {t('disaster.warn.release')}
        </Button>
        <Button type="button" basic onClick={() => navigate('/disaster-warning/disaster-release')}>
          {t('common.cancel')}
        </Button>
      </Form>
    </Segment>
  );
}

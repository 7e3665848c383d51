import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Button, Form } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchCompany, saveCompanyAndHotlines, type CompanyInfo } from '../../api';
import { session } from '../../auth/states/session';
import { showToast } from '../../ui/states/toasts';

const TEL = /^\+?\d[\d -]{1,18}\d$/;

interface Draft {
  name: string;
  contactPerson: string;
  contactTel: string;
  address: string;
  hotlines: { name: string; tel: string }[];
}

const draftOf = (c: CompanyInfo): Draft => ({
  name: c.name,
  contactPerson: c.contactPerson ?? '',
  contactTel: c.contactTel ?? '',
  address: c.address ?? '',
  hotlines: c.hotlines.map((h) => ({ name: h.name, tel: h.tel })),
});

/** The enterprise profile (SPEC §3: name, contact person and number) and the estate's hotlines, saved together. */
export function CompanyTab() {
  const { t } = useTranslation();
  const { companyId } = useSnapshot(session);
  const [company, setCompany] = useState<CompanyInfo | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [shown, setShown] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!companyId) return;
    const abort = new AbortController();
    fetchCompany(companyId, abort.signal).then(
      (c) => {
        setCompany(c);
        setDraft(draftOf(c));
      },
      () => undefined,
    );
    return () => abort.abort();
  }, [companyId]);

  if (!company || !draft) return <div className="ui active centered inline loader" aria-label={t('common.loading')} />;
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const setHotline = (i: number, patch: Partial<Draft['hotlines'][number]>) =>
    set({ hotlines: draft.hotlines.map((h, j) => (j === i ? { ...h, ...patch } : h)) });
  const need = (v: string, key: string) =>
    shown && !v.trim() ? { content: t(key), pointing: 'above' as const } : undefined;
  const tel = (v: string, key: string) =>
    shown && !v.trim()
      ? { content: t(key), pointing: 'above' as const }
      : shown && !TEL.test(v.trim())
        ? { content: t('validation.onlyNumbers'), pointing: 'above' as const }
        : undefined;
  const invalid =
    !draft.name.trim() ||
    !draft.contactPerson.trim() ||
    !TEL.test(draft.contactTel.trim()) ||
    draft.hotlines.some((h) => !h.name.trim() || !TEL.test(h.tel.trim()));

  const submit = async () => {
    setShown(true);
    if (invalid || saving) return;
    setSaving(true);
    try {
      const saved = await saveCompanyAndHotlines({
        company: {
          companyId: company.companyId,
          name: draft.name.trim(),
          contactPerson: draft.contactPerson.trim(),
          contactTel: draft.contactTel.trim(),
          address: draft.address.trim() || null,
        },
        hotlines: draft.hotlines.map((h) => ({ name: h.name.trim(), tel: h.tel.trim() })),
      });
      setCompany(saved);
      setDraft(draftOf(saved));
      setShown(false);
      showToast('success', t('enterprise.company.saved'), { key: 'company-saved' });
    } catch {
      // told by the data-access layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form className="enterprise-company" onSubmit={() => void submit()} noValidate data-testid="company-form">
      <Form.Input
        id="company-name"
        label={t('enterprise.company.fields.name')}
        required
        maxLength={100}
        value={draft.name}
        onChange={(_, v) => set({ name: v.value })}
        error={need(draft.name, 'enterprise.company.errors.name')}
        data-testid="company-name"
      />
      <Form.Input
        id="company-contact-person"
        label={t('enterprise.company.fields.contactPerson')}
        required
        maxLength={50}
        value={draft.contactPerson}
        onChange={(_, v) => set({ contactPerson: v.value })}
        error={need(draft.contactPerson, 'enterprise.company.errors.contactPerson')}
        data-testid="company-contact-person"
      />
      <Form.Input
        id="company-contact-tel"
        label={t('enterprise.company.fields.contactTel')}
        required
        maxLength={20}
        inputMode="tel"
        value={draft.contactTel}
        onChange={(_, v) => set({ contactTel: v.value })}
        error={tel(draft.contactTel, 'enterprise.company.errors.contactTel')}
        data-testid="company-contact-tel"
      />
      <Form.Input
        id="company-address"
        label={t('enterprise.company.fields.address')}
        maxLength={200}
        value={draft.address}
        onChange={(_, v) => set({ address: v.value })}
        data-testid="company-address"
      />
      <fieldset className="ui segment" aria-describedby="hotlines-hint">
        <legend>{t('enterprise.company.hotlines')}</legend>
        <p id="hotlines-hint">{t('enterprise.company.hotlinesHint')}</p>
        {draft.hotlines.map((h, i) => (
          <div className="enterprise-hotline" key={i} data-testid={`hotline-row-${i}`}>
            <Form.Input
              id={`hotline-name-${i}`}
              label={t('enterprise.company.fields.hotlineName', { n: i + 1 })}
              required
              maxLength={50}
              value={h.name}
              onChange={(_, v) => setHotline(i, { name: v.value })}
              error={need(h.name, 'enterprise.company.errors.hotlineName')}
            />
            <Form.Input
              id={`hotline-tel-${i}`}
              label={t('enterprise.company.fields.hotlineTel', { n: i + 1 })}
              required
              maxLength={20}
              inputMode="tel"
              value={h.tel}
              onChange={(_, v) => setHotline(i, { tel: v.value })}
              error={tel(h.tel, 'enterprise.company.errors.hotlineTel')}
            />
            <Button
              type="button"
              basic
              negative
              icon="trash alternate outline"
              aria-label={t('enterprise.company.removeHotline', { n: i + 1 })}
              onClick={() => set({ hotlines: draft.hotlines.filter((_, j) => j !== i) })}
            />
          </div>
        ))}
        {draft.hotlines.length < 20 && (
          <Button
            type="button"
            basic
            icon="plus"
            content={t('enterprise.company.addHotline')}
            onClick={() => set({ hotlines: [...draft.hotlines, { name: '', tel: '' }] })}
            data-testid="hotline-add"
          />
        )}
      </fieldset>
      <Button primary type="submit" loading={saving} disabled={saving} data-testid="company-save">
        {t('common.save')}
      </Button>
    </Form>
  );
}

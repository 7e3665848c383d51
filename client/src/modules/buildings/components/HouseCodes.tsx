import { useEffect, useState } from 'react';
import { Button, Header, Segment } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchQrPng, regenerateCode, revokeCode, saveBlob, type HouseKindName } from '../../api';
import { confirm } from '../../ui/states/confirms';
import { showToast } from '../../ui/states/toasts';

/**
 * A house's invite code and QR code (SPEC §1, §2 "scan to join the building"): shown, downloaded
 * as PNG, replaced by a new one or revoked (either way the old code stops working at once; a
 * revoked house has no code until a new one is made).
 */
export function HouseCodes({
  kind,
  id,
  name,
  inviteCode,
  canEdit,
  onChanged,
}: {
  kind: HouseKindName;
  id: number;
  name: string;
  inviteCode: string | null;
  canEdit: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [png, setPng] = useState<Blob | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setPng(null);
    if (inviteCode === null) return;
    let cancelled = false;
    fetchQrPng(kind, id).then(
      (blob) => !cancelled && setPng(blob),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [kind, id, inviteCode]);
  useEffect(() => {
    if (!png) return setUrl(null);
    const next = URL.createObjectURL(png);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [png]);

  const regenerate = async () => {
    // Nothing to lose when the house has no code: no question then.
    if (inviteCode !== null && !(await confirm(t('buildings.messages.confirmRegenerate', { name })))) return;
    await regenerateCode(kind, id);
    showToast('success', t('buildings.messages.regenerated'));
    onChanged();
  };
  const revoke = async () => {
    if (!(await confirm(t('buildings.messages.confirmRevoke', { name })))) return;
    await revokeCode(kind, id);
    showToast('success', t('buildings.messages.revoked'));
    onChanged();
  };

  return (
    <Segment className="buildings-codes" data-testid="house-codes">
      <Header as="h3" size="small">
        {t('buildings.fields.qrCode')}
      </Header>
      <div className="buildings-codes-body">
        {url && (
          <img
            src={url}
            alt={`${t('buildings.fields.qrCode')} ${name}`}
            width={140}
            height={140}
            data-testid="qr-image"
          />
        )}
        <div>
          <div className="buildings-field-label">{t('buildings.fields.inviteCode')}</div>
          {inviteCode === null ? (
            <p className="buildings-no-code" data-testid="no-invite-code">
              {t('buildings.messages.noCode')}
            </p>
          ) : (
            <>
              <code className="buildings-invite-code" data-testid="invite-code">
                {inviteCode}
              </code>
              <p className="buildings-help">{t('buildings.messages.qrHelp')}</p>
            </>
          )}
          <div className="buildings-actions">
            <Button
              size="small"
              icon="download"
              content={t('buildings.actions.downloadQr')}
              disabled={!png}
              onClick={() => png && saveBlob(png, `${name}-qrcode.png`)}
              data-testid="download-qr"
            />
            {canEdit && (
              <Button
                size="small"
                icon="refresh"
                content={t('buildings.actions.regenerate')}
                onClick={() => void regenerate().catch(() => undefined)}
                data-testid="regenerate-code"
              />
            )}
            {canEdit && inviteCode !== null && (
              <Button
                size="small"
                negative
                basic
                icon="ban"
                content={t('buildings.actions.revoke')}
                onClick={() => void revoke().catch(() => undefined)}
                data-testid="revoke-code"
              />
            )}
          </div>
        </div>
      </div>
    </Segment>
  );
}

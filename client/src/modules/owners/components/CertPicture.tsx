import { useEffect, useState } from 'react';
import { Image } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { fetchCertImage } from '../../api';

/**
 * A house-certificate picture from its staff-only route (never a public upload URL): fetched
 * with the session's token, shown from an object URL that is revoked when it goes.
 */
export function CertPicture({ path, size = 'tiny' }: { path: string | null; size?: 'mini' | 'tiny' | 'small' }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!path) return;
    const ac = new AbortController();
    let made: string | null = null;
    fetchCertImage(path, ac.signal)
      .then((u) => {
        made = u;
        setUrl(u);
      })
      .catch(() => setUrl(null));
    return () => {
      ac.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [path]);
  if (!path || !url) return null;
  return (
    <a href={url} target="_blank" rel="noreferrer" aria-label={t('owners.fields.certPicture')}>
      <Image src={url} size={size} alt={t('owners.fields.certPicture')} data-testid="cert-picture" />
    </a>
  );
}

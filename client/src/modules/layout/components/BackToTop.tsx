import { useEffect, useState } from 'react';
import { Button } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';

/** Appears after scrolling down a screen's height. */
export function BackToTop() {
  const { t } = useTranslation();
  const [show, setShow] = useState(false);
  useEffect(() => {
    const on = () => setShow(window.scrollY > 400);
    window.addEventListener('scroll', on, { passive: true });
    return () => window.removeEventListener('scroll', on);
  }, []);
  if (!show) return null;
  return (
    <Button
      circular
      icon="arrow up"
      color="teal"
      className="back-to-top"
      title={t('layout.backToTop')}
      aria-label={t('layout.backToTop')}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
    />
  );
}

import { useTranslation } from 'react-i18next';
import { LANGUAGES, parseLanguage } from '@pm/shared';
import { MenuButton } from '../../ui/components/MenuButton';
import { switchLanguage } from '../utils/switchLanguage';

/** Language menu of the login page and the top bar; the current language is disabled (SPEC §2). */
export function LanguageSelector({ inverted = false }: { inverted?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = parseLanguage(i18n.language) ?? 'en';
  return (
    <MenuButton
      data-testid="language-selector"
      className={inverted ? 'language-selector inverted' : 'language-selector'}
      label={t('layout.languageMenu', { language: t(`languages.${current}`) })}
      trigger={
        <>
          <i className="world icon" aria-hidden="true" />
          <span className="language-current">{t(`languages.${current}`)}</span>
        </>
      }
      items={LANGUAGES.map((l) => ({
        key: l,
        text: t(`languages.${l}`),
        disabled: l === current,
        current: l === current,
        onSelect: () => void switchLanguage(l),
        testId: `language-${l}`,
      }))}
    />
  );
}

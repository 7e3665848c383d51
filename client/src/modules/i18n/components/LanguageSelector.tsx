import { Dropdown } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, parseLanguage } from '@pm/shared';
import { switchLanguage } from '../utils/switchLanguage';

/** Language menu of the login page and the top bar; the current language is disabled (SPEC §2). */
export function LanguageSelector({ inverted = false }: { inverted?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = parseLanguage(i18n.language) ?? 'en';
  return (
    <Dropdown
      data-testid="language-selector"
      className={inverted ? 'language-selector inverted' : 'language-selector'}
      icon="world"
      trigger={<span className="language-current">{t(`languages.${current}`)}</span>}
      aria-label={t('layout.language')}
      direction="left"
    >
      <Dropdown.Menu>
        {LANGUAGES.map((l) => (
          <Dropdown.Item
            key={l}
            data-testid={`language-${l}`}
            text={t(`languages.${l}`)}
            disabled={l === current}
            active={l === current}
            onClick={() => void switchLanguage(l)}
          />
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}

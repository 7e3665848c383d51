import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './modules/ui/semantic/first-screen';
import '@fontsource/lato/400.css';
import '@fontsource/lato/700.css';
import '@fontsource/lato/400-italic.css';
import '@fontsource/lato/700-italic.css';
import { i18nReady } from './modules/i18n/i18n';
import './modules/ui/components/ui.css';
import { App } from './App';
import { installHttpHooks } from './modules/auth/utils/installHttpHooks';
import { collectClientErrors } from './modules/ui/states/errorLog';

installHttpHooks();
collectClientErrors();

// The detected language's texts first, so the first screen does not flash in English; should
// they fail to load, the console still starts (in English).
void i18nReady
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );

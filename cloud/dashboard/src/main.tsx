import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startI18n } from './i18n';
import { restoreSession } from './session';
import '@printwire/ui/styles.css';
import './styles.css';
import { App } from './app';
import { ApiErrorWords } from './ui';

// The session's refresh and the language's catalog load side by side, before the first render.
restoreSession().catch(() => undefined);
void startI18n().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ApiErrorWords>
        <App />
      </ApiErrorWords>
    </StrictMode>,
  ),
);

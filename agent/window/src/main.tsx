import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startI18n } from './i18n';
import '@printwire/ui/styles.css';
import './styles.css';
import { App } from './app';
import { AgentErrorWords } from './ui';

void startI18n().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AgentErrorWords>
        <App />
      </AgentErrorWords>
    </StrictMode>,
  ),
);

import { useTranslation } from 'react-i18next';
import { LanguageSwitcher as Switcher } from '@printwire/ui';

/** English, Français, Kreyòl ayisyen: each named in its own language. */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  return <Switcher label={t('frame.language')} />;
}

import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from './i18n';

/** English, Français, Kreyòl ayisyen: each named in its own language. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language">
      <span>{t('frame.language')}</span>
      <select value={i18n.language} onChange={(e) => void setLanguage(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}

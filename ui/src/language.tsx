import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from './i18n';

/** English, Français, Kreyòl ayisyen: each named in its own language; `label` is the app's word. */
export function LanguageSwitcher({ label }: { label: string }) {
  const { i18n } = useTranslation();
  const id = useId();
  return (
    <div className="language">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={i18n.language}
        onChange={(e) => void setLanguage(e.target.value as Language)}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The words of the template types, shared by the list and the editor. */
import { useTranslation } from 'react-i18next';
import type { TemplateType } from './data';

export function useTypeWords(): Record<TemplateType, string> {
  const { t } = useTranslation();
  return {
    receipt: t('templates.type.receipt'),
    zpl: t('templates.type.zpl'),
    epl: t('templates.type.epl'),
    html: t('templates.type.html'),
  };
}

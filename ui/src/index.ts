/** @printwire/ui: what both web apps build on. The i18n bootstrap is `@printwire/ui/i18n`. */
export { StatusBadge, ToneIcon, type Tone } from './badge';
export { Button, useAction, type Action } from './button';
export { ConfirmDialog, Dialog } from './dialog';
export {
  ErrorWordsProvider,
  FormError,
  LastData,
  LoadError,
  useErrorText,
  type DescribeError,
  type ErrorWords,
} from './errors';
export { Checkbox, Field, SelectField } from './field';
export { LanguageSwitcher } from './language';
export { Loading, PageTitle } from './page';
export { SecretPanel } from './secret';
export { ResourceTable, RowAction, type Column } from './table';

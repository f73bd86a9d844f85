/** The signed-in pages, loaded as one chunk after login (app.tsx routes to them lazily). */
export { Account } from './pages/account';
export { Billing } from './pages/billing';
export { Developers } from './pages/developers';
export { Members } from './pages/members';
export { NewOrganization, Settings, Start } from './pages/organization';
export { Overview } from './pages/overview';
export { Devices } from './pages/devices';
export { JobPage, Jobs } from './pages/jobs';
export { Printers } from './pages/printers';
export { ConnectPrinter } from './pages/printers/connect';
export { GroupEditor, PrinterGroups } from './pages/groups';
export { TemplateEditor, Templates } from './pages/templates';
export { Webhooks } from './pages/webhooks';

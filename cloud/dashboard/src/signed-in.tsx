/** The signed-in pages, loaded as one chunk after login (app.tsx routes to them lazily). */
export { Account } from './pages/account';
export { Billing } from './pages/billing';
export { Developers } from './pages/developers';
export { Members } from './pages/members';
export { NewOrganization, Overview, Settings, Start } from './pages/organization';

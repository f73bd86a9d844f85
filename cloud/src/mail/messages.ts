/**
 * The mails the dashboard sends, in the recipient's locale (en, fr, ht; anything else: en).
 * Every link carries `token=<token>` in its query and starts with PUBLIC_URL.
 */
export type MailKind = 'verify-email' | 'reset-password' | 'invitation';
export type Locale = 'en' | 'fr' | 'ht';

interface Text {
  subject: string;
  intro: string;
  action: string;
  outro: string;
}

const TEXTS: Record<Locale, Record<MailKind, (v: Record<string, string>) => Text>> = {
  en: {
    'verify-email': (v) => ({
      subject: 'Confirm your Printwire e-mail address',
      intro: `Hello ${v.name}, welcome to Printwire.`,
      action: 'Confirm your address by opening this link (valid 24 hours):',
      outro: 'If you did not sign up, ignore this message.',
    }),
    'reset-password': (v) => ({
      subject: 'Reset your Printwire password',
      intro: `Hello ${v.name}, someone asked to reset the password of your Printwire account.`,
      action: 'Choose a new password by opening this link (valid 1 hour):',
      outro: 'If it was not you, ignore this message: your password stays as it is.',
    }),
    invitation: (v) => ({
      subject: `${v.inviter} invites you to ${v.org} on Printwire`,
      intro: `${v.inviter} invites you to join ${v.org} on Printwire as ${v.role}.`,
      action: 'Accept the invitation by opening this link (valid 7 days):',
      outro: 'If you do not expect this invitation, ignore this message.',
    }),
  },
  fr: {
    'verify-email': (v) => ({
      subject: 'Confirmez votre adresse e-mail Printwire',
      intro: `Bonjour ${v.name}, bienvenue sur Printwire.`,
      action: 'Confirmez votre adresse en ouvrant ce lien (valable 24 heures) :',
      outro: 'Si vous ne vous êtes pas inscrit, ignorez ce message.',
    }),
    'reset-password': (v) => ({
      subject: 'Réinitialisez votre mot de passe Printwire',
      intro: `Bonjour ${v.name}, quelqu’un a demandé à réinitialiser le mot de passe de votre compte Printwire.`,
      action: 'Choisissez un nouveau mot de passe en ouvrant ce lien (valable 1 heure) :',
      outro: 'Si ce n’était pas vous, ignorez ce message : votre mot de passe ne change pas.',
    }),
    invitation: (v) => ({
      subject: `${v.inviter} vous invite dans ${v.org} sur Printwire`,
      intro: `${v.inviter} vous invite à rejoindre ${v.org} sur Printwire en tant que ${v.role}.`,
      action: 'Acceptez l’invitation en ouvrant ce lien (valable 7 jours) :',
      outro: 'Si vous n’attendiez pas cette invitation, ignorez ce message.',
    }),
  },
  ht: {
    'verify-email': (v) => ({
      subject: 'Konfime adrès imèl Printwire ou',
      intro: `Bonjou ${v.name}, byenvini sou Printwire.`,
      action: 'Konfime adrès ou lè ou louvri lyen sa a (li valab 24 èdtan):',
      outro: 'Si se pa ou ki te enskri, pa okipe mesaj sa a.',
    }),
    'reset-password': (v) => ({
      subject: 'Chanje modpas Printwire ou',
      intro: `Bonjou ${v.name}, yon moun mande pou chanje modpas kont Printwire ou.`,
      action: 'Chwazi yon nouvo modpas lè ou louvri lyen sa a (li valab 1 èdtan):',
      outro: 'Si se pa ou, pa okipe mesaj sa a: modpas ou pa chanje.',
    }),
    invitation: (v) => ({
      subject: `${v.inviter} envite ou nan ${v.org} sou Printwire`,
      intro: `${v.inviter} envite ou vin nan ${v.org} sou Printwire kòm ${v.role}.`,
      action: 'Aksepte envitasyon an lè ou louvri lyen sa a (li valab 7 jou):',
      outro: 'Si ou pa t ap tann envitasyon sa a, pa okipe mesaj sa a.',
    }),
  },
};

const PATHS: Record<MailKind, string> = {
  'verify-email': 'verify-email',
  'reset-password': 'reset-password',
  invitation: 'invitations/accept',
};

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The link a mail carries: PUBLIC_URL + the dashboard page + `?token=`. */
export function mailLink(publicUrl: string, kind: MailKind, token: string): string {
  const url = new URL(PATHS[kind], publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  url.searchParams.set('token', token);
  return url.toString();
}

export function composeMail(
  kind: MailKind,
  locale: string,
  input: { to: string; link: string; vars: Record<string, string> },
): { to: string; subject: string; text: string; html: string } {
  const lang: Locale = locale === 'fr' || locale === 'ht' ? locale : 'en';
  const t = TEXTS[lang][kind](input.vars);
  const text = `${t.intro}\n\n${t.action}\n${input.link}\n\n${t.outro}\n`;
  const html =
    `<p>${escapeHtml(t.intro)}</p><p>${escapeHtml(t.action)}<br>` +
    `<a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p><p>${escapeHtml(t.outro)}</p>`;
  return { to: input.to, subject: t.subject, text, html };
}

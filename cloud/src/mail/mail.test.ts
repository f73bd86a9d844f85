import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMailer, linksInEml } from './mailer.js';
import { composeMail, mailLink } from './messages.js';

test('without SMTP_URL a mail is written as an RFC 5322 .eml file with CRLF line ends', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pw-mail-'));
  try {
    const mailer = createMailer({ dir: join(dir, 'mail') });
    assert.equal(mailer.delivery, 'files');
    assert.equal(createMailer({ dir, smtpUrl: 'smtp://mail.example.com:587' }).delivery, 'smtp');
    const link = mailLink('https://print.example.com', 'verify-email', 'tok_abcdefghij');
    await mailer.send(
      composeMail('verify-email', 'fr', { to: 'ana@example.com', link, vars: { name: 'Ana' } }),
    );
    const files = await readdir(join(dir, 'mail'));
    assert.equal(files.length, 1);
    assert.match(files[0]!, /\.eml$/);
    const eml = await readFile(join(dir, 'mail', files[0]!), 'utf8');
    assert.match(eml, /^To: ana@example\.com\r$/m);
    assert.match(eml, /^Subject: /m);
    assert.match(eml, /\r\n\r\n/);
    assert.deepEqual(linksInEml(eml), [link]);
    assert.equal(link, 'https://print.example.com/verify-email?token=tok_abcdefghij');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('mails are written in the recipient’s locale, English for an unknown one', () => {
  const vars = { name: 'Ana', inviter: 'Bo', org: 'Shop', role: 'admin' };
  const link = 'https://x/?token=t';
  const en = composeMail('invitation', 'en', { to: 'a@b.c', link, vars });
  const fr = composeMail('invitation', 'fr', { to: 'a@b.c', link, vars });
  const ht = composeMail('invitation', 'ht', { to: 'a@b.c', link, vars });
  const xx = composeMail('invitation', 'de', { to: 'a@b.c', link, vars });
  assert.match(en.subject, /invites you/);
  assert.match(fr.subject, /vous invite/);
  assert.match(ht.subject, /envite ou/);
  assert.equal(xx.subject, en.subject);
  for (const m of [en, fr, ht]) assert.ok(m.text.includes(link) && m.html.includes('token=t'));
});

test('a link keeps the path of a PUBLIC_URL served under a prefix', () => {
  assert.equal(
    mailLink('https://x.example/printwire', 'reset-password', 'abc'),
    'https://x.example/printwire/reset-password?token=abc',
  );
});

/**
 * Mail delivery: SMTP through nodemailer when SMTP_URL is set, else every message is written as
 * an RFC 5322 `.eml` file (CRLF line ends) to `DATA_DIR/mail/`, which a self-hoster can open in
 * any mail client and tests read back.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/** Sends mail: SMTP or .eml files (createMailer), or a test's recorder. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string; html?: string }): Promise<void>;
  /**
   * How mail leaves: `files` when no SMTP server is set (.eml files in DATA_DIR/mail/), so the
   * dashboard can tell a person who signs up where the message went. Absent: `smtp`.
   */
  readonly delivery?: 'smtp' | 'files';
}

export interface MailerOptions {
  /** SMTP_URL (`smtp://user:pass@host:587`, `smtps://…`); unset: .eml files in `dir`. */
  smtpUrl?: string | undefined;
  /** Folder of the .eml files. */
  dir: string;
  /** The From address. Default `Printwire <no-reply@printwire.local>`. */
  from?: string;
}

export function createMailer(options: MailerOptions): Mailer {
  const from = options.from ?? 'Printwire <no-reply@printwire.local>';
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      delivery: 'smtp',
      async send(message) {
        await transport.sendMail({ from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  let created: Promise<unknown> | undefined;
  return {
    delivery: 'files',
    async send(message) {
      created ??= mkdir(options.dir, { recursive: true });
      await created;
      // Quoted-printable keeps the links readable in the file.
      const info = await transport.sendMail({
        from,
        ...message,
        textEncoding: 'quoted-printable',
      });
      // Names sort by time of sending.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(join(options.dir, name), info.message as Buffer);
    },
  };
}

/** The http(s) links in an .eml file's body, quoted-printable decoded (tests, tools). */
export function linksInEml(eml: string): string[] {
  const unfolded = eml.replace(/=\r?\n/g, '');
  const bytes = Buffer.from(
    unfolded.replace(/=([0-9A-F]{2})/g, (_m, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    ),
    'latin1',
  ).toString('utf8');
  return [...new Set(bytes.match(/https?:\/\/[^\s"<>]+/g) ?? [])];
}

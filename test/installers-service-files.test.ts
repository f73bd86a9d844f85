/**
 * The service files under installers/ checked as far as this Linux machine can: they are the
 * agent's own definitions (agent/src/service/), the launchd plist parses as a property list with
 * the keys and types launchd.plist(5) documents, the WinSW XML validates against the documented
 * schema (installers/windows/winsw.xsd), and the shell scripts parse.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedInstallerFiles } from '../installers/generated.js';
import { MACOS_CREATE_USER } from '@printwire/agent';

const INSTALLERS = fileURLToPath(new URL('../installers/', import.meta.url));
const PLIST = join(INSTALLERS, 'macos/com.printwire.agent.plist');
const WINSW_XML = join(INSTALLERS, 'windows/printwire-agent-service.xml');
const WINSW_XSD = join(INSTALLERS, 'windows/winsw.xsd');
const PLIST_DTD = fileURLToPath(new URL('fixtures/installers/plist-1.0.dtd', import.meta.url));

function run(command: string, ...args: string[]) {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status ?? (r.error ? 127 : 1), stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
const has = (command: string) => run('sh', '-c', `command -v ${command}`).code === 0;
const noXmllint = !has('xmllint') && 'xmllint is missing (Debian package libxml2-utils)';

/** launchd.plist(5): the keys the daemon uses and the type launchd expects for each. */
const LAUNCHD_KEYS: Record<string, string[]> = {
  Label: ['string'],
  ProgramArguments: ['array'],
  UserName: ['string'],
  GroupName: ['string'],
  EnvironmentVariables: ['dict'],
  WorkingDirectory: ['string'],
  RunAtLoad: ['true', 'false'],
  KeepAlive: ['true', 'false', 'dict'],
  ThrottleInterval: ['integer'],
  ExitTimeOut: ['integer'],
  ProcessType: ['string'],
  StandardOutPath: ['string'],
  StandardErrorPath: ['string'],
};

function xpath(file: string, expression: string): string {
  const r = run('xmllint', '--nonet', '--xpath', expression, file);
  assert.equal(r.code, 0, `${expression}: ${r.stderr}`);
  return r.stdout.trim();
}

describe('installer service files', () => {
  test('the files under installers/ are the ones the agent generates (npm run installers:generate)', () => {
    for (const [path, content] of Object.entries(generatedInstallerFiles())) {
      assert.equal(readFileSync(join(INSTALLERS, path), 'utf8'), content, `${path} is stale`);
    }
  });

  test('the launchd plist is a valid property list', () => {
    if (has('plutil')) {
      const lint = run('plutil', '-lint', PLIST);
      assert.equal(lint.code, 0, lint.stdout + lint.stderr);
      return;
    }
    if (!has('plistutil') && !has('xmllint')) {
      process.stdout.write('# neither plutil, plistutil nor xmllint: the plist is not checked\n');
      return;
    }
    if (has('plistutil')) {
      // libplist parses it and writes it back in binary and in XML, as plutil -lint would.
      const dir = mkdtempSync(join(tmpdir(), 'pw-plist-'));
      const binary = run('plistutil', '-i', PLIST, '-o', join(dir, 'bin.plist'), '-f', 'bin');
      assert.equal(binary.code, 0, binary.stderr);
      const back = run('plistutil', '-i', join(dir, 'bin.plist'), '-o', '-', '-f', 'xml');
      assert.equal(back.code, 0, back.stderr);
      assert.match(back.stdout, /<string>com\.printwire\.agent<\/string>/);
    }
    if (has('xmllint')) {
      const valid = run('xmllint', '--nonet', '--noout', '--dtdvalid', PLIST_DTD, PLIST);
      assert.equal(valid.code, 0, valid.stderr);
    }
  });

  test(
    'the launchd plist has only keys launchd knows, each of its type',
    { skip: noXmllint },
    () => {
      const count = Number(xpath(PLIST, 'count(/plist/dict/key)'));
      const keys = Array.from({ length: count }, (_, i) =>
        xpath(PLIST, `string(/plist/dict/key[${i + 1}])`),
      );
      assert.deepEqual(
        keys.filter((k) => !(k in LAUNCHD_KEYS)),
        [],
        'unknown launchd keys',
      );
      for (const key of keys) {
        const type = xpath(PLIST, `name(/plist/dict/key[.="${key}"]/following-sibling::*[1])`);
        assert.ok(LAUNCHD_KEYS[key]!.includes(type), `${key} is a ${type}`);
      }
      assert.equal(
        xpath(PLIST, 'string(/plist/dict/key[.="Label"]/following-sibling::*[1])'),
        'com.printwire.agent',
      );
      assert.equal(
        xpath(
          PLIST,
          'string(/plist/dict/key[.="ProgramArguments"]/following-sibling::array[1]/string[2])',
        ),
        'start',
      );
    },
  );

  test(
    'the WinSW XML validates against the documented schema, which refuses a misspelling',
    { skip: noXmllint },
    () => {
      const valid = run('xmllint', '--nonet', '--noout', '--schema', WINSW_XSD, WINSW_XML);
      assert.equal(valid.code, 0, valid.stderr);
      const dir = mkdtempSync(join(tmpdir(), 'pw-winsw-'));
      const typo = join(dir, 'typo.xml');
      writeFileSync(
        typo,
        readFileSync(WINSW_XML, 'utf8')
          .replace('<stoptimeout>', '<stopTimeout>')
          .replace('</stoptimeout>', '</stopTimeout>'),
      );
      const invalid = run('xmllint', '--nonet', '--noout', '--schema', WINSW_XSD, typo);
      assert.notEqual(invalid.code, 0);
      assert.match(invalid.stderr, /stopTimeout/);
    },
  );

  test('the install scripts and the package scripts parse, and agree with the CLI', () => {
    for (const script of [
      'macos/install.sh',
      'deb/postinst',
      'deb/prerm',
      'deb/postrm',
      'deb/printwire-agent',
    ]) {
      const r = run('sh', '-n', join(INSTALLERS, script));
      assert.equal(r.code, 0, `${script}: ${r.stderr}`);
    }
    const install = readFileSync(join(INSTALLERS, 'macos/install.sh'), 'utf8');
    for (const line of MACOS_CREATE_USER.split('\n').slice(1)) {
      assert.ok(install.includes(line), `install.sh makes the account as the CLI does: ${line}`);
    }
    const ps1 = readFileSync(join(INSTALLERS, 'windows/install.ps1'), 'utf8');
    assert.match(ps1, /printwire-agent-service\.exe/);
    assert.match(ps1, /printwire-agent-service\.xml/);
    assert.match(
      ps1,
      /S-1-5-19/,
      'install.ps1 gives the data folder to LocalService, the XML account',
    );
    assert.match(readFileSync(WINSW_XML, 'utf8'), /NT AUTHORITY\\LocalService/);
  });
});

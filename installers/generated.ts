/**
 * The service files under installers/ that are generated from the agent's own definitions
 * (agent/src/service/), so that the packages, the install scripts and `printwire-agent service`
 * never disagree. `npm run installers:generate` rewrites them; a test fails when one is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchdPlist, systemdUnit, winswXml } from '../agent/src/service/units.js';
import { udevRules } from '../agent/src/service/udev.js';

/** Paths relative to installers/, with their content. */
export function generatedInstallerFiles(): Record<string, string> {
  return {
    'deb/printwire-agent.service': systemdUnit({
      mode: 'package',
      execStart: ['/usr/bin/printwire-agent', 'start'],
    }),
    'deb/60-printwire-agent.rules': udevRules(),
    'macos/com.printwire.agent.plist': launchdPlist({
      programArguments: ['/usr/local/bin/printwire-agent', 'start'],
    }),
    'windows/printwire-agent-service.xml': winswXml({
      // %BASE% is the folder of the WinSW executable: the agent's folder (see install.ps1).
      executable: '%BASE%\\node.exe',
      arguments: ['%BASE%\\agent\\dist\\printwire-agent.mjs', 'start'],
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, content] of Object.entries(generatedInstallerFiles())) {
    writeFileSync(new URL(path, import.meta.url), content);
    process.stdout.write(`wrote installers/${path}\n`);
  }
}

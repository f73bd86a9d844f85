import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface DataDirSources {
  /** `--data-dir` */
  flag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/**
 * Where the agent keeps its configuration, device token, queue and logs: `--data-dir`, else
 * `PRINTWIRE_AGENT_DATA_DIR`, else the per-user application data folder of the OS
 * (`%LOCALAPPDATA%\Printwire\Agent`, `~/Library/Application Support/Printwire Agent`,
 * `$XDG_DATA_HOME/printwire-agent` or `~/.local/share/printwire-agent`).
 */
export function resolveDataDir(sources: DataDirSources = {}): string {
  const env = sources.env ?? process.env;
  if (sources.flag) return resolve(sources.flag);
  if (env.PRINTWIRE_AGENT_DATA_DIR) return resolve(env.PRINTWIRE_AGENT_DATA_DIR);
  const home = sources.home ?? homedir();
  switch (sources.platform ?? process.platform) {
    case 'win32':
      return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'Printwire', 'Agent');
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Printwire Agent');
    default:
      return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'printwire-agent');
  }
}

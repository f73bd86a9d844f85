/** The tray icon's colour per agent state, and the words that go with it (never colour alone). */
import { join } from 'node:path';
import type { TrayState } from '../src/window/agent-state.js';

export const TRAY_COLOURS: Record<TrayState, string> = {
  connected: '#16a34a',
  attention: '#f59e0b',
  paused: '#2563eb',
  offline: '#6b7280',
  'not-activated': '#6b7280',
};

/** The icon file of a state: installers/desktop/icons/tray-<state>.png (and @2x beside it). */
export function trayIconPath(iconsDir: string, state: TrayState): string {
  return join(iconsDir, `tray-${state}.png`);
}

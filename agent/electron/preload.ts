/**
 * The window's preload (sandboxed, context-isolated): two calls to the main process, nothing
 * else. The main process checks that each call comes from its window on the local server.
 */
import { contextBridge, ipcRenderer } from 'electron';

contextBridge.exposeInMainWorld('printwireDesktop', {
  exportLogs: (): Promise<string | null> => ipcRenderer.invoke('printwire:export-logs'),
  openDataFolder: (): Promise<string | null> => ipcRenderer.invoke('printwire:open-data-folder'),
});

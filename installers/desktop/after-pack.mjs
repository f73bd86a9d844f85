// electron-builder's afterPack hook (electron-builder.yml): flips Electron's fuses in the packed
// app before it is signed. Tested by test/electron-builder-config.test.ts (the fuse choices).
import path from 'node:path';
import fuses from '@electron/fuses';

const { flipFuses, FuseVersion, FuseV1Options } = fuses;

/** The fuses of the Printwire desktop app. */
export function fuseConfig() {
  return {
    version: FuseVersion.V1,
    // No `ELECTRON_RUN_AS_NODE`: the app's binary cannot be used as a plain Node.
    [FuseV1Options.RunAsNode]: false,
    // NODE_OPTIONS and --inspect are ignored: no code injected through the environment.
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    // The ASAR's integrity is checked at start (macOS, Windows), and only the ASAR is loaded.
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
  };
}

/** The Electron binary inside the packed app, per platform. */
export function electronBinary(context) {
  const { appOutDir, packager, electronPlatformName } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return path.join(appOutDir, `${name}.app`);
  }
  if (electronPlatformName === 'win32') return path.join(appOutDir, `${name}.exe`);
  return path.join(appOutDir, packager.executableName);
}

export async function afterPack(context) {
  // Flipping a fuse breaks the ad-hoc signature of an arm64 (or universal) macOS binary; it is
  // reset here and the app is signed for real afterwards. builder-util's Arch: 3 arm64, 4 universal.
  const arm = context.arch === 3 || context.arch === 4;
  await flipFuses(electronBinary(context), {
    ...fuseConfig(),
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' && arm,
  });
}

export default afterPack;

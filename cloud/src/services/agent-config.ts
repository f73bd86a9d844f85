/**
 * The configuration every agent holds (`welcome` and `config` carry it, always whole): its
 * printers' defaults, the organization's templates (rendered by the agent in local mode, also
 * offline) and who may print through its local server (the organization's local-mode settings
 * and active signing keys). A change of any organization-wide part is announced on the bus
 * (`agents.config_changed`), and every gateway instance sends the new configuration to the
 * organization's agents it holds: within a second, across instances.
 */
import type { Logger } from 'pino';
import {
  PROTOCOL_LIMITS,
  type AgentConfig,
  type ConfigTemplate,
  type LocalSettings,
} from '@printwire/shared/protocol/index';
import { isLabelDpi, isLabelSize } from '@printwire/shared/label-graphics/label-size';
import type { EventBus } from '../bus/events.js';
import { systemClock, type Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';
import type { Printer, PrinterGroup } from '../storage/types.js';

/** The spec: HTML templates reach agents from version 1.0.1 on (older ones cannot print them). */
export const HTML_TEMPLATES_FROM = '1.0.1';

/**
 * Whether an agent of `version` receives HTML templates: 1.0.1 or later. A pre-release of 1.0.1
 * comes before it, and a version that is not `major.minor.patch` gets none.
 */
export function receivesHtmlTemplates(version: string): boolean {
  return compareVersions(version, HTML_TEMPLATES_FROM) >= 0;
}

/** Semantic-version order of a and b (-1, 0, 1); a version that does not parse sorts first. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(v.trim());
    return m
      ? { parts: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] !== undefined }
      : null;
  };
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return x ? 1 : y ? -1 : 0;
  for (let i = 0; i < 3; i++) {
    if (x.parts[i]! !== y.parts[i]!) return x.parts[i]! < y.parts[i]! ? -1 : 1;
  }
  if (x.pre !== y.pre) return x.pre ? -1 : 1;
  return 0;
}

/** What every agent of one organization is sent, read once per change. */
export interface OrganizationConfig {
  templates: ConfigTemplate[];
  local: LocalSettings;
  /** The organization's printer groups (each agent gets those with members on its computer). */
  printerGroups: PrinterGroup[];
}

export interface AgentConfigDeps {
  store: Store;
  bus: EventBus;
  logger: Logger;
  /**
   * Most bytes of JSON the templates may take in one message, leaving the rest of the protocol's
   * 8 MB to the printers and settings. Default 7 MB: the spec's 2 MB of templates fit unless
   * most of their characters need escaping in JSON.
   */
  maxTemplateBytes?: number;
  /** Times the cache of organization-wide parts (default: the system's). */
  clock?: Clock;
}

/**
 * How long an organization-wide part read for a welcome is reused. A change is announced on the
 * bus and forgets it at once on every instance (`forget`); this bounds how long an announcement
 * lost on the way (a Redis reconnect) can keep an agent's welcome out of date.
 */
export const ORGANIZATION_CONFIG_CACHE_MS = 30_000;
/** Most organizations whose part is kept; the oldest read goes first. */
const MAX_CACHED_ORGANIZATIONS = 1_000;
/** A part with more template bytes than this is shared by the welcomes reading it at once, not kept. */
const MAX_CACHED_TEMPLATE_BYTES = 256 * 1024;

/** Something that can tell the agents that their configuration changed (the dashboard routes). */
export interface ConfigNotifier {
  changed(organizationId: string): Promise<void>;
}

export class AgentConfigService implements ConfigNotifier {
  private readonly maxTemplateBytes: number;
  private readonly clock: Clock;
  /** Organization-wide parts read (or being read), with when the read started. */
  private readonly cached = new Map<
    string,
    { at: number; value: Promise<OrganizationConfig | undefined> }
  >();

  constructor(private readonly deps: AgentConfigDeps) {
    this.maxTemplateBytes = deps.maxTemplateBytes ?? 7 * 1024 * 1024;
    this.clock = deps.clock ?? systemClock;
  }

  /**
   * Announces that the organization's agent configuration changed. Never throws: the change is
   * stored already, and an agent that misses the announcement gets it with its next welcome.
   */
  async changed(organizationId: string): Promise<void> {
    this.forget(organizationId);
    try {
      await this.deps.bus.publish({ type: 'agents.config_changed', organizationId });
    } catch (err) {
      this.deps.logger.error({ err, organizationId }, 'announcing an agent configuration failed');
    }
  }

  /**
   * The organization-wide part; undefined when the organization is gone. Welcomes of one
   * organization share one read (a reconnect storm of its thousand agents reads it once), kept
   * until a change is announced (`forget`) or for `ORGANIZATION_CONFIG_CACHE_MS`.
   */
  organizationConfig(organizationId: string): Promise<OrganizationConfig | undefined> {
    const now = this.clock.now();
    const hit = this.cached.get(organizationId);
    if (hit && now - hit.at < ORGANIZATION_CONFIG_CACHE_MS) return hit.value;
    const entry = { at: now, value: this.readOrganizationConfig(organizationId) };
    this.cached.delete(organizationId);
    this.cached.set(organizationId, entry);
    if (this.cached.size > MAX_CACHED_ORGANIZATIONS) {
      const oldest = this.cached.keys().next().value;
      if (oldest !== undefined) this.cached.delete(oldest);
    }
    const drop = () => {
      if (this.cached.get(organizationId) === entry) this.cached.delete(organizationId);
    };
    entry.value.then((config) => {
      const bytes = config?.templates.reduce((sum, t) => sum + t.content.length, 0) ?? 0;
      if (!config || bytes > MAX_CACHED_TEMPLATE_BYTES) drop();
    }, drop);
    return entry.value;
  }

  /**
   * The organization's configuration changed (`agents.config_changed`, heard by every instance):
   * the next welcome reads it again.
   */
  forget(organizationId: string): void {
    this.cached.delete(organizationId);
  }

  private async readOrganizationConfig(
    organizationId: string,
  ): Promise<OrganizationConfig | undefined> {
    const { store } = this.deps;
    const [organization, templates, keys, printerGroups] = await Promise.all([
      store.organizations.get(organizationId),
      store.templates.list(organizationId),
      store.signingKeys.listActive(organizationId),
      store.printerGroups.list(organizationId),
    ]);
    if (!organization) return undefined;
    return {
      // Oldest first, so that a cut for size (see configFor) keeps the same ones each time.
      templates: templates
        .map((t) => ({
          id: t.id,
          name: t.name,
          type: t.type,
          content: t.content,
          paper: t.paper,
          updatedAt: new Date(t.updatedAt).toISOString(),
        }))
        .reverse(),
      local: {
        requireSignature: organization.requireSignature,
        unsignedModeEnabled: organization.unsignedModeEnabled,
        devModeEnabled: organization.devModeEnabled,
        localDownloadsToPrivateNetwork: organization.localDownloadsToPrivateNetwork,
        allowedOrigins: organization.allowedOrigins.slice(0, PROTOCOL_LIMITS.maxAllowedOrigins),
        signingKeys: keys
          .slice(0, PROTOCOL_LIMITS.maxSigningKeys)
          .map((k) => ({ id: k.id, publicKey: k.publicKey })),
      },
      printerGroups,
    };
  }

  /** The printers of a device, for a configuration pushed after its welcome. */
  printersOf(organizationId: string, deviceId: string): Promise<Printer[]> {
    return this.deps.store.devices.listPrinters(organizationId, deviceId);
  }

  /**
   * One agent's whole configuration: its printers, the templates its version may receive (no
   * HTML before 1.0.1), and the local-mode settings. Templates that would take the message past
   * `maxTemplateBytes` of JSON are left out (logged): the spec's 2 MB of templates fit unless
   * their text is mostly characters JSON must escape.
   */
  configFor(
    organization: OrganizationConfig,
    printers: Printer[],
    agentVersion: string,
    deviceId: string,
  ): AgentConfig {
    const html = receivesHtmlTemplates(agentVersion);
    const templates: ConfigTemplate[] = [];
    let bytes = 0;
    let dropped = 0;
    for (const template of organization.templates) {
      if (template.type === 'html' && !html) continue;
      const size = Buffer.byteLength(JSON.stringify(template));
      if (bytes + size > this.maxTemplateBytes) {
        dropped++;
        continue;
      }
      bytes += size;
      templates.push(template);
    }
    if (dropped > 0) {
      this.deps.logger.warn(
        { deviceId, dropped, maxTemplateBytes: this.maxTemplateBytes },
        'templates left out of an agent configuration: too large for one message',
      );
    }
    return {
      printers: printersConfig(printers),
      templates,
      local: organization.local,
      printerGroups: printerGroupsConfig(organization.printerGroups, printers),
    };
  }
}

/**
 * The printer groups part (docs/agent-protocol.md "Printer groups"): each group with a member on
 * this device, with only this device's members, in group order (at most the protocol's 100).
 */
export function printerGroupsConfig(
  groups: readonly PrinterGroup[],
  printers: readonly Printer[],
): NonNullable<AgentConfig['printerGroups']> {
  const agentIds = new Map(printers.map((p) => [p.id, p.agentPrinterId]));
  const out: NonNullable<AgentConfig['printerGroups']> = [];
  for (const group of groups) {
    const agentPrinterIds = group.printerIds.flatMap((id) => {
      const agentId = agentIds.get(id);
      return agentId === undefined ? [] : [agentId];
    });
    if (agentPrinterIds.length === 0) continue;
    out.push({ id: group.id, name: group.name, strategy: group.strategy, agentPrinterIds });
    if (out.length === PROTOCOL_LIMITS.maxPrinterGroups) break;
  }
  return out;
}

/** The printers part: per-printer defaults and the cloud's printer ids. */
export function printersConfig(printers: Printer[]): AgentConfig['printers'] {
  return printers.map((p) => ({
    agentPrinterId: p.agentPrinterId,
    printerId: p.id,
    isDefault: p.isDefault,
    defaults: printerDefaults(p),
  }));
}

/**
 * A printer's defaults: those set in the dashboard, else what its agent reported (an agent's
 * own values go back to it unchanged).
 */
export function printerDefaults(p: Printer): AgentConfig['printers'][number]['defaults'] {
  const paper = p.settings.paper ?? p.paper;
  const codepage = p.settings.codepage ?? p.codepage;
  const dpi = p.settings.dpi;
  return {
    ...(paper === '58mm' || paper === '80mm' ? { paper } : {}),
    // A label printer's label goes in a field of its own: older agents know only 58mm and 80mm.
    ...(paper && isLabelSize(paper) ? { labelSize: paper } : {}),
    ...(dpi !== undefined && isLabelDpi(dpi) ? { dpi } : {}),
    ...(codepage ? { codepage } : {}),
    ...(p.settings.cut ? { cut: p.settings.cut } : {}),
  };
}

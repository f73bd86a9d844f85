/**
 * An organization's templates: read, created, changed, deleted. Every change reaches the
 * organization's agents (local mode renders templates offline).
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Clock } from '../lib/clock.js';
import type { Store } from '../storage/store.js';
import type { Template } from '../storage/types.js';
import type { ConfigNotifier } from './agent-config.js';

type Templates = Store['templates'];

export class TemplateService {
  constructor(private readonly deps: { store: Store; clock: Clock; agents: ConfigNotifier }) {}

  find(organizationId: string, id: string): Promise<Template | undefined> {
    return this.deps.store.templates.get(organizationId, id);
  }

  /** The template; NOT_FOUND when there is none. */
  async get(organizationId: string, id: string): Promise<Template> {
    const t = await this.find(organizationId, id);
    if (!t) throw new PrintwireError('NOT_FOUND', `no template ${id}`);
    return t;
  }

  list(organizationId: string): Promise<Template[]> {
    return this.deps.store.templates.list(organizationId);
  }

  /** Stores a template (already checked to compile). */
  async create(
    organizationId: string,
    input: Parameters<Templates['create']>[1],
  ): Promise<Template> {
    const created = await this.deps.store.templates.create(
      organizationId,
      input,
      this.deps.clock.now(),
    );
    await this.deps.agents.changed(organizationId);
    return created;
  }

  /** Changes a template (already checked to compile); NOT_FOUND when there is none. */
  async update(
    organizationId: string,
    id: string,
    patch: Parameters<Templates['updateTemplate']>[2],
  ): Promise<Template> {
    const updated = await this.deps.store.templates.updateTemplate(
      organizationId,
      id,
      patch,
      this.deps.clock.now(),
    );
    if (!updated) throw new PrintwireError('NOT_FOUND', `no template ${id}`);
    await this.deps.agents.changed(organizationId);
    return updated;
  }

  /** Deletes a template; NOT_FOUND when there is none. */
  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.store.templates.deleteTemplate(organizationId, id))) {
      throw new PrintwireError('NOT_FOUND', `no template ${id}`);
    }
    await this.deps.agents.changed(organizationId);
  }
}

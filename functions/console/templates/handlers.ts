/** The templates routes (templates/routes.ts) over the back office's use cases, made from their ports. */
import {
  createTemplate,
  getTemplate,
  listTemplates,
  previewTemplateFor,
  setTemplateArchived,
  testSendTemplate,
  updateTemplate,
  type TemplatePorts,
  type TestSendPorts,
} from '../../back-office/templates';
import { consoleActor } from '../../http/console-auth';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

/** The postbacks' hosts are the ones a webhook template may call besides public ones. */
export type TemplatesPorts = Omit<TemplatePorts & TestSendPorts, 'webhookHosts'> & { postbacks: { allowedHosts: readonly string[] } };

const templateIdOf = (path: { template_id?: string }) => path.template_id ?? '';

export function templatesHandlers(ports: TemplatesPorts) {
  const withHosts = { ...ports, webhookHosts: ports.postbacks.allowedHosts };
  const list = listTemplates(withHosts);
  const read = getTemplate(withHosts);
  const create = createTemplate(withHosts);
  const update = updateTemplate(withHosts);
  const archive = setTemplateArchived(withHosts);
  const preview = previewTemplateFor(withHosts);
  const testSend = testSendTemplate(withHosts);
  return {
    ConsoleListTemplates: async ({ identity, query }) => answer(200, { templates: await list(identity.appId, { archived: query.archived === 'true' }) }),

    ConsoleGetTemplate: async ({ identity, path }) => answer(200, { template: await read(identity.appId, templateIdOf(path)) }),

    ConsoleCreateTemplate: async ({ identity, body }) => answer(201, { template: await create(identity.appId, consoleActor(identity), body) }),

    ConsoleUpdateTemplate: async ({ identity, path, body }) =>
      answer(200, { template: await update(identity.appId, consoleActor(identity), templateIdOf(path), body) }),

    ConsoleArchiveTemplate: async ({ identity, path }) =>
      answer(200, { template: await archive(identity.appId, consoleActor(identity), templateIdOf(path), true) }),

    ConsoleRestoreTemplate: async ({ identity, path }) =>
      answer(200, { template: await archive(identity.appId, consoleActor(identity), templateIdOf(path), false) }),

    ConsolePreviewTemplate: async ({ identity, body }) => answer(200, { preview: await preview(identity.appId, body) }),

    // The recipient is the session's own user: the body names none.
    ConsoleTestSendTemplate: async ({ identity, body }) => answer(200, { sent: await testSend(identity.appId, consoleActor(identity), body) }),
  } satisfies Implementations<typeof routes>;
}

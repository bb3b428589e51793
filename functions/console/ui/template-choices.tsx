/**
 * The application's templates as suggestions for a field that names one (a
 * journey's send step, a broadcast): one datalist per kind, from one read.
 * The field stays free text, so a template made later or in another tab can
 * still be named, and the server says when the id names none.
 */
import type { ConsoleAnswer } from '../answers';
import { getJson } from './api';
import { useApi } from './use-api';

type Template = ConsoleAnswer<'ConsoleListTemplates'>['templates'][number];
type Kind = Template['kind'];

const kinds: readonly Kind[] = ['email', 'push', 'webhook'];
const kindWords: Record<Kind, string> = { email: 'email', push: 'web push', webhook: 'webhook' };

/** The id of the datalist of `kind`'s templates that `<TemplateChoices prefix>` renders: a field's `list`. */
export const templateChoicesId = (prefix: string, kind: Kind | 'any') => `${prefix}-${kind}`;

export function TemplateChoices({ prefix }: { prefix: string }) {
  const list = useApi(() => getJson<ConsoleAnswer<'ConsoleListTemplates'>>('/templates', {}), 'template-choices');
  const templates = list.data?.templates ?? [];
  return (
    <>
      <datalist id={templateChoicesId(prefix, 'any')}>
        {templates.map((template) => (
          <option key={template.id} value={template.id}>
            {`${template.name} (${kindWords[template.kind]})`}
          </option>
        ))}
      </datalist>
      {kinds.map((kind) => (
        <datalist key={kind} id={templateChoicesId(prefix, kind)}>
          {templates
            .filter((template) => template.kind === kind)
            .map((template) => (
              <option key={template.id} value={template.id}>
                {`${template.name} (${kindWords[kind]})`}
              </option>
            ))}
        </datalist>
      ))}
    </>
  );
}

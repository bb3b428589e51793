/** Templates: the application's email, web push and webhook templates, with their languages; a new one from here. */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { Badge } from '../../../ui/design/badge';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { PageHeader } from '../../../ui/design/page';
import { When } from '../../../ui/design/value';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';

export const templatePath = (templateId: string) => `/console/templates/${encodeURIComponent(templateId)}`;

type Template = ConsoleAnswer<'ConsoleListTemplates'>['templates'][number];

export const kindNames: Record<Template['kind'], string> = { email: 'Email', push: 'Web push', webhook: 'Webhook' };

const columns: readonly Column<Template>[] = [
  {
    id: 'name',
    header: 'Name',
    value: (template) => template.name.toLowerCase(),
    cell: (template) => (
      <span class="template-name">
        <a href={templatePath(template.id)}>{template.name}</a>
        <small class="muted">
          <code>{template.id}</code>
          {template.archived && <Badge>archived</Badge>}
        </small>
      </span>
    ),
    rowHeader: true,
    required: true,
  },
  { id: 'kind', header: 'Kind', value: (template) => template.kind, cell: (template) => <Badge tone="accent">{kindNames[template.kind]}</Badge> },
  {
    id: 'languages',
    header: 'Languages',
    value: (template) => template.languages.join(' '),
    cell: (template) => (
      <span class="template-languages">
        {template.languages.map((language) => (
          <span key={language} class={language === template.default_language ? 'language default' : 'language'}>
            {language}
            {language === template.default_language && <span class="visually-hidden"> (default)</span>}
          </span>
        ))}
      </span>
    ),
  },
  { id: 'version', header: 'Version', value: (template) => template.version, numeric: true, hidden: true },
  { id: 'updated_at', header: 'Updated', value: (template) => template.updated_at, cell: (template) => <When at={template.updated_at} /> },
  { id: 'updated_by', header: 'Updated by', value: (template) => template.updated_by ?? '', hidden: true },
];

export function TemplatesPage() {
  const { role } = useSession();
  const [archived, setArchived] = useState(false);
  const list = useApi(() => getJson<ConsoleAnswer<'ConsoleListTemplates'>>('/templates', { archived: archived ? 'true' : undefined }), `templates-${archived}`);
  return (
    <>
      <PageHeader
        title="Templates"
        subtitle="The messages your journeys and broadcasts send: email, web push and webhooks, personalised with Liquid, one variant per language."
        actions={
          role !== 'viewer' && (
            <a class="button primary" href="/console/templates/new">
              New template
            </a>
          )
        }
      />
      <div class="list-filters">
        <label class="choice">
          <input type="checkbox" checked={archived} onChange={(event) => setArchived(event.currentTarget.checked)} />
          Show archived templates
        </label>
      </div>
      <DataTable
        label="Templates"
        rows={list.data?.templates}
        columns={columns}
        rowId={(template) => template.id}
        loading={list.loading}
        error={list.error && <ErrorNote error={list.error} />}
        empty={
          role === 'viewer'
            ? 'No templates yet.'
            : 'No templates yet. Make one with “New template”: write its subject and content once per language, preview it for a real player, and send yourself a test.'
        }
      />
    </>
  );
}

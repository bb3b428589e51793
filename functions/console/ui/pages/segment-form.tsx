/**
 * A segment's form, new or edited: name, description and the condition as
 * JSON, with buttons that add an example of each kind. The server checks the
 * condition; its messages (which name the part of the condition) show under
 * the field.
 */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { Field, fieldProps } from '../../../ui/design/field';
import { Card, PageHeader } from '../../../ui/design/page';
import { Visible } from '../../../ui/design/value';
import { errorsOf, FormActions, FormFailure, useChange } from '../actions';
import { getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { conditionExamples, conditionSentence, withExample } from '../segment-sentences';
import { useApi } from '../use-api';
import { segmentPath } from './segments';

const fields = ['name', 'description', 'segment_id', 'condition'] as const;

function SegmentForm({ segment }: { segment?: ConsoleAnswer<'ConsoleGetSegment'>['segment'] }) {
  const { route } = useLocation();
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [segmentId, setSegmentId] = useState('');
  const [condition, setCondition] = useState(segment ? JSON.stringify(segment.condition, null, 2) : '');
  const [notJson, setNotJson] = useState<string>();
  const { busy, failed, run } = useChange('Your role may not change segments.');
  const failure = failed('save');
  const errors = {
    name: errorsOf(failure, 'name'),
    description: errorsOf(failure, 'description'),
    segment_id: errorsOf(failure, 'segment_id'),
    condition: [...(notJson ? [notJson] : []), ...errorsOf(failure, 'condition')],
  };

  const addExample = (example: (typeof conditionExamples)[number]) => {
    const next = withExample(condition, example.condition);
    if (next === undefined) setNotJson('The condition is not JSON yet: fix it, or empty it, before adding an example.');
    else {
      setNotJson(undefined);
      setCondition(next);
    }
  };

  const save = async (event: Event) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(condition);
    } catch (error) {
      setNotJson(`condition is not valid JSON: ${(error as Error).message}`);
      return;
    }
    setNotJson(undefined);
    const body = segment
      ? { name, description, condition: parsed }
      : { name, ...(description.trim() ? { description } : {}), ...(segmentId.trim() ? { segment_id: segmentId.trim() } : {}), condition: parsed };
    const answer = await run(
      'save',
      () =>
        segment
          ? postJson<ConsoleAnswer<'ConsoleEditSegment'>>(`/segments/${encodeURIComponent(segment.segment_id)}`, body)
          : postJson<ConsoleAnswer<'ConsoleCreateSegment'>>('/segments', body),
      ({ segment: saved }) =>
        saved.status === 'backfilling' ? `Segment “${saved.name}” saved: its members are being found among your players.` : `Segment “${saved.name}” saved.`,
    );
    if (answer) route(segmentPath(answer.segment.segment_id));
  };

  return (
    <form class="segment-form" onSubmit={save} aria-label={segment ? 'Edit segment' : 'New segment'} noValidate>
      <Card>
        <div class="form-row">
          <Field id="segment-name" label="Name" errors={errors.name}>
            <input
              {...fieldProps('segment-name', errors.name)}
              name="name"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              required
              maxLength={100}
              autocomplete="off"
            />
          </Field>
          {!segment && (
            <Field id="segment-id" label="Id (optional)" hint="Made from the name when left empty; it cannot change later." errors={errors.segment_id}>
              <input
                {...fieldProps('segment-id', errors.segment_id, true)}
                name="segment_id"
                value={segmentId}
                onInput={(e) => setSegmentId(e.currentTarget.value)}
                maxLength={64}
                autocomplete="off"
                spellcheck={false}
                placeholder="e.g. active-depositors"
              />
            </Field>
          )}
        </div>
        <Field id="segment-description" label="Description (optional)" errors={errors.description}>
          <input
            {...fieldProps('segment-description', errors.description)}
            name="description"
            value={description}
            onInput={(e) => setDescription(e.currentTarget.value)}
            maxLength={1000}
            autocomplete="off"
          />
        </Field>
        <Field
          id="segment-condition"
          label="Condition"
          hint={
            <>
              JSON: one condition, or several under <code>all</code> / <code>any</code>, or one under <code>not</code>. docs/api.md, “Segments”, lists every
              kind.
              {segment && ' Changing it makes a new version, which is backfilled before it is used.'}
            </>
          }
          errors={errors.condition}
        >
          <div class="example-buttons" role="group" aria-label="Add an example">
            <span class="muted">Add:</span>
            {conditionExamples.map((example) => (
              <button key={example.label} type="button" class="small" onClick={() => addExample(example)}>
                {example.label}
              </button>
            ))}
          </div>
          <textarea
            {...fieldProps('segment-condition', errors.condition, true)}
            class="mono condition-editor"
            name="condition"
            value={condition}
            onInput={(e) => setCondition(e.currentTarget.value)}
            rows={14}
            spellcheck={false}
            placeholder={'{\n  "last": {"name": "Login"},\n  "not_within_days": 7\n}'}
          />
          <details class="condition-reference">
            <summary>What each kind means</summary>
            <dl>
              {conditionExamples.map((example) => (
                <Fragment key={example.label}>
                  <dt>{example.label}</dt>
                  <dd>
                    {conditionSentence(example.condition).text}
                    <br />
                    <code>{JSON.stringify(example.condition)}</code>
                  </dd>
                </Fragment>
              ))}
            </dl>
          </details>
        </Field>
        <FormFailure failure={failure} not={segment ? 'Not saved' : 'Not created'} fields={fields} />
        <FormActions>
          <button type="submit" class="primary" aria-busy={busy === 'save'} disabled={busy !== undefined}>
            {segment ? 'Save changes' : 'Create segment'}
          </button>
          <a class="button" href={segment ? segmentPath(segment.segment_id) : '/console/segments'}>
            Cancel
          </a>
        </FormActions>
      </Card>
    </form>
  );
}

export function NewSegmentPage() {
  return (
    <>
      <PageHeader
        trail={[{ label: 'Segments', href: '/console/segments' }, { label: 'New segment' }]}
        title="New segment"
        subtitle="Its members are found among your existing players first (the backfill), then kept up to date as they play."
      />
      <SegmentForm />
    </>
  );
}

export function EditSegmentPage({ id }: { id: string }) {
  const segment = useApi(() => getJson<ConsoleAnswer<'ConsoleGetSegment'>>(`/segments/${encodeURIComponent(id)}`), id);
  const s = segment.data?.segment;
  return (
    <>
      <PageHeader
        trail={[{ label: 'Segments', href: '/console/segments' }, { label: s ? s.name : <Visible text={id} />, href: segmentPath(id) }, { label: 'Edit' }]}
        title={s ? `Edit ${s.name}` : 'Edit segment'}
      />
      {segment.error && <ErrorNote error={segment.error} />}
      {!s && segment.loading && <Loading what="the segment" />}
      {/* Only once read: the form's fields start from the segment. */}
      {s && <SegmentForm segment={s} />}
    </>
  );
}

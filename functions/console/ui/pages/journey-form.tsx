/**
 * A journey's editor, new or edited: its name, what starts it (an event with
 * property conditions, the first deposit, entering a segment, the API), who
 * may enter (a segment condition), re-entry, the goal, and its steps as an
 * ordered list of cards, each with its type's fields and pickers of the step
 * that comes next. Saved as a draft or published; a live journey's change is
 * a new version, and players in it keep theirs. The server checks the whole
 * journey (checkJourney); its messages show on the card or field they name.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { errorsFor, Field, fieldProps } from '../../../ui/design/field';
import { Alert, Card, PageHeader } from '../../../ui/design/page';
import { Visible } from '../../../ui/design/value';
import { FormActions, FormFailure, useChange } from '../actions';
import { getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import {
  definitionOf,
  draftOf,
  emptyDraft,
  type EntryKind,
  type JourneyDraft,
  moveStep,
  removeStep,
  renameStep,
  type ReentryKind,
  type StepDraft,
  withStep,
} from '../journey-draft';
import { stepTypeNames } from '../journey-sentences';
import { conditionExamples, conditionSentence, type Sentence, withExample } from '../segment-sentences';
import { useApi } from '../use-api';
import { journeyPath } from './journeys';
import { SentenceTree } from './segment';
import type { StepType, Weekday } from '../../../domain/journeys/definition';
import type { Condition } from '../../../domain/segments/condition';
import { TemplateChoices, templateChoicesId } from '../template-choices';

type Journey = ConsoleAnswer<'ConsoleGetJourney'>['journey'];

const addable: readonly { type: StepType; label: string }[] = [
  { type: 'send', label: 'Send' },
  { type: 'wait', label: 'Wait' },
  { type: 'wait_until', label: 'Wait until' },
  { type: 'wait_for_event', label: 'Wait for event' },
  { type: 'branch', label: 'Branch' },
  { type: 'split', label: 'Split' },
  { type: 'set_attributes', label: 'Set attributes' },
  { type: 'exit', label: 'Exit' },
];

const entryChoices: readonly { kind: EntryKind; label: string }[] = [
  { kind: 'first_deposit', label: 'On the first deposit' },
  { kind: 'event', label: 'On an event' },
  { kind: 'segment_entered', label: 'On entering a segment' },
  { kind: 'api', label: 'When triggered through the API' },
];

const reentryChoices: readonly { kind: ReentryKind; label: string }[] = [
  { kind: 'once', label: 'Once ever' },
  { kind: 'every_days', label: 'Once per period' },
  { kind: 'always', label: 'Every time' },
];

const propertyOps: readonly { op: string; label: string }[] = [
  { op: 'equals', label: 'is' },
  { op: 'not_equals', label: 'is not' },
  { op: 'gt', label: 'is more than' },
  { op: 'gte', label: 'is at least' },
  { op: 'lt', label: 'is less than' },
  { op: 'lte', label: 'is at most' },
  { op: 'in', label: 'is one of' },
  { op: 'exists', label: 'is set' },
];

const weekdayChoices: readonly { day: Weekday; label: string }[] = [
  { day: 'mon', label: 'Mon' },
  { day: 'tue', label: 'Tue' },
  { day: 'wed', label: 'Wed' },
  { day: 'thu', label: 'Thu' },
  { day: 'fri', label: 'Fri' },
  { day: 'sat', label: 'Sat' },
  { day: 'sun', label: 'Sun' },
];

/** The messages about a part of the definition: the server's (checkJourney names the path) and the form's own. */
const under = (errors: readonly string[], path: string) => errorsFor(errors, path);

function Errors({ id, messages }: { id?: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul class="field-error journey-errors" id={id}>
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/**
 * The condition typed, read back in words while it is typed; nothing while it is not JSON or not yet a whole
 * condition (the server's check, not the bundle's: the schema's validator is not in the browser).
 */
function conditionWords(text: string): Sentence | undefined {
  if (text.trim() === '') return undefined;
  try {
    const sentence = conditionSentence(JSON.parse(text) as Condition);
    return JSON.stringify(sentence).includes('undefined') ? undefined : sentence;
  } catch {
    return undefined;
  }
}

/** A condition as JSON with the segment form's example buttons and the condition read back in words. */
function ConditionField({
  id,
  label,
  hint,
  value,
  onChange,
  errors,
}: {
  id: string;
  label: string;
  hint: ComponentChildren;
  value: string;
  onChange: (text: string) => void;
  errors: readonly string[];
}) {
  const [notJson, setNotJson] = useState<string>();
  const words = conditionWords(value);
  const shown = [...(notJson ? [notJson] : []), ...errors];
  return (
    <Field id={id} label={label} hint={hint} errors={shown}>
      <div class="example-buttons" role="group" aria-label={`Add to ${label.toLowerCase()}`}>
        <span class="muted">Add:</span>
        {conditionExamples.map((example) => (
          <button
            key={example.label}
            type="button"
            class="small"
            onClick={() => {
              const next = withExample(value, example.condition);
              setNotJson(next === undefined ? 'The condition is not JSON yet: fix it, or empty it, before adding an example.' : undefined);
              if (next !== undefined) onChange(next);
            }}
          >
            {example.label}
          </button>
        ))}
      </div>
      <textarea
        {...fieldProps(id, shown, true)}
        class="mono condition-editor journey-condition"
        value={value}
        onInput={(e) => onChange(e.currentTarget.value)}
        rows={4}
        spellcheck={false}
      />
      {words && (
        <div class="journey-condition-words">
          <span class="muted">Reads:</span>
          <ul class="condition-sentences">
            <SentenceTree sentence={words} />
          </ul>
        </div>
      )}
    </Field>
  );
}

/** A picker of the step that comes next, by id; `optional` adds "the journey ends". */
function NextPicker({
  id,
  label,
  value,
  onChange,
  steps,
  self,
  optional = false,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (id: string) => void;
  steps: readonly StepDraft[];
  self: StepDraft;
  optional?: boolean;
}) {
  const missing = value !== '' && !steps.some((step) => step.id === value);
  return (
    <Field id={id} label={label}>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{optional ? 'End the journey' : 'Pick a step'}</option>
        {steps
          .filter((step) => step.key !== self.key && step.id !== '')
          .map((step) => (
            <option key={step.key} value={step.id}>
              {step.id} · {stepTypeNames[step.type]}
            </option>
          ))}
        {missing && <option value={value}>{value} (no such step)</option>}
      </select>
    </Field>
  );
}

function DurationFields({ legend, step, onChange }: { legend: string; step: StepDraft; onChange: (patch: Partial<StepDraft>) => void }) {
  const part = (name: 'days' | 'hours' | 'minutes', label: string) => (
    <label class="journey-duration-part" for={`${step.key}-${name}`}>
      <input
        id={`${step.key}-${name}`}
        type="number"
        min={0}
        inputMode="numeric"
        value={step[name]}
        onInput={(e) => onChange({ [name]: e.currentTarget.value })}
      />
      <span>{label}</span>
    </label>
  );
  return (
    <fieldset class="journey-duration">
      <legend>{legend}</legend>
      <div class="journey-duration-parts">
        {part('days', 'days')}
        {part('hours', 'hours')}
        {part('minutes', 'minutes')}
      </div>
    </fieldset>
  );
}

function StepFields({
  step,
  steps,
  index,
  errors,
  onChange,
}: {
  step: StepDraft;
  steps: readonly StepDraft[];
  index: number;
  errors: readonly string[];
  onChange: (patch: Partial<StepDraft>) => void;
}) {
  const id = (name: string) => `${step.key}-${name}`;
  const next = (label = 'Then') => (
    <NextPicker id={id('next')} label={label} value={step.next} onChange={(value) => onChange({ next: value })} steps={steps} self={step} optional />
  );
  switch (step.type) {
    case 'wait':
      return (
        <>
          <DurationFields legend="Wait for" step={step} onChange={onChange} />
          {next()}
        </>
      );
    case 'wait_until':
      return (
        <>
          <div class="form-row">
            <Field id={id('time')} label="Local time" hint="In the player's time zone (urm_timezone), else the application's.">
              <input {...fieldProps(id('time'), [], true)} type="time" value={step.localTime} onInput={(e) => onChange({ localTime: e.currentTarget.value })} />
            </Field>
            {next()}
          </div>
          <fieldset>
            <legend>On these days (none: the next day it is that time)</legend>
            {weekdayChoices.map(({ day, label }) => (
              <label key={day} class="choice">
                <input
                  type="checkbox"
                  checked={step.weekdays.includes(day)}
                  onChange={(e) =>
                    onChange({
                      weekdays: e.currentTarget.checked
                        ? weekdayChoices.map((choice) => choice.day).filter((d) => d === day || step.weekdays.includes(d))
                        : step.weekdays.filter((d) => d !== day),
                    })
                  }
                />
                {label}
              </label>
            ))}
          </fieldset>
        </>
      );
    case 'wait_for_event':
      return (
        <>
          <div class="form-row">
            <Field id={id('event')} label="Event name">
              <input
                id={id('event')}
                value={step.event}
                onInput={(e) => onChange({ event: e.currentTarget.value })}
                autocomplete="off"
                placeholder="e.g. Deposit"
              />
            </Field>
            <Field id={id('match')} label="Same property as the entry event (optional)" hint="e.g. game_id: only that game's event counts.">
              <input
                {...fieldProps(id('match'), [], true)}
                value={step.matchProperty}
                onInput={(e) => onChange({ matchProperty: e.currentTarget.value })}
                autocomplete="off"
              />
            </Field>
          </div>
          <DurationFields legend="Time out after" step={step} onChange={onChange} />
          <div class="form-row">
            <NextPicker
              id={id('on-event')}
              label="If it happens, go to"
              value={step.onEvent}
              onChange={(value) => onChange({ onEvent: value })}
              steps={steps}
              self={step}
            />
            <NextPicker
              id={id('on-timeout')}
              label="If not, go to"
              value={step.onTimeout}
              onChange={(value) => onChange({ onTimeout: value })}
              steps={steps}
              self={step}
            />
          </div>
        </>
      );
    case 'branch':
      return (
        <>
          <ConditionField
            id={id('condition')}
            label="Condition"
            hint="The segment condition language, checked on the player when they reach this step."
            value={step.condition}
            onChange={(text) => onChange({ condition: text })}
            errors={under(errors, `steps[${index}].condition`)}
          />
          <div class="form-row">
            <NextPicker id={id('then')} label="If so, go to" value={step.then} onChange={(value) => onChange({ then: value })} steps={steps} self={step} />
            <NextPicker
              id={id('else')}
              label="Else, go to"
              value={step.otherwise}
              onChange={(value) => onChange({ otherwise: value })}
              steps={steps}
              self={step}
            />
          </div>
        </>
      );
    case 'split':
      return (
        <>
          <ol class="journey-rows">
            {step.branches.map((branch, b) => (
              <li key={b} class="journey-row">
                <Field id={id(`percent-${b}`)} label={`Branch ${b + 1} percent`}>
                  <input
                    id={id(`percent-${b}`)}
                    type="number"
                    min={1}
                    max={100}
                    value={branch.percent}
                    onInput={(e) => onChange({ branches: step.branches.map((x, j) => (j === b ? { ...x, percent: e.currentTarget.value } : x)) })}
                  />
                </Field>
                <NextPicker
                  id={id(`branch-${b}`)}
                  label={`Branch ${b + 1} goes to`}
                  value={branch.next}
                  onChange={(value) => onChange({ branches: step.branches.map((x, j) => (j === b ? { ...x, next: value } : x)) })}
                  steps={steps}
                  self={step}
                />
                <button
                  type="button"
                  class="small ghost"
                  disabled={step.branches.length === 1}
                  onClick={() => onChange({ branches: step.branches.filter((_, j) => j !== b) })}
                  aria-label={`Remove branch ${b + 1} of ${step.id}`}
                >
                  Remove
                </button>
              </li>
            ))}
          </ol>
          <div class="form-row">
            <Field id={id('holdout')} label="Holdout percent" hint="Held out players get nothing: the results compare them with the rest.">
              <input
                {...fieldProps(id('holdout'), [], true)}
                type="number"
                min={0}
                max={99}
                value={step.holdout}
                onInput={(e) => onChange({ holdout: e.currentTarget.value })}
              />
            </Field>
          </div>
          <button type="button" class="small" onClick={() => onChange({ branches: [...step.branches, { percent: '', next: '' }] })}>
            Add a branch
          </button>
        </>
      );
    case 'send':
      return (
        <>
          <div class="form-row">
            <Field id={id('channel')} label="Channel">
              <select id={id('channel')} value={step.channel} onChange={(e) => onChange({ channel: e.currentTarget.value as StepDraft['channel'] })}>
                <option value="email">Email</option>
                <option value="push">Web push</option>
                <option value="webhook">Webhook</option>
              </select>
            </Field>
            <Field id={id('template')} label="Template id" hint="A template of this channel (Templates).">
              <input
                {...fieldProps(id('template'), [], true)}
                value={step.templateId}
                onInput={(e) => onChange({ templateId: e.currentTarget.value })}
                list={templateChoicesId('journey-templates', step.channel)}
                autocomplete="off"
                spellcheck={false}
                placeholder="e.g. welcome"
              />
            </Field>
          </div>
          <div class="form-row">
            <Field id={id('purpose')} label="Purpose" hint="Marketing asks the send gate (consent, quiet hours, caps); transactional only the RG status.">
              <select
                {...fieldProps(id('purpose'), [], true)}
                value={step.purpose}
                onChange={(e) => onChange({ purpose: e.currentTarget.value as StepDraft['purpose'] })}
              >
                <option value="marketing">Marketing</option>
                <option value="transactional">Transactional</option>
              </select>
            </Field>
            <Field id={id('topic')} label="Topic (optional)">
              <input
                id={id('topic')}
                value={step.topic}
                onInput={(e) => onChange({ topic: e.currentTarget.value })}
                autocomplete="off"
                placeholder="e.g. promotions"
              />
            </Field>
            {next()}
          </div>
        </>
      );
    case 'set_attributes':
      return (
        <>
          <ol class="journey-rows">
            {step.attributes.map((pair, a) => (
              <li key={a} class="journey-row">
                <Field id={id(`attr-${a}`)} label={`Attribute ${a + 1}`}>
                  <input
                    id={id(`attr-${a}`)}
                    value={pair.name}
                    onInput={(e) => onChange({ attributes: step.attributes.map((x, j) => (j === a ? { ...x, name: e.currentTarget.value } : x)) })}
                    autocomplete="off"
                  />
                </Field>
                <Field id={id(`value-${a}`)} label={`Value ${a + 1}`}>
                  <input
                    id={id(`value-${a}`)}
                    value={pair.value}
                    onInput={(e) => onChange({ attributes: step.attributes.map((x, j) => (j === a ? { ...x, value: e.currentTarget.value } : x)) })}
                    autocomplete="off"
                  />
                </Field>
                <button
                  type="button"
                  class="small ghost"
                  disabled={step.attributes.length === 1}
                  onClick={() => onChange({ attributes: step.attributes.filter((_, j) => j !== a) })}
                  aria-label={`Remove attribute ${a + 1} of ${step.id}`}
                >
                  Remove
                </button>
              </li>
            ))}
          </ol>
          <button type="button" class="small" onClick={() => onChange({ attributes: [...step.attributes, { name: '', value: '' }] })}>
            Add an attribute
          </button>
          {next()}
        </>
      );
    case 'exit':
      return <p class="muted">The player leaves the journey here.</p>;
  }
}

function StepCard({
  step,
  index,
  steps,
  errors,
  onChange,
  onRename,
  onMove,
  onRemove,
}: {
  step: StepDraft;
  index: number;
  steps: readonly StepDraft[];
  errors: readonly string[];
  onChange: (patch: Partial<StepDraft>) => void;
  onRename: (id: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const headingId = `${step.key}-heading`;
  const mine = under(errors, `steps[${index}]`);
  const name = step.id || `step ${index + 1}`;
  return (
    <li class="journey-card" aria-labelledby={headingId}>
      <div class="journey-card-head">
        <h3 id={headingId}>
          <span class="journey-step-number" aria-hidden="true">
            {index + 1}
          </span>
          <span class="visually-hidden">Step {index + 1}: </span>
          {stepTypeNames[step.type]}
        </h3>
        {index === 0 && <span class="badge tone-accent">Starts here</span>}
        <div class="cluster journey-card-tools">
          <button type="button" class="small ghost" onClick={() => onMove(-1)} disabled={index === 0} aria-label={`Move ${name} up`}>
            ↑ Up
          </button>
          <button type="button" class="small ghost" onClick={() => onMove(1)} disabled={index === steps.length - 1} aria-label={`Move ${name} down`}>
            ↓ Down
          </button>
          <button type="button" class="small ghost danger-text" onClick={onRemove} aria-label={`Remove ${name}`}>
            Remove
          </button>
        </div>
      </div>
      <Field id={`${step.key}-id`} label="Step name">
        <input
          id={`${step.key}-id`}
          class="mono"
          value={step.id}
          onInput={(e) => onRename(e.currentTarget.value)}
          autocomplete="off"
          spellcheck={false}
          maxLength={64}
        />
      </Field>
      <StepFields step={step} steps={steps} index={index} errors={errors} onChange={onChange} />
      <Errors messages={mine} />
    </li>
  );
}

function JourneyForm({ journey }: { journey?: Journey }) {
  const { route } = useLocation();
  const [draft, setDraft] = useState<JourneyDraft>(() => (journey ? draftOf(journey.name, journey.definition) : emptyDraft()));
  const [local, setLocal] = useState<string[]>([]);
  const { busy, failed, run } = useChange('Your role may not change journeys.');
  const failure = failed('save');
  const errors = [...local, ...(failure?.errors ?? [])];
  const set = (patch: Partial<JourneyDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setSteps = (update: (steps: StepDraft[]) => StepDraft[]) => setDraft((current) => ({ ...current, steps: update(current.steps) }));
  const live = journey !== undefined && journey.status !== 'draft';

  const save = async (publish: boolean) => {
    const made = definitionOf(draft);
    if ('problems' in made) {
      setLocal(made.problems);
      return;
    }
    setLocal([]);
    const answer = await run(
      'save',
      async () => {
        const saved = journey
          ? await postJson<ConsoleAnswer<'ConsoleEditJourney'>>(`/journeys/${encodeURIComponent(journey.journey_id)}`, {
              name: draft.name,
              definition: made.definition,
            })
          : await postJson<ConsoleAnswer<'ConsoleCreateJourney'>>('/journeys', {
              name: draft.name,
              ...(draft.journeyId.trim() ? { journey_id: draft.journeyId.trim() } : {}),
              definition: made.definition,
            });
        if (!publish || saved.journey.status !== 'draft') return saved;
        return postJson<ConsoleAnswer<'ConsolePublishJourney'>>(`/journeys/${encodeURIComponent(saved.journey.journey_id)}/publish`);
      },
      ({ journey: saved }) =>
        saved.status === 'live' && publish
          ? `Journey “${saved.name}” is live.`
          : live
            ? `Journey “${saved.name}” saved as version ${saved.version}.`
            : `Journey “${saved.name}” saved as a draft.`,
    );
    if (answer) route(journeyPath(answer.journey.journey_id));
  };

  const topFields = ['name', 'journey_id', 'entry', 'audience', 'reentry', 'goal', 'steps'];
  return (
    <form
      class="journey-form"
      aria-label={journey ? 'Edit journey' : 'New journey'}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save(false);
      }}
    >
      <TemplateChoices prefix="journey-templates" />
      {live && (
        <Alert tone="info" title={`Saving makes version ${journey.version + 1}.`}>
          Players already in the journey keep version {journey.version} until they leave it; players who enter from then on take the new one.
        </Alert>
      )}
      <Card title="Journey">
        <div class="form-row">
          <Field id="journey-name" label="Name" errors={errorsFor(errors, 'name')}>
            <input
              {...fieldProps('journey-name', errorsFor(errors, 'name'))}
              value={draft.name}
              onInput={(e) => set({ name: e.currentTarget.value })}
              required
              maxLength={100}
              autocomplete="off"
            />
          </Field>
          {!journey && (
            <Field
              id="journey-id"
              label="Id (optional)"
              hint="Made from the name when left empty; it cannot change later."
              errors={errorsFor(errors, 'journey_id')}
            >
              <input
                {...fieldProps('journey-id', errorsFor(errors, 'journey_id'), true)}
                value={draft.journeyId}
                onInput={(e) => set({ journeyId: e.currentTarget.value })}
                maxLength={64}
                autocomplete="off"
                spellcheck={false}
                placeholder="e.g. welcome"
              />
            </Field>
          )}
        </div>
      </Card>

      <Card title="Entry">
        <fieldset class="journey-choices">
          <legend>What starts the journey</legend>
          {entryChoices.map((choice) => (
            <label key={choice.kind} class="choice">
              <input type="radio" name="entry" checked={draft.entryKind === choice.kind} onChange={() => set({ entryKind: choice.kind })} />
              {choice.label}
            </label>
          ))}
        </fieldset>
        {draft.entryKind === 'event' && (
          <>
            <Field id="entry-event" label="Event name">
              <input
                id="entry-event"
                value={draft.entryEvent}
                onInput={(e) => set({ entryEvent: e.currentTarget.value })}
                autocomplete="off"
                placeholder="e.g. Registration"
              />
            </Field>
            {draft.where.length > 0 && (
              <ol class="journey-rows">
                {draft.where.map((row, w) => {
                  const change = (patch: Partial<typeof row>) => set({ where: draft.where.map((x, j) => (j === w ? { ...x, ...patch } : x)) });
                  return (
                    <li key={w} class="journey-row">
                      <Field id={`where-property-${w}`} label={`Property ${w + 1}`}>
                        <input
                          id={`where-property-${w}`}
                          value={row.property}
                          onInput={(e) => change({ property: e.currentTarget.value })}
                          autocomplete="off"
                        />
                      </Field>
                      <Field id={`where-op-${w}`} label={`Comparison ${w + 1}`}>
                        <select id={`where-op-${w}`} value={row.op} onChange={(e) => change({ op: e.currentTarget.value })}>
                          {propertyOps.map((op) => (
                            <option key={op.op} value={op.op}>
                              {op.label}
                            </option>
                          ))}
                        </select>
                      </Field>
                      {row.op !== 'exists' && (
                        <Field id={`where-value-${w}`} label={`Value ${w + 1}`}>
                          <input
                            id={`where-value-${w}`}
                            value={row.value}
                            onInput={(e) => change({ value: e.currentTarget.value })}
                            autocomplete="off"
                            placeholder={row.op === 'in' ? 'a, b, c' : ''}
                          />
                        </Field>
                      )}
                      <button
                        type="button"
                        class="small ghost"
                        onClick={() => set({ where: draft.where.filter((_, j) => j !== w) })}
                        aria-label={`Remove property condition ${w + 1}`}
                      >
                        Remove
                      </button>
                    </li>
                  );
                })}
              </ol>
            )}
            <button type="button" class="small" onClick={() => set({ where: [...draft.where, { property: '', op: 'equals', value: '' }] })}>
              Add a property condition
            </button>
          </>
        )}
        {draft.entryKind === 'segment_entered' && (
          <Field id="entry-segment" label="Segment id" hint="The player enters when they become a member.">
            <input
              {...fieldProps('entry-segment', [], true)}
              value={draft.entrySegment}
              onInput={(e) => set({ entrySegment: e.currentTarget.value })}
              autocomplete="off"
            />
          </Field>
        )}
        {draft.entryKind === 'api' && (
          <p class="muted">An integrator enters a player with POST /api/journeys/{'{journey_id}'}/trigger, with data for the templates.</p>
        )}
        <Errors messages={under(errors, 'entry')} />
      </Card>

      <Card title="Audience">
        <ConditionField
          id="journey-audience"
          label="Audience condition (optional)"
          hint="Only players who match it when they would enter do enter. Empty: everyone."
          value={draft.audience}
          onChange={(text) => set({ audience: text })}
          errors={under(errors, 'audience')}
        />
      </Card>

      <Card title="Re-entry and goal">
        <div class="journey-two">
          <div>
            <fieldset class="journey-choices">
              <legend>A player may enter</legend>
              {reentryChoices.map((choice) => (
                <label key={choice.kind} class="choice">
                  <input type="radio" name="reentry" checked={draft.reentry === choice.kind} onChange={() => set({ reentry: choice.kind })} />
                  {choice.label}
                </label>
              ))}
            </fieldset>
            {draft.reentry === 'every_days' && (
              <Field id="reentry-days" label="Days between entries">
                <input
                  id="reentry-days"
                  type="number"
                  min={1}
                  max={365}
                  value={draft.reentryDays}
                  onInput={(e) => set({ reentryDays: e.currentTarget.value })}
                />
              </Field>
            )}
            <Errors messages={under(errors, 'reentry')} />
          </div>
          <div>
            <div class="form-row">
              <Field id="goal-event" label="Goal event" hint="Empty: a deposit. Reaching it ends the journey as a conversion.">
                <input
                  {...fieldProps('goal-event', [], true)}
                  value={draft.goalEvent}
                  onInput={(e) => set({ goalEvent: e.currentTarget.value })}
                  autocomplete="off"
                  placeholder="a deposit"
                />
              </Field>
              <Field id="goal-days" label="Within days (optional)">
                <input id="goal-days" type="number" min={1} max={365} value={draft.goalDays} onInput={(e) => set({ goalDays: e.currentTarget.value })} />
              </Field>
            </div>
            <Errors messages={under(errors, 'goal')} />
          </div>
        </div>
      </Card>

      <Card title="Steps">
        <p class="muted">
          Every entry starts at the first step, and each step goes on to the one you pick by its name (a-z, 0-9, _ and -). A step added after a send or a wait
          is where it goes on to.
        </p>
        {draft.steps.length > 0 && (
          <ol class="journey-cards">
            {draft.steps.map((step, i) => (
              <StepCard
                key={step.key}
                step={step}
                index={i}
                steps={draft.steps}
                errors={errors}
                onChange={(patch) => setSteps((steps) => steps.map((s, j) => (j === i ? { ...s, ...patch } : s)))}
                onRename={(id) => setSteps((steps) => renameStep(steps, i, id))}
                onMove={(by) => setSteps((steps) => moveStep(steps, i, by))}
                onRemove={() => setSteps((steps) => removeStep(steps, i))}
              />
            ))}
          </ol>
        )}
        <div class="journey-add" role="group" aria-label="Add a step">
          <span class="muted">Add a step:</span>
          {addable.map((choice) => (
            <button key={choice.type} type="button" class="small" onClick={() => setDraft((current) => withStep(current, choice.type))}>
              {choice.label}
            </button>
          ))}
        </div>
        <Errors messages={errors.filter((message) => /^steps(?!\[)/.test(message))} />
      </Card>

      <FormFailure failure={failure} not={journey ? 'Not saved' : 'Not created'} fields={topFields} />
      {local.length > 0 && <Alert tone="danger">Not saved: fix the marked parts first.</Alert>}
      <FormActions>
        {live ? (
          <button type="submit" class="primary" aria-busy={busy === 'save'} disabled={busy !== undefined}>
            Save new version
          </button>
        ) : (
          <>
            <button type="submit" aria-busy={busy === 'save'} disabled={busy !== undefined}>
              Save draft
            </button>
            <button type="button" class="primary" onClick={() => void save(true)} disabled={busy !== undefined}>
              Publish
            </button>
          </>
        )}
        <a class="button ghost" href={journey ? journeyPath(journey.journey_id) : '/console/journeys'}>
          Cancel
        </a>
      </FormActions>
    </form>
  );
}

export function NewJourneyPage() {
  return (
    <>
      <PageHeader
        trail={[{ label: 'Journeys', href: '/console/journeys' }, { label: 'New journey' }]}
        title="New journey"
        subtitle="Saved as a draft until you publish it: nobody enters a draft."
      />
      <JourneyForm />
    </>
  );
}

export function EditJourneyPage({ id }: { id: string }) {
  const loaded = useApi(() => getJson<ConsoleAnswer<'ConsoleGetJourney'>>(`/journeys/${encodeURIComponent(id)}`), id);
  const journey = loaded.data?.journey;
  return (
    <>
      <PageHeader
        trail={[
          { label: 'Journeys', href: '/console/journeys' },
          { label: journey ? journey.name : <Visible text={id} />, href: journeyPath(id) },
          { label: 'Edit' },
        ]}
        title={journey ? `Edit ${journey.name}` : 'Edit journey'}
      />
      {loaded.error && <ErrorNote error={loaded.error} />}
      {!journey && loaded.loading && <Loading what="the journey" />}
      {journey?.status === 'archived' && <Alert tone="warning">An archived journey cannot be changed.</Alert>}
      {/* Only once read: the form's fields start from the journey. */}
      {journey && journey.status !== 'archived' && <JourneyForm journey={journey} />}
    </>
  );
}

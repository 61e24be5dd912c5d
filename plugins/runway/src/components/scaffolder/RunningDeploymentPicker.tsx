/**
 * Scaffolder field `RunwayRunningDeploymentPicker`: a Ready ModelDeployment
 * of the cluster in a sibling field, with the URL and model name a client
 * (e.g. a stack's inference provider) uses — the stack form's "use a running
 * deployment", for templates. Value: `{ deployment, endpoint, model }`.
 */
import {
  makeFieldSchema,
  type FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import {
  type RunningDeployment,
  runningDeployments,
} from '../../lib/runningDeployments';
import * as shell from './pickerShell';
import type { RunwayPickerOptions, RunwayPickerValidator } from './pickerShell';

/** @public */
export const RunwayRunningDeploymentPickerSchema = makeFieldSchema({
  output: z =>
    z.object({
      deployment: z.string().describe('namespace/name of the ModelDeployment'),
      endpoint: z
        .string()
        .describe(
          "OpenAI-compatible base URL (…/v1): the Gateway's when the model is routed there, else its Service",
        ),
      model: z.string().describe('The model name requests carry'),
    }),
  uiOptions: z =>
    z.object({
      clusterField: shell.clusterFieldOption(z),
    }),
});

/** What the field hands the template. @public */
export interface RunningDeploymentValue {
  deployment: string;
  endpoint: string;
  model: string;
}

type Props = FieldExtensionComponentProps<
  RunningDeploymentValue,
  RunwayPickerOptions
>;

const valueOf = (d: RunningDeployment): RunningDeploymentValue => ({
  deployment: d.ref,
  endpoint: d.endpoint,
  model: d.model,
});

/** The Ready deployments of the cluster the sibling field names. */
const RUNNING: shell.ScopedSource<RunningDeployment> = {
  noun: 'deployments',
  load: async (api, { cluster }) =>
    runningDeployments(
      (await api.list('deployments', { clusters: [cluster] })).items,
      cluster,
    ),
};

/** @public */
export function RunwayRunningDeploymentPicker(props: Props) {
  const { formData, onChange, schema } = props;
  const { scope, list, items: running } = shell.useScopedList(RUNNING, props);
  const chosen = running.find(r => r.ref === formData?.deployment);
  const help = shell.scopedHelp(scope, list, {
    noun: RUNNING.noun,
    loading: 'Loading the running deployments…',
    empty: `No Ready deployment in cluster ${scope.cluster}: deploy a model first`,
    chosen: chosen && `${chosen.endpoint}, model "${chosen.model}"`,
    description: schema.description,
  });
  return (
    <shell.PickerSelect
      field={props}
      fallbackId="runway-running-deployment-picker"
      fallbackLabel="Running deployment"
      blocked={!running.length}
      value={chosen ? chosen.ref : formData?.deployment ?? ''}
      onPick={ref => onChange(shell.picked(running, ref, valueOf))}
      error={list.error}
      help={help}
      staleWhy={`not a Ready deployment of cluster ${scope.cluster}`}
      options={running.map(r => ({
        value: r.ref,
        primary: r.ref,
        secondary: `${r.model} via ${r.via} (${r.endpoint})`,
      }))}
    />
  );
}

/** The chosen deployment must still be Ready in the chosen cluster (a fresh list). @public */
export const validateRunwayRunningDeployment: RunwayPickerValidator<RunningDeploymentValue> =
  shell.listedValidator<RunningDeploymentValue, RunningDeployment>(
    'Running deployment',
    RUNNING,
    (value, running, { cluster }) => {
      if (running.some(r => r.ref === value.deployment)) return undefined;
      const ready = running.map(r => r.ref).join(', ');
      return `deployment ${
        value.deployment
      } is not Ready in cluster "${cluster}"; ${
        ready
          ? `choose one of ${ready}`
          : 'wait until it is Running, or deploy a model first'
      }`;
    },
    value => !value?.deployment,
  );

export const runwayRunningDeploymentPickerOptions = {
  name: 'RunwayRunningDeploymentPicker',
  component: RunwayRunningDeploymentPicker,
  validation: validateRunwayRunningDeployment,
};

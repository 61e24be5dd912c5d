import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type ProviderApi,
  STACK_FORM,
  STACK_FORM_SECTIONS,
  STACK_FORM_STEPS,
  type StackFormField,
} from '@runway-portal/plugin-runway-common';
import { type ReactNode, useMemo } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import type { ResourceRef } from '../../api/RunwayApi';
import type { KubeObject } from '../../api/types';
import { useRunwayData } from '../../hooks/useRunwayData';
import {
  modelsWithDeployment,
  providerFromDeployment,
  type RunningDeployment,
  runningDeployments,
} from '../../lib/runningDeployments';
import {
  emptyStackValues,
  fromStack,
  STACK_PROVIDER_APIS,
  type StackFormValues,
  stackFieldForIssue,
  toStack,
  validateStackForm,
} from '../../lib/stackForm';
import { MetaField } from '../form/fields';
import {
  type FormLoaded,
  ResourceForm,
  ResourceFormLoader,
  TargetFields,
  useNewResourceTarget,
  useResourceForm,
} from '../form/ResourceForm';
import {
  CodeBlock,
  DryRunPreview,
  type PreviewState,
  ProviderObjectsView,
  Yaml,
} from '../wizard/ReviewStep';
import { useStackLinks } from './links';

const F = STACK_FORM;

/** Create a stack, or edit one (`edit` names it). */
export function StackForm({ edit }: { edit?: ResourceRef }) {
  return (
    <ResourceFormLoader<KubeObject> kind="stacks" source={edit}>
      {loaded => <StackFormBody loaded={loaded} />}
    </ResourceFormLoader>
  );
}

/** A section of the page: its title and help from runway-common's `STACK_FORM_SECTIONS`. */
function Section(props: { label: string; children: ReactNode }) {
  const section = STACK_FORM_SECTIONS.find(s => s.label === props.label);
  const id = `stack-section-${props.label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={id}
      sx={{ p: 2, mb: 2 }}
    >
      <Typography variant="h6" component="h2" id={id}>
        {props.label}
      </Typography>
      {section?.help && (
        <Typography variant="body2" color="text.secondary">
          {section.help}
        </Typography>
      )}
      {props.children}
    </Paper>
  );
}

/**
 * Fields side by side on a wide screen. A flex gap, not margins, so each
 * field keeps its own (two rows of selects without help touched).
 */
function Row(props: { children: ReactNode; sx?: object }) {
  return (
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={2}
      useFlexGap
      sx={props.sx}
    >
      {props.children}
    </Stack>
  );
}

function Fields({ names }: { names: StackFormField[] }) {
  return (
    <>
      {names.map(n => (
        <MetaField key={n} field={F[n]} />
      ))}
    </>
  );
}

function StackFormBody({ loaded }: { loaded: FormLoaded<KubeObject> }) {
  const { clusters, clusterErrors, object: existing } = loaded;
  const distributions = loaded.overview?.stackDistributions ?? [];
  const links = useStackLinks();
  const target = useNewResourceTarget(clusters);
  const state = useResourceForm<StackFormValues, KubeObject>({
    kind: 'stacks',
    existing,
    steps: [{ label: STACK_FORM_STEPS[0] }, { label: STACK_FORM_STEPS[1] }],
    defaults: () =>
      existing
        ? fromStack(existing.cluster, existing.object)
        : emptyStackValues({
            ...target,
            // starter is the operator's general-purpose distribution; else its first.
            distribution: (
              distributions.find(d => d.name === 'starter') ?? distributions[0]
            )?.name,
          }),
    validate: values =>
      validateStackForm(
        values,
        {
          distributions: distributions.map(d => d.name),
          namespaces: clusters.find(c => c.name === values.cluster)?.namespaces,
        },
        existing?.object,
      ),
    toObject: values => toStack(values, existing?.object),
    fieldOf: stackFieldForIssue,
    detailLink: links.detail,
  });
  const { values, step, preview } = state;

  // Running deployments of the chosen cluster, for the inference providers' picker.
  const deployments = useRunwayData(
    a =>
      values.cluster
        ? a.list('deployments', { clusters: [values.cluster] })
        : Promise.resolve(undefined),
    [values.cluster],
  );
  const running = useMemo(
    () => runningDeployments(deployments.value?.items ?? [], values.cluster),
    [deployments.value, values.cluster],
  );
  let runningState: string | undefined;
  if (deployments.loading && values.cluster) runningState = 'loading';
  else if (deployments.error) runningState = deployments.error.message;

  const source = values.ui?.distributionSource ?? 'name';
  const chosenDistribution = distributions.find(
    d => d.name === values.spec?.distribution?.name,
  );
  let distributionHelp: string | undefined;
  if (!distributions.length)
    distributionHelp =
      "The backend did not list the operator's distributions: type a name it knows.";
  else if (chosenDistribution)
    distributionHelp = `Image ${chosenDistribution.image}`;
  const title = existing
    ? `Edit stack ${existing.object.metadata?.name}`
    : 'Create a stack';

  return (
    <ResourceForm
      state={state}
      label={title}
      title={title}
      nextLabel="Review"
      intro={
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            A Llama Stack server (LlamaStackDistribution,
            llamastack.io/v1alpha2). The stack operator generates its
            config.yaml from these fields over the distribution's base config.
          </Typography>
          {existing?.object.apiVersion === 'llamastack.io/v1alpha1' && (
            <Alert severity="info" sx={{ mb: 2 }}>
              This stack was written as llamastack.io/v1alpha1; it opens here
              converted to v1alpha2 (the operator's conversion) and is saved as
              v1alpha2. Fields v1alpha2 cannot hold are kept in its annotation.
            </Alert>
          )}
        </>
      }
    >
      {step === 0 && (
        <>
          <Section label="Where">
            <TargetFields
              state={state}
              clusters={clusters}
              clusterErrors={clusterErrors}
              fields={F}
              action="create the stack"
              row
            />
          </Section>

          <Section label="Distribution">
            <MetaField field={F['ui.distributionSource']} />
            {source === 'name' ? (
              <MetaField
                field={F['spec.distribution.name']}
                options={
                  distributions.length
                    ? distributions.map(d => ({
                        value: d.name,
                        label: `${d.name} (${d.image})`,
                      }))
                    : undefined
                }
                help={distributionHelp}
              />
            ) : (
              <MetaField field={F['spec.distribution.image']} />
            )}
          </Section>

          <Section label="Providers">
            {STACK_PROVIDER_APIS.map(({ api: providerApi, title: t }) => (
              <ProviderRows
                key={providerApi}
                api={providerApi}
                title={t}
                running={providerApi === 'inference' ? running : undefined}
                runningState={runningState}
              />
            ))}
          </Section>

          <Section label="Resources">
            <ModelRows />
            <Row>
              <Fields names={['ui.tools', 'ui.shields']} />
            </Row>
          </Section>

          <StorageSection />
          <NetworkingSection />
          <Section label="Workload">
            <Row>
              <Fields
                names={['spec.workload.replicas', 'spec.workload.workers']}
              />
            </Row>
            <Row>
              <Fields
                names={[
                  'spec.workload.resources.requests.cpu',
                  'spec.workload.resources.requests.memory',
                  'spec.workload.resources.limits.cpu',
                  'spec.workload.resources.limits.memory',
                ]}
              />
            </Row>
            <Row>
              <Fields
                names={[
                  'spec.workload.storage.size',
                  'spec.workload.storage.mountPath',
                ]}
              />
            </Row>
          </Section>
        </>
      )}

      {step === 1 && <StackReview preview={preview} />}
    </ResourceForm>
  );
}

/** The dry-run preview: the stack as stored, then what the operator would write (config.yaml first). */
function StackReview({ preview }: { preview: PreviewState }) {
  return (
    <Box>
      <DryRunPreview
        preview={preview}
        written="Stack"
        objects={value =>
          value.objects.map(o => (
            <Yaml
              key={o.object.metadata?.name}
              value={o.object}
              label={`LlamaStackDistribution ${o.object.metadata?.name} YAML`}
            />
          ))
        }
        after={value => {
          const configMap = value.providerObjects.objects.find(
            o => o.kind === 'ConfigMap',
          );
          const configYaml = (configMap as { data?: Record<string, string> })
            ?.data?.['config.yaml'];
          return (
            <>
              {typeof configYaml === 'string' && (
                <Box component="section" aria-label="Generated config.yaml">
                  <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
                    Generated config.yaml
                  </Typography>
                  <CodeBlock label="config.yaml">{configYaml}</CodeBlock>
                </Box>
              )}
              <ProviderObjectsView value={value.providerObjects} />
            </>
          );
        }}
      />
    </Box>
  );
}

function RemoveButton(props: { label: string; onClick: () => void }) {
  return (
    <IconButton aria-label={props.label} onClick={props.onClick}>
      ×
    </IconButton>
  );
}

/** The providers of one API, each a row; inference rows can be filled from a running deployment. */
function ProviderRows(props: {
  api: ProviderApi;
  title: string;
  running?: RunningDeployment[];
  runningState?: string;
}) {
  const { api, title, running, runningState } = props;
  const { control, getValues, setValue } = useFormContext<StackFormValues>();
  const name = `spec.providers.${api}` as const;
  const { fields, append, remove } = useFieldArray({ control, name });
  // The rows' current values (the field array's own items keep what they were appended with).
  const rows = useWatch({ control, name }) ?? [];
  const rowOf = (i: number) => ({
    name: `${name}.${i}`,
    label: `${title} provider ${i + 1}`,
  });
  const applyDeployment = (index: number, ref: string) => {
    const d = running?.find(r => r.ref === ref);
    if (!d) return;
    const row = getValues(`${name}.${index}`);
    const provider = providerFromDeployment(d, row);
    setValue(`${name}.${index}`, provider, {
      shouldDirty: true,
      shouldValidate: true,
    });
    setValue(
      'spec.resources.models',
      modelsWithDeployment(
        getValues('spec.resources.models') ?? [],
        d,
        provider.id ?? d.name,
      ),
      { shouldDirty: true, shouldValidate: true },
    );
  };
  return (
    <Box
      component="fieldset"
      sx={{ border: 0, p: 0, m: 0, mt: 2 }}
      aria-label={`${title} providers`}
    >
      <Typography component="legend" variant="subtitle1">
        {title}
      </Typography>
      {fields.map((row, i) => (
        <Box key={row.id} sx={{ pl: 1, borderLeft: 2, borderColor: 'divider' }}>
          {running && (
            <RunningDeploymentSelect
              label={`${title} provider ${i + 1}: use a running deployment`}
              running={running}
              state={runningState}
              value={rows[i]?.fromDeployment ?? ''}
              onChange={ref => applyDeployment(i, ref)}
            />
          )}
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <RowField row={rowOf(i)} field="provider.provider" />
            <RowField row={rowOf(i)} field="provider.id" />
          </Stack>
          <RowField row={rowOf(i)} field="provider.endpoint" />
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            alignItems="center"
          >
            <RowField
              row={rowOf(i)}
              field="provider.apiKey.secretKeyRef.name"
            />
            <RowField row={rowOf(i)} field="provider.apiKey.secretKeyRef.key" />
            <RemoveButton
              label={`Remove ${title.toLowerCase()} provider ${i + 1}`}
              onClick={() => remove(i)}
            />
          </Stack>
        </Box>
      ))}
      <Button
        onClick={() =>
          append({ provider: api === 'inference' ? 'vllm' : '', endpoint: '' })
        }
      >
        Add {title.toLowerCase()} provider
      </Button>
    </Box>
  );
}

/** Fills a provider from a Ready ModelDeployment of the stack's cluster. */
export function RunningDeploymentSelect(props: {
  label: string;
  running: RunningDeployment[];
  state?: string;
  value: string;
  onChange: (ref: string) => void;
}) {
  const { label, running, state, value, onChange } = props;
  let help: string;
  if (state === 'loading') help = 'Loading the running deployments…';
  else if (state) help = `Could not list the deployments: ${state}`;
  else if (!running.length)
    help =
      'No Ready deployment in this cluster yet: deploy a model first, or type the endpoint.';
  else
    help =
      "Fills the endpoint (the Gateway's URL when the model is routed there, else its Service) and registers its served model name.";
  const known = running.some(r => r.ref === value);
  return (
    <TextField
      select
      fullWidth
      margin="normal"
      label={label}
      value={known ? value : ''}
      onChange={e => onChange(e.target.value)}
      helperText={value && !known ? `${value} is no longer Ready` : help}
      disabled={!running.length}
      SelectProps={{ displayEmpty: true }}
      InputLabelProps={{ shrink: true }}
    >
      <MenuItem value="">(none: type the endpoint)</MenuItem>
      {running.map(r => (
        <MenuItem key={r.ref} value={r.ref}>
          {r.ref} — {r.model} via {r.via} ({r.endpoint})
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * A field of a provider or model row: runway-common describes it once
 * (`provider.endpoint`); each row names and labels it after itself
 * (`spec.providers.inference.0.endpoint`, "Inference provider 1 endpoint").
 */
function RowField(props: {
  row: { name: string; label: string };
  field: StackFormField;
}) {
  const field = F[props.field];
  const key = props.field.slice(props.field.indexOf('.') + 1);
  return (
    <MetaField
      field={field}
      name={`${props.row.name}.${key}`}
      label={`${props.row.label} ${field.label}`}
    />
  );
}

function ModelRows() {
  const { control } = useFormContext<StackFormValues>();
  const { fields, append, remove } = useFieldArray({
    control,
    name: 'spec.resources.models',
  });
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 1 }}>
      <Typography component="legend" variant="subtitle1">
        Models
      </Typography>
      {fields.map((row, i) => {
        const at = {
          name: `spec.resources.models.${i}`,
          label: `Model ${i + 1}`,
        };
        return (
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            key={row.id}
            alignItems="center"
          >
            <RowField row={at} field="model.name" />
            <RowField row={at} field="model.provider" />
            <RowField row={at} field="model.contextLength" />
            <RemoveButton
              label={`Remove model ${i + 1}`}
              onClick={() => remove(i)}
            />
          </Stack>
        );
      })}
      <Button onClick={() => append({ name: '', provider: '' })}>
        Add model
      </Button>
    </Box>
  );
}

function StorageSection() {
  const kv = useWatch<StackFormValues>({ name: 'spec.storage.kv.type' });
  const sql = useWatch<StackFormValues>({ name: 'spec.storage.sql.type' });
  return (
    <Section label="Storage">
      <Row sx={{ mt: 1 }}>
        <MetaField field={F['spec.storage.kv.type']} />
        {kv === 'redis' && (
          <Fields
            names={[
              'spec.storage.kv.endpoint',
              'spec.storage.kv.password.secretKeyRef.name',
              'spec.storage.kv.password.secretKeyRef.key',
            ]}
          />
        )}
      </Row>
      <Row>
        <MetaField field={F['spec.storage.sql.type']} />
        {sql === 'postgres' && (
          <Fields
            names={[
              'spec.storage.sql.connectionString.secretKeyRef.name',
              'spec.storage.sql.connectionString.secretKeyRef.key',
            ]}
          />
        )}
      </Row>
    </Section>
  );
}

function NetworkingSection() {
  const expose = useWatch<StackFormValues>({ name: 'ui.expose' });
  const tls = useWatch<StackFormValues>({ name: 'ui.tlsEnabled' });
  return (
    <Section label="Networking">
      <Row>
        <MetaField field={F['spec.networking.port']} />
        <MetaField field={F['ui.tlsEnabled']} />
        {tls === 'true' && (
          <MetaField field={F['spec.networking.tls.secretName']} />
        )}
      </Row>
      <MetaField field={F['ui.expose']} />
      {Boolean(expose) && (
        <MetaField field={F['spec.networking.expose.hostname']} />
      )}
      <Row>
        <Fields names={['ui.allowedNamespaces', 'ui.allowedLabels']} />
      </Row>
    </Section>
  );
}

import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  KV_STORAGE_TYPES,
  type ProviderApi,
  runwayPermissions,
  SQL_STORAGE_TYPES,
} from '@runway-portal/plugin-runway-common';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import {
  Controller,
  FormProvider,
  type Resolver,
  useFieldArray,
  useForm,
  useFormContext,
  useWatch,
} from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  type ResourceRef,
  RunwayApiError,
  runwayApiRef,
} from '../../api/RunwayApi';
import type {
  ClusterOverview,
  KubeObject,
  PreviewResponse,
  StackDistribution,
} from '../../api/types';
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
  type StackFormContext,
  type StackFormValues,
  stackFieldForIssue,
  toStack,
  validateStackForm,
} from '../../lib/stackForm';
import { ErrorAlert } from '../common/ErrorAlert';
import { PermissionGate, useRunwayPermission } from '../common/PermissionGate';
import { FormField, WarningsContext } from '../wizard/fields';
import { toFieldErrors } from '../wizard/resolver';
import { ProviderObjectsView, Yaml } from '../wizard/ReviewStep';
import { useStackLinks } from './links';

const STEPS = ['Stack', 'Dry-run preview'] as const;

/** Create a stack, or edit one (`edit` names it). */
export function StackForm({ edit }: { edit?: ResourceRef }) {
  const clusters = useRunwayData(api => api.listClusters(), []);
  const existing = useRunwayData(
    api => (edit ? api.get('stacks', edit) : Promise.resolve(undefined)),
    [edit?.cluster, edit?.namespace, edit?.name],
    ['stacks'],
  );
  if (clusters.loading || existing.loading)
    return <LinearProgress aria-label="loading clusters" />;
  if (edit && !existing.value) {
    return (
      <ErrorAlert
        error={
          existing.error ??
          new Error(
            `stack ${edit.namespace}/${edit.name} not found in ${edit.cluster}`,
          )
        }
        title="Cannot edit"
      />
    );
  }
  return (
    <>
      {clusters.error && (
        <ErrorAlert
          error={clusters.error}
          title="Could not load the clusters"
        />
      )}
      <StackFormBody
        clusters={clusters.value?.items ?? []}
        clusterErrors={clusters.value?.errors ?? []}
        distributions={clusters.value?.stackDistributions ?? []}
        existing={
          existing.value
            ? { cluster: existing.value.cluster, object: existing.value.object }
            : undefined
        }
      />
    </>
  );
}

const stackResolver: Resolver<
  StackFormValues,
  { context: StackFormContext; existing?: KubeObject }
> = async (values, ctx) => {
  const issues = validateStackForm(values, ctx?.context, ctx?.existing);
  const errors = toFieldErrors(issues as any);
  return Object.keys(errors).length
    ? { values: {}, errors: errors as any }
    : { values, errors: {} };
};

function Section(props: {
  title: string;
  help?: ReactNode;
  children: ReactNode;
}) {
  const id = `stack-section-${props.title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={id}
      sx={{ p: 2, mb: 2 }}
    >
      <Typography variant="h6" component="h2" id={id}>
        {props.title}
      </Typography>
      {props.help && (
        <Typography variant="body2" color="text.secondary">
          {props.help}
        </Typography>
      )}
      {props.children}
    </Paper>
  );
}

function StackFormBody(props: {
  clusters: ClusterOverview[];
  clusterErrors: Array<{ cluster: string; message: string }>;
  distributions: StackDistribution[];
  existing?: { cluster: string; object: KubeObject };
}) {
  const { clusters, clusterErrors, distributions, existing } = props;
  const api = useApi(runwayApiRef);
  const navigate = useNavigate();
  const links = useStackLinks();
  const [search] = useSearchParams();
  const defaults = useMemo(
    () =>
      existing
        ? fromStack(existing.cluster, existing.object)
        : emptyStackValues({
            cluster:
              search.get('cluster') ??
              (clusters.length === 1 ? clusters[0].name : ''),
            namespace: search.get('namespace') ?? 'default',
            // starter is the operator's general-purpose distribution; else its first.
            distribution: (
              distributions.find(d => d.name === 'starter') ?? distributions[0]
            )?.name,
          }),
    // Defaults are read once, when the form opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const context = useRef<StackFormContext>({});
  const form = useForm<StackFormValues>({
    defaultValues: defaults,
    mode: 'onChange',
    resolver: (values, _ctx, options) =>
      stackResolver(
        values,
        { context: context.current, existing: existing?.object },
        options,
      ),
  });
  const values = useWatch({ control: form.control }) as StackFormValues;
  const cluster = clusters.find(c => c.name === values.cluster);
  context.current = {
    distributions: distributions.map(d => d.name),
    namespaces: cluster?.namespaces,
  };
  const valuesKey = JSON.stringify(values);
  const stack = useMemo(
    () => toStack(values, existing?.object),
    [valuesKey], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const issues = useMemo(
    () => validateStackForm(values, context.current, existing?.object),
    [valuesKey, cluster], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const warnings = useMemo(
    () => issues.filter(i => i.severity === 'warning'),
    [issues],
  );

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

  const [step, setStep] = useState(0);
  const [preview, setPreview] = useState<{
    value?: PreviewResponse;
    error?: Error;
    loading: boolean;
  }>({ loading: false });
  const [submitError, setSubmitError] = useState<Error>();

  useEffect(() => {
    if (step !== 1) return undefined;
    let current = true;
    setPreview({ loading: true });
    api
      .preview('stacks', values.cluster, stack, existing ? 'update' : 'create')
      .then(
        value => current && setPreview({ value, loading: false }),
        error => current && setPreview({ error, loading: false }),
      );
    return () => {
      current = false;
    };
  }, [step, stack]); // eslint-disable-line react-hooks/exhaustive-deps

  // A change can fix or break another field (a model's provider, a disabled API): re-check what was touched.
  useEffect(() => {
    if (Object.keys(form.formState.errors).length) form.trigger();
  }, [valuesKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const review = async () => {
    if (await form.trigger()) setStep(1);
  };

  const writePermission = existing
    ? runwayPermissions.stacks.update
    : runwayPermissions.stacks.create;
  const writeTarget = existing
    ? {
        cluster: existing.cluster,
        namespace: existing.object.metadata?.namespace ?? '',
      }
    : { cluster: values.cluster, namespace: values.metadata?.namespace };
  const writeAccess = useRunwayPermission(writePermission, writeTarget);

  const rootErrors = issues.filter(
    i => i.severity === 'error' && i.field === 'root',
  );

  const submit = form.handleSubmit(async formValues => {
    setSubmitError(undefined);
    const object = toStack(formValues, existing?.object);
    const namespace = object.metadata?.namespace ?? '';
    const name = object.metadata?.name ?? '';
    try {
      if (existing) {
        await api.update(
          'stacks',
          { cluster: existing.cluster, namespace, name },
          object,
        );
        navigate(links.detail(existing.cluster, namespace, name));
      } else {
        await api.create('stacks', formValues.cluster, object);
        navigate(links.detail(formValues.cluster, namespace, name));
      }
    } catch (err) {
      const error = err as Error;
      setSubmitError(error);
      if (error instanceof RunwayApiError) {
        for (const issue of error.issues.filter(i => i.severity === 'error'))
          form.setError(stackFieldForIssue(issue.path) as any, {
            type: 'server',
            message: issue.message,
          });
      }
    }
  });

  const clusterOptions = clusters.map(c => ({
    value: c.name,
    label: `${c.title || c.name}${c.reachable ? '' : ' (unreachable)'}`,
  }));
  const namespaceOptions = cluster?.namespaces?.length
    ? cluster.namespaces.map(n => ({ value: n, label: n }))
    : undefined;
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
    <FormProvider {...form}>
      <WarningsContext.Provider value={warnings}>
        <Box
          component="form"
          noValidate
          aria-label={title}
          onSubmit={e => e.preventDefault()}
        >
          <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
            {title}
          </Typography>
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
          <Stepper nonLinear activeStep={step} sx={{ mb: 3 }}>
            {STEPS.map((s, i) => (
              <Step key={s} completed={i < step}>
                <StepButton onClick={() => (i < step ? setStep(i) : undefined)}>
                  {s}
                </StepButton>
              </Step>
            ))}
          </Stepper>

          {step === 0 && (
            <>
              <Section title="Where">
                <FormField
                  name="cluster"
                  label="Cluster"
                  options={clusterOptions}
                  disabled={Boolean(existing)}
                  help="Where the stack runs; its providers can use that cluster's running deployments."
                />
                {clusterErrors
                  .filter(e => e.cluster === values.cluster)
                  .map(e => (
                    <Alert severity="error" key={e.cluster}>
                      Cluster {e.cluster}: {e.message}
                    </Alert>
                  ))}
                <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                  <FormField
                    name="metadata.namespace"
                    label="Namespace"
                    options={namespaceOptions}
                    disabled={Boolean(existing)}
                  />
                  <FormField
                    name="metadata.name"
                    label="Stack name"
                    disabled={Boolean(existing)}
                    help="Lower-case letters, digits and '-'."
                  />
                </Stack>
                {writeAccess.reason && (
                  <Alert severity="warning" sx={{ mt: 1 }}>
                    {writeAccess.reason}:{' '}
                    {existing
                      ? 'you can review changes but not save them.'
                      : 'choose another namespace or cluster to be able to create the stack.'}
                  </Alert>
                )}
              </Section>

              <Section
                title="Distribution"
                help="A distribution the stack operator embeds (an image and the base config.yaml written for it), or your own image (then its config must come from spec.overrideConfig)."
              >
                <FormField
                  name="ui.distributionSource"
                  label="Distribution source"
                  options={[
                    { value: 'name', label: "The operator's distributions" },
                    { value: 'image', label: 'An image' },
                  ]}
                />
                {source === 'name' ? (
                  <FormField
                    name="spec.distribution.name"
                    label="Distribution"
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
                  <FormField
                    name="spec.distribution.image"
                    label="Distribution image"
                    help="e.g. docker.io/llamastack/distribution-starter:0.4.0"
                  />
                )}
              </Section>

              <Section
                title="Providers"
                help="Each becomes a provider in config.yaml (provider → provider_type remote::…, endpoint → its URL, API key → an env var from the Secret)."
              >
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

              <Section
                title="Resources"
                help="Models, tool groups and shields the server registers at start."
              >
                <ModelRows />
                <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                  <FormField
                    name="ui.tools"
                    label="Tools"
                    help="Comma-separated, e.g. websearch, rag (builtin::<name> tool groups; need a tool runtime provider)."
                  />
                  <FormField
                    name="ui.shields"
                    label="Shields"
                    help="Comma-separated shield ids (need a safety provider)."
                  />
                </Stack>
              </Section>

              <StorageSection />
              <NetworkingSection />
              <WorkloadSection />
            </>
          )}

          {step === 1 && (
            <StackReview
              preview={preview.value}
              error={preview.error}
              loading={preview.loading}
            />
          )}

          {rootErrors.length > 0 && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {rootErrors.map(i => (
                <div key={i.message}>
                  <code>{i.path}</code>: {i.message}
                </div>
              ))}
            </Alert>
          )}
          {submitError && (
            <ErrorAlert
              error={submitError}
              title={existing ? 'Update failed' : 'Create failed'}
            />
          )}

          <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
            <Button disabled={step === 0} onClick={() => setStep(0)}>
              Back
            </Button>
            {step === 0 ? (
              <Button variant="contained" onClick={review}>
                Review
              </Button>
            ) : (
              <PermissionGate
                permission={writePermission}
                resource={writeTarget}
              >
                {allowed => (
                  <Button
                    variant="contained"
                    onClick={submit}
                    disabled={
                      !allowed ||
                      form.formState.isSubmitting ||
                      preview.loading ||
                      Boolean(preview.error)
                    }
                  >
                    {existing ? 'Update' : 'Create'}
                  </Button>
                )}
              </PermissionGate>
            )}
          </Stack>
        </Box>
      </WarningsContext.Provider>
    </FormProvider>
  );
}

/** The dry-run preview: the stack as stored, then what the operator would write (config.yaml first). */
function StackReview(props: {
  preview?: PreviewResponse;
  error?: Error;
  loading: boolean;
}) {
  const { preview, error, loading } = props;
  const configMap = preview?.providerObjects.objects.find(
    o => o.kind === 'ConfigMap',
  );
  const configYaml = (configMap as { data?: Record<string, string> })?.data?.[
    'config.yaml'
  ];
  return (
    <Box>
      {loading && <LinearProgress aria-label="loading preview" />}
      {error && (
        <ErrorAlert error={error} title="The cluster rejected the preview" />
      )}
      {preview && (
        <>
          {preview.warnings.map(w => (
            <Alert
              severity="warning"
              key={`${w.path}|${w.message}`}
              sx={{ mb: 1 }}
            >
              <code>{w.path}</code>: {w.message}
            </Alert>
          ))}
          <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
            Stack written to cluster {preview.cluster} (server-side dry run)
          </Typography>
          {preview.objects.map(o => (
            <Yaml
              key={o.object.metadata?.name}
              value={o.object}
              label={`LlamaStackDistribution ${o.object.metadata?.name} YAML`}
            />
          ))}
          {typeof configYaml === 'string' && (
            <Box component="section" aria-label="Generated config.yaml">
              <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
                Generated config.yaml
              </Typography>
              <Box
                component="pre"
                aria-label="config.yaml"
                tabIndex={0}
                sx={{
                  bgcolor: 'action.hover',
                  p: 2,
                  borderRadius: 1,
                  overflow: 'auto',
                  maxHeight: 480,
                  fontSize: 12,
                }}
              >
                {configYaml}
              </Box>
            </Box>
          )}
          <ProviderObjectsView value={preview.providerObjects} />
        </>
      )}
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
            <FormField
              name={`${name}.${i}.provider`}
              label={`${title} provider ${i + 1} type`}
              help="e.g. vllm, ollama, openai (remote::<type>), inline::llama-guard"
            />
            <FormField
              name={`${name}.${i}.id`}
              label={`${title} provider ${i + 1} id`}
              help="Optional with one provider (defaults to the type)."
            />
          </Stack>
          <FormField
            name={`${name}.${i}.endpoint`}
            label={`${title} provider ${i + 1} endpoint`}
            help="The provider's URL, e.g. http://vllm.default.svc:8000/v1"
          />
          <Stack
            direction={{ xs: 'column', md: 'row' }}
            spacing={2}
            alignItems="center"
          >
            <FormField
              name={`${name}.${i}.apiKey.secretKeyRef.name`}
              label={`${title} provider ${i + 1} API key Secret`}
              help="A Secret in the stack's namespace; the portal never reads its value."
            />
            <FormField
              name={`${name}.${i}.apiKey.secretKeyRef.key`}
              label={`${title} provider ${i + 1} API key Secret key`}
            />
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
      {fields.map((row, i) => (
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          key={row.id}
          alignItems="center"
        >
          <FormField
            name={`spec.resources.models.${i}.name`}
            label={`Model ${i + 1} name`}
            help="The name the provider serves."
          />
          <FormField
            name={`spec.resources.models.${i}.provider`}
            label={`Model ${i + 1} provider id`}
            help="Empty: the first inference provider."
          />
          <FormField
            name={`spec.resources.models.${i}.contextLength`}
            label={`Model ${i + 1} context length`}
            type="number"
          />
          <RemoveButton
            label={`Remove model ${i + 1}`}
            onClick={() => remove(i)}
          />
        </Stack>
      ))}
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
    <Section
      title="Storage"
      help="Where the server keeps its state; unset keeps the distribution's (sqlite in the pod's storage)."
    >
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mt: 1 }}>
        <FormField
          name="spec.storage.kv.type"
          label="Key-value store"
          options={[
            { value: '', label: "Distribution's default" },
            ...KV_STORAGE_TYPES.map(t => ({ value: t, label: t })),
          ]}
          SelectProps={{ displayEmpty: true }}
          InputLabelProps={{ shrink: true }}
        />
        {kv === 'redis' && (
          <>
            <FormField
              name="spec.storage.kv.endpoint"
              label="Redis endpoint"
              help="e.g. redis://redis.default.svc:6379"
            />
            <FormField
              name="spec.storage.kv.password.secretKeyRef.name"
              label="Redis password Secret"
            />
            <FormField
              name="spec.storage.kv.password.secretKeyRef.key"
              label="Redis password Secret key"
            />
          </>
        )}
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <FormField
          name="spec.storage.sql.type"
          label="SQL store"
          options={[
            { value: '', label: "Distribution's default" },
            ...SQL_STORAGE_TYPES.map(t => ({ value: t, label: t })),
          ]}
          SelectProps={{ displayEmpty: true }}
          InputLabelProps={{ shrink: true }}
        />
        {sql === 'postgres' && (
          <>
            <FormField
              name="spec.storage.sql.connectionString.secretKeyRef.name"
              label="Postgres connection string Secret"
            />
            <FormField
              name="spec.storage.sql.connectionString.secretKeyRef.key"
              label="Postgres connection string Secret key"
            />
          </>
        )}
      </Stack>
    </Section>
  );
}

function NetworkingSection() {
  const { control } = useFormContext<StackFormValues>();
  const expose = useWatch<StackFormValues>({ name: 'ui.expose' });
  const tls = useWatch<StackFormValues>({ name: 'ui.tlsEnabled' });
  return (
    <Section title="Networking">
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <FormField
          name="spec.networking.port"
          label="Server port"
          type="number"
          help="Default 8321."
        />
        <FormField
          name="ui.tlsEnabled"
          label="TLS"
          options={[
            { value: '', label: 'Off (default)' },
            { value: 'true', label: 'On' },
            { value: 'false', label: 'Off' },
          ]}
          SelectProps={{ displayEmpty: true }}
          InputLabelProps={{ shrink: true }}
        />
        {tls === 'true' && (
          <FormField
            name="spec.networking.tls.secretName"
            label="TLS Secret"
            help="A kubernetes.io/tls Secret in the stack's namespace."
          />
        )}
      </Stack>
      <Controller
        control={control}
        name="ui.expose"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Checkbox
                checked={Boolean(field.value)}
                onChange={e => field.onChange(e.target.checked)}
              />
            }
            label="Expose outside the cluster (an Ingress)"
          />
        )}
      />
      {Boolean(expose) && (
        <FormField
          name="spec.networking.expose.hostname"
          label="Hostname"
          help="Empty: <name>-<namespace>.<the operator's ingress domain>."
        />
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <FormField
          name="ui.allowedNamespaces"
          label="Allowed namespaces"
          help="Comma-separated; * for all. Empty with no labels: no NetworkPolicy."
        />
        <FormField
          name="ui.allowedLabels"
          label="Allowed namespace labels"
          help="Comma-separated label keys of namespaces allowed in."
        />
      </Stack>
    </Section>
  );
}

function WorkloadSection() {
  return (
    <Section title="Workload">
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <FormField
          name="spec.workload.replicas"
          label="Replicas"
          type="number"
          help="Default 1."
        />
        <FormField
          name="spec.workload.workers"
          label="Server workers"
          type="number"
          help="uvicorn workers per pod."
        />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <FormField
          name="spec.workload.resources.requests.cpu"
          label="CPU request"
          help="e.g. 500m"
        />
        <FormField
          name="spec.workload.resources.requests.memory"
          label="Memory request"
          help="e.g. 1Gi"
        />
        <FormField
          name="spec.workload.resources.limits.cpu"
          label="CPU limit"
        />
        <FormField
          name="spec.workload.resources.limits.memory"
          label="Memory limit"
        />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <FormField
          name="spec.workload.storage.size"
          label="Persistent storage size"
          help="e.g. 10Gi; empty keeps the server's state in the pod (emptyDir)."
        />
        <FormField
          name="spec.workload.storage.mountPath"
          label="Storage mount path"
          help="Default /.llama."
        />
      </Stack>
    </Section>
  );
}

import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import {
  cachedModelName,
  DEFAULT_GPU_RESOURCE,
  DEPLOYMENT_FORM_STEPS,
  ENGINE_DISPLAY_NAMES,
  ENGINE_TYPES,
  identityChanges,
  type ModelDeployment,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, get, useForm, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  type ResourceRef,
  RunwayApiError,
  runwayApiRef,
} from '../../api/RunwayApi';
import type { ClusterOverview, PreviewResponse } from '../../api/types';
import { useRunwayData } from '../../hooks/useRunwayData';
import { freeGpus, gpuTypesOf, providerConfigsFor } from '../../lib/clusters';
import {
  emptyWizardValues,
  fieldForIssue,
  type FormContext,
  copyOfDeployment,
  fromModelDeployment,
  SPEC_FIELDS,
  toModelDeployment,
  validateWizard,
  type WizardValues,
} from '../../lib/form';
import { providerFits, selectionView } from '../../lib/selection';
import { ErrorAlert } from '../common/ErrorAlert';
import { PermissionGate, useRunwayPermission } from '../common/PermissionGate';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { KUBERNETES_ID } from '../../kubernetesId';
import {
  FormField,
  GatewayFields,
  KeyValueRows,
  TolerationRows,
  WarningsContext,
} from './fields';
import { wizardResolver } from './resolver';
import { HubSearch } from '../models/HubSearch';
import { CachedModelField } from './CachedModelField';
import { ReviewStep } from './ReviewStep';
import { SelectionPanel } from './SelectionPanel';

/** The steps and the fields each one validates: runway-common's description of the form. */
export const STEPS = DEPLOYMENT_FORM_STEPS;

const REVIEW = STEPS.length - 1;

/** `?copyFrom=cluster/namespace/name`: the deployment a new one starts as a copy of. */
function copyFromParam(value: string | null): ResourceRef | undefined {
  const [cluster, namespace, name, ...rest] = (value ?? '').split('/');
  if (!cluster || !namespace || !name || rest.length > 0) return undefined;
  return { cluster, namespace, name };
}

/**
 * Create a deployment, or edit one (`edit` names it). With
 * `?copyFrom=cluster/namespace/name` a new one starts as a copy of that
 * deployment (its spec and labels; named `<name>-copy`).
 */
export function DeploymentWizard({ edit }: { edit?: ResourceRef }) {
  const [search] = useSearchParams();
  const copyFrom = edit ? undefined : copyFromParam(search.get('copyFrom'));
  const source = edit ?? copyFrom;
  const clusters = useRunwayData(api => api.listClusters(), []);
  const existing = useRunwayData(
    api =>
      source ? api.get('deployments', source) : Promise.resolve(undefined),
    [source?.cluster, source?.namespace, source?.name],
  );
  if (clusters.loading || existing.loading)
    return <LinearProgress aria-label="loading clusters" />;
  if (source && !existing.value) {
    return (
      <ErrorAlert
        error={
          existing.error ??
          new Error(
            `deployment ${source.namespace}/${source.name} not found in ${source.cluster}`,
          )
        }
        title={edit ? 'Cannot edit' : 'Cannot copy'}
      />
    );
  }
  const loaded = existing.value
    ? {
        cluster: existing.value.cluster,
        object: existing.value.object as ModelDeployment,
      }
    : undefined;
  return (
    <>
      {clusters.error && (
        <ErrorAlert
          error={clusters.error}
          title="Could not load the clusters"
        />
      )}
      <WizardForm
        clusters={clusters.value?.items ?? []}
        clusterErrors={clusters.value?.errors ?? []}
        existing={edit ? loaded : undefined}
        template={copyFrom ? loaded : undefined}
      />
    </>
  );
}

function WizardForm(props: {
  clusters: ClusterOverview[];
  clusterErrors: Array<{ cluster: string; message: string }>;
  existing?: { cluster: string; object: ModelDeployment };
  /** A new deployment's starting values: a copy of this one. */
  template?: { cluster: string; object: ModelDeployment };
}) {
  const { clusters, clusterErrors, existing, template } = props;
  const api = useApi(runwayApiRef);
  const navigate = useNavigate();
  const links = useRunwayLinks();
  const [search] = useSearchParams();
  const defaults = useMemo(
    () => {
      if (existing)
        return fromModelDeployment(existing.cluster, existing.object);
      if (template) return copyOfDeployment(template.cluster, template.object);
      return emptyWizardValues({
        cluster:
          search.get('cluster') ??
          (clusters.length === 1 ? clusters[0].name : ''),
        namespace: search.get('namespace') ?? 'default',
        // Opened from a catalog entity: label the deployment so it shows on the entity's page.
        labels: search.get('kubernetesId')
          ? { [KUBERNETES_ID]: search.get('kubernetesId')! }
          : undefined,
      });
    },
    // Defaults are read once, when the form opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const context = useRef<FormContext>({});
  const form = useForm<WizardValues>({
    defaultValues: defaults,
    mode: 'onChange',
    resolver: (values, _ctx, options) =>
      wizardResolver(values, context.current, options),
  });
  const values = useWatch({ control: form.control }) as WizardValues;

  const cluster = clusters.find(c => c.name === values.cluster);
  const gpuType = values.spec?.resources?.gpu?.type || DEFAULT_GPU_RESOURCE;
  context.current = {
    providers: cluster ? providerConfigsFor(cluster) : undefined,
    freeGpus: freeGpus(cluster, gpuType),
    namespaces: cluster?.namespaces,
    existing: existing?.object,
  };
  const valuesKey = JSON.stringify(values);
  const md = useMemo(() => toModelDeployment(values), [valuesKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const issues = useMemo(
    () => validateWizard(values, context.current),
    // values is keyed by its JSON (a new object on every render)
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [valuesKey, cluster],
  );
  const warnings = useMemo(
    () => issues.filter(i => i.severity === 'warning'),
    [issues],
  );
  const selection = useMemo(
    () => selectionView(md.spec, cluster, md.metadata?.name),
    [md, cluster],
  );
  const fits = useMemo(() => providerFits(md.spec, cluster), [md, cluster]);

  const [step, setStep] = useState(0);
  const [preview, setPreview] = useState<{
    value?: PreviewResponse;
    error?: Error;
    loading: boolean;
  }>({ loading: false });
  const [submitError, setSubmitError] = useState<Error>();
  const [confirmRecreate, setConfirmRecreate] = useState(false);

  useEffect(() => {
    if (step !== REVIEW) return undefined;
    let current = true;
    setPreview({ loading: true });
    api
      .preview(
        'deployments',
        values.cluster,
        md,
        existing ? 'update' : 'create',
      )
      .then(
        value => current && setPreview({ value, loading: false }),
        error => current && setPreview({ error, loading: false }),
      );
    return () => {
      current = false;
    };
  }, [step, md]); // eslint-disable-line react-hooks/exhaustive-deps

  // A change can fix or break another field of the step (e.g. a provider's
  // rule about the engine): re-check the fields the user already touched.
  useEffect(() => {
    const { dirtyFields, touchedFields, errors } = form.formState;
    const seen = STEPS[step].fields.filter(
      f => get(dirtyFields, f) || get(touchedFields, f) || get(errors, f),
    );
    if (seen.length) form.trigger(seen as any);
  }, [valuesKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const next = async () => {
    const ok = await form.trigger(STEPS[step].fields as any);
    if (ok) setStep(s => Math.min(REVIEW, s + 1));
  };

  // What saving needs: create where the form points, or update where the deployment is.
  const writePermission = existing
    ? runwayPermissions.deployments.update
    : runwayPermissions.deployments.create;
  const writeTarget = existing
    ? {
        cluster: existing.cluster,
        namespace: existing.object.metadata?.namespace ?? '',
      }
    : {
        cluster: values.cluster ?? '',
        namespace: values.metadata?.namespace ?? '',
      };
  const writeAccess = useRunwayPermission(writePermission, writeTarget);

  const rootErrors = issues.filter(
    i => i.severity === 'error' && i.field === 'root',
  );
  // Saving a change of an identity field recreates the deployment: ask first.
  const recreate = existing
    ? identityChanges(existing.object, md).length > 0
    : false;

  const submit = form.handleSubmit(async formValues => {
    setSubmitError(undefined);
    const object = toModelDeployment(formValues);
    try {
      if (existing) {
        const name = existing.object.metadata?.name ?? '';
        const namespace = existing.object.metadata?.namespace ?? '';
        await api.update(
          'deployments',
          { cluster: existing.cluster, namespace, name },
          object,
        );
        navigate(links.detail(existing.cluster, namespace, name));
      } else {
        await api.create('deployments', formValues.cluster, object);
        navigate(
          links.detail(
            formValues.cluster,
            object.metadata?.namespace ?? '',
            object.metadata?.name ?? '',
          ),
        );
      }
    } catch (err) {
      const error = err as Error;
      setSubmitError(error);
      if (error instanceof RunwayApiError) {
        for (const issue of error.issues.filter(i => i.severity === 'error')) {
          form.setError(fieldForIssue(issue.path, SPEC_FIELDS) as any, {
            type: 'server',
            message: issue.message,
          });
        }
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
  const explicitProvider = values.spec?.provider?.name;
  const chosenFit = fits.find(f => f.name === explicitProvider);
  const free = freeGpus(cluster, gpuType);
  const disaggregated = values.spec?.serving?.mode === 'disaggregated';

  return (
    <FormProvider {...form}>
      <WarningsContext.Provider value={warnings}>
        <Box
          component="form"
          noValidate
          aria-label={existing ? 'Edit deployment' : 'Deploy a model'}
          onSubmit={e => e.preventDefault()}
        >
          <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
            {existing
              ? `Edit deployment ${existing.object.metadata?.name}`
              : 'Deploy a model'}
          </Typography>
          <Stepper nonLinear activeStep={step} sx={{ mb: 3 }}>
            {STEPS.map((s, i) => (
              <Step key={s.label} completed={i < step}>
                <StepButton onClick={() => (i < step ? setStep(i) : undefined)}>
                  {s.label}
                </StepButton>
              </Step>
            ))}
          </Stepper>

          {step === 0 && (
            <Box>
              <FormField
                name="cluster"
                label="Cluster"
                options={clusterOptions}
                disabled={Boolean(existing)}
                help="Where the deployment runs."
              />
              {clusterErrors
                .filter(e => e.cluster === values.cluster)
                .map(e => (
                  <Alert severity="error" key={e.cluster}>
                    Cluster {e.cluster}: {e.message}
                  </Alert>
                ))}
              <FormField
                name="metadata.namespace"
                label="Namespace"
                options={namespaceOptions}
                disabled={Boolean(existing)}
              />
              <FormField
                name="metadata.name"
                label="Deployment name"
                disabled={Boolean(existing)}
                help="Lower-case letters, digits and '-'."
              />
              {writeAccess.reason && (
                <Alert severity="warning" sx={{ mt: 1 }}>
                  {writeAccess.reason}:{' '}
                  {existing
                    ? 'you can review changes but not save them.'
                    : 'choose another namespace or cluster to be able to create the deployment.'}
                </Alert>
              )}
            </Box>
          )}

          {step === 1 && (
            <Box>
              <FormField
                name="spec.model.source"
                label="Model source"
                options={[
                  { value: 'huggingface', label: 'HuggingFace' },
                  { value: 'custom', label: 'Custom image' },
                ]}
              />
              {values.spec?.model?.source !== 'custom' && <CachedModelField />}
              {values.spec?.model?.source !== 'custom' &&
                !cachedModelName(values.volumes) && (
                  <HubSearch
                    freeGpus={free}
                    gpuTypes={gpuTypesOf(cluster, gpuType)}
                    onPick={picked =>
                      form.setValue('spec.model.id', picked.id, {
                        shouldValidate: true,
                        shouldDirty: true,
                      })
                    }
                  />
                )}
              <FormField
                name="spec.model.id"
                label="Model ID"
                help="e.g. meta-llama/Llama-3.1-8B-Instruct"
              />
              {values.spec?.model?.source !== 'custom' && (
                <FormField
                  name="spec.model.servedName"
                  label="Served model name"
                  help="The name clients use; defaults to the model ID's last part."
                />
              )}
            </Box>
          )}

          {step === 2 && (
            <Box>
              <FormField
                name="spec.engine.type"
                label="Engine"
                options={[
                  { value: '', label: 'Automatic' },
                  ...ENGINE_TYPES.map(e => ({
                    value: e,
                    label: ENGINE_DISPLAY_NAMES[e],
                  })),
                ]}
                SelectProps={{ displayEmpty: true }}
                InputLabelProps={{ shrink: true }}
              />
              <FormField
                name="spec.provider.name"
                label="Provider"
                options={[
                  { value: '', label: 'Automatic' },
                  ...fits.map(f => ({
                    value: f.name,
                    label: `${f.label}${
                      f.problems.length
                        ? ` (${f.ready ? 'incompatible' : 'not ready'})`
                        : ''
                    }`,
                  })),
                ]}
                SelectProps={{ displayEmpty: true }}
                InputLabelProps={{ shrink: true }}
              />
              <SelectionPanel view={selection} />
              {chosenFit && chosenFit.problems.length > 0 && (
                <Alert severity="error">
                  <AlertTitle>
                    {chosenFit.label} cannot run this deployment
                  </AlertTitle>
                  <ul>
                    {chosenFit.problems.map(p => (
                      <li key={p}>{p}</li>
                    ))}
                  </ul>
                </Alert>
              )}
              {!explicitProvider && fits.some(f => f.problems.length > 0) && (
                <Alert severity="info">
                  <AlertTitle>
                    Providers that cannot run it as configured
                  </AlertTitle>
                  <ul>
                    {fits
                      .filter(f => f.problems.length > 0)
                      .map(f => (
                        <li key={f.name}>
                          {f.label}: {f.problems.join('; ')}
                        </li>
                      ))}
                  </ul>
                </Alert>
              )}
              {!cluster && (
                <Alert severity="info">
                  Choose a cluster first to see which providers it offers.
                </Alert>
              )}
            </Box>
          )}

          {step === 3 && (
            <Box>
              <FormField
                name="spec.serving.mode"
                label="Serving mode"
                options={[
                  { value: 'aggregated', label: 'Aggregated' },
                  {
                    value: 'disaggregated',
                    label: 'Disaggregated (prefill / decode)',
                  },
                ]}
              />
              {free !== undefined && (
                <Typography variant="body2" color="text.secondary">
                  Cluster {values.cluster} has {free} free {gpuType}.
                </Typography>
              )}
              {!disaggregated ? (
                <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                  <FormField
                    name="spec.scaling.replicas"
                    label="Replicas"
                    type="number"
                  />
                  <FormField
                    name="spec.resources.gpu.count"
                    label="GPUs per replica"
                    type="number"
                    help="0 runs on CPU."
                  />
                  <FormField
                    name="spec.resources.memory"
                    label="Memory per replica"
                    help="e.g. 32Gi"
                  />
                  <FormField
                    name="spec.resources.cpu"
                    label="CPU per replica"
                    help="e.g. 4 or 500m"
                  />
                </Stack>
              ) : (
                <>
                  {(['prefill', 'decode'] as const).map(component => (
                    <Stack
                      direction={{ xs: 'column', md: 'row' }}
                      spacing={2}
                      key={component}
                    >
                      <FormField
                        name={`spec.scaling.${component}.replicas`}
                        label={`${
                          component === 'prefill' ? 'Prefill' : 'Decode'
                        } workers`}
                        type="number"
                      />
                      <FormField
                        name={`spec.scaling.${component}.gpu.count`}
                        label={`GPUs per ${component} worker`}
                        type="number"
                      />
                      <FormField
                        name={`spec.scaling.${component}.memory`}
                        label={`Memory per ${component} worker`}
                        help="e.g. 64Gi"
                      />
                    </Stack>
                  ))}
                </>
              )}
              <FormField
                name="spec.resources.gpu.type"
                label="GPU resource name"
                help="nvidia.com/gpu, amd.com/gpu, ..."
              />
            </Box>
          )}

          {step === 4 && (
            <Box>
              <KeyValueRows
                name="labels"
                title="Deployment labels"
                keyLabel="Label"
                valueLabel="Label value"
                help={`${KUBERNETES_ID}: <id> shows the deployment on the catalog entity with that kubernetes-id.`}
              />
              <FormField
                name="spec.image"
                label="Container image"
                help="The model server image; empty uses the provider's default for the engine."
              />
              <FormField
                name="spec.engine.contextLength"
                label="Context length"
                type="number"
                help="Maximum tokens per request (engine default when empty)."
              />
              <KeyValueRows
                name="engineArgs"
                title="Engine arguments"
                keyLabel="Argument"
                valueLabel="Argument value"
                help="Passed to the engine as --name value."
              />
              <KeyValueRows
                name="env"
                title="Environment variables"
                keyLabel="Variable"
                valueLabel="Variable value"
              />
              <FormField
                name="spec.secrets.huggingFaceToken"
                label="HuggingFace token secret"
                help="Name of a Secret in the namespace with the key HF_TOKEN; its value is never read by the portal."
              />
              <FormField
                name="providerOverrides"
                label="Provider overrides (YAML)"
                multiline
                minRows={3}
                help="Provider-specific settings, passed through as spec.provider.overrides."
              />
              <KeyValueRows
                name="nodeSelector"
                title="Node selector"
                keyLabel="Node label"
                valueLabel="Node label value"
              />
              <TolerationRows />
              <KeyValueRows
                name="podLabels"
                title="Pod labels"
                keyLabel="Pod label"
                valueLabel="Pod label value"
              />
              <GatewayFields
                spec={md.spec}
                namespace={values.metadata?.namespace}
              />
            </Box>
          )}

          {step === REVIEW && (
            <ReviewStep
              preview={preview.value}
              error={preview.error}
              loading={preview.loading}
              existing={existing?.object}
              object={md}
              confirmRecreate={confirmRecreate}
              onConfirmRecreate={setConfirmRecreate}
            />
          )}

          {rootErrors.length > 0 && step === REVIEW && (
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
            <Button disabled={step === 0} onClick={() => setStep(s => s - 1)}>
              Back
            </Button>
            {step < REVIEW ? (
              <Button variant="contained" onClick={next}>
                Next
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
                      (recreate && !confirmRecreate)
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

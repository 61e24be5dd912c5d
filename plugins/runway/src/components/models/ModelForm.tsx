import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepButton from '@mui/material/StepButton';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import {
  ACCESS_MODES,
  DEFAULT_GPU_RESOURCE,
  type Model,
  MODEL_FORM_FIELDS,
  MODEL_FORM_STEPS,
  modelFieldHelp,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  FormProvider,
  get,
  type Resolver,
  useForm,
  useWatch,
} from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  type ResourceRef,
  RunwayApiError,
  runwayApiRef,
} from '../../api/RunwayApi';
import type { ClusterOverview, PreviewResponse } from '../../api/types';
import { useRunwayData } from '../../hooks/useRunwayData';
import { fieldForIssue } from '../../lib/form';
import {
  emptyModelValues,
  fromModel,
  type ModelFormContext,
  type ModelFormValues,
  toModel,
  validateModelForm,
} from '../../lib/modelForm';
import { KUBERNETES_ID } from '../../kubernetesId';
import { ErrorAlert } from '../common/ErrorAlert';
import { PermissionGate, useRunwayPermission } from '../common/PermissionGate';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { FormField, KeyValueRows, WarningsContext } from '../wizard/fields';
import { toFieldErrors } from '../wizard/resolver';
import { ObjectYaml } from '../wizard/ReviewStep';
import { freeGpus, gpuTypesOf } from '../../lib/clusters';
import { HubSearch } from './HubSearch';
import { SuggestField } from './SuggestField';

const STEPS = MODEL_FORM_STEPS;
const REVIEW = STEPS.length - 1;

const SOURCE_OPTIONS = [
  { value: 'huggingface', label: 'Hugging Face Hub' },
  { value: 's3', label: 'S3 or S3-compatible storage' },
  { value: 'url', label: 'URL (one file over HTTP)' },
];

/** Errors of runway-common's validation on their fields; warnings never block. */
const modelResolver =
  (context: () => ModelFormContext): Resolver<ModelFormValues> =>
  async values => {
    const errors = toFieldErrors(validateModelForm(values, context()));
    return Object.keys(errors).length
      ? { values: {}, errors: errors as any }
      : { values, errors: {} };
  };

/**
 * What the pickers suggest: the chosen cluster's storage classes and the
 * chosen namespace's Secret names. A list that cannot be read (no
 * permission, cluster down) leaves its field a plain text field, saying why.
 */
function usePickers(
  cluster: string | undefined,
  namespace: string | undefined,
) {
  const classes = useRunwayData(
    api => (cluster ? api.storageClasses(cluster) : Promise.resolve(undefined)),
    [cluster],
    [],
  );
  const secrets = useRunwayData(
    api =>
      cluster && namespace
        ? api.secretNames(cluster, namespace)
        : Promise.resolve(undefined),
    [cluster, namespace],
    [],
  );
  const why = (error?: Error) =>
    error ? `Cannot list them: ${error.message}; type the name.` : undefined;
  return {
    storageClasses: (classes.value?.items ?? []).map(c => ({
      value: c.name,
      detail: c.isDefault ? `default, ${c.provisioner}` : c.provisioner,
    })),
    storageClassesLoading: Boolean(cluster) && classes.loading,
    storageClassesProblem: why(classes.error),
    secrets: (secrets.value?.items ?? []).map(s => ({ value: s.name })),
    secretsLoading: Boolean(cluster && namespace) && secrets.loading,
    secretsProblem: why(secrets.error),
  };
}

/** Add a model (files downloaded once into a PVC), or edit one (`edit` names it). */
export function ModelForm({ edit }: { edit?: ResourceRef }) {
  const clusters = useRunwayData(api => api.listClusters(), []);
  const existing = useRunwayData(
    api => (edit ? api.get('models', edit) : Promise.resolve(undefined)),
    [edit?.cluster, edit?.namespace, edit?.name],
    ['models'],
  );
  if (clusters.loading || existing.loading)
    return <LinearProgress aria-label="loading clusters" />;
  if (edit && !existing.value) {
    return (
      <ErrorAlert
        error={
          existing.error ??
          new Error(
            `model ${edit.namespace}/${edit.name} not found in ${edit.cluster}`,
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
      <Form
        clusters={clusters.value?.items ?? []}
        clusterErrors={clusters.value?.errors ?? []}
        existing={
          existing.value
            ? {
                cluster: existing.value.cluster,
                object: existing.value.object as Model,
              }
            : undefined
        }
      />
    </>
  );
}

function Form(props: {
  clusters: ClusterOverview[];
  clusterErrors: Array<{ cluster: string; message: string }>;
  existing?: { cluster: string; object: Model };
}) {
  const { clusters, clusterErrors, existing } = props;
  const api = useApi(runwayApiRef);
  const navigate = useNavigate();
  const links = useRunwayLinks();
  const [search] = useSearchParams();
  const defaults = useMemo(
    () =>
      existing
        ? fromModel(existing.cluster, existing.object)
        : emptyModelValues({
            cluster:
              search.get('cluster') ??
              (clusters.length === 1 ? clusters[0].name : ''),
            namespace: search.get('namespace') ?? 'default',
            repoId: search.get('repoId') ?? undefined,
            labels: search.get('kubernetesId')
              ? { [KUBERNETES_ID]: search.get('kubernetesId')! }
              : undefined,
          }),
    // Defaults are read once, when the form opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const context = useRef<ModelFormContext>({});
  const form = useForm<ModelFormValues>({
    defaultValues: defaults,
    mode: 'onChange',
    resolver: modelResolver(() => context.current),
  });
  const values = useWatch({ control: form.control }) as ModelFormValues;
  const cluster = clusters.find(c => c.name === values.cluster);
  context.current = { namespaces: cluster?.namespaces };
  const valuesKey = JSON.stringify(values);
  const model = useMemo(() => toModel(values), [valuesKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const warnings = useMemo(
    () =>
      validateModelForm(values, context.current).filter(
        i => i.severity === 'warning',
      ),
    [valuesKey, cluster], // eslint-disable-line react-hooks/exhaustive-deps
  );

  const [step, setStep] = useState(0);
  const [preview, setPreview] = useState<{
    value?: PreviewResponse;
    error?: Error;
    loading: boolean;
  }>({ loading: false });
  const [submitError, setSubmitError] = useState<Error>();

  useEffect(() => {
    if (step !== REVIEW) return undefined;
    let current = true;
    setPreview({ loading: true });
    api
      .preview('models', values.cluster, model, existing ? 'update' : 'create')
      .then(
        value => current && setPreview({ value, loading: false }),
        error => current && setPreview({ error, loading: false }),
      );
    return () => {
      current = false;
    };
  }, [step, model]); // eslint-disable-line react-hooks/exhaustive-deps

  // Re-check the fields of the step the user already touched when another one changes.
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

  const writePermission = existing
    ? runwayPermissions.models.update
    : runwayPermissions.models.create;
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

  const submit = form.handleSubmit(async formValues => {
    setSubmitError(undefined);
    const object = toModel(formValues);
    const namespace = object.metadata?.namespace ?? '';
    const name = object.metadata?.name ?? '';
    try {
      if (existing) {
        await api.update(
          'models',
          { cluster: existing.cluster, namespace, name },
          object,
        );
        navigate(links.of('models', existing.cluster, namespace, name));
      } else {
        await api.create('models', formValues.cluster, object);
        navigate(links.of('models', formValues.cluster, namespace, name));
      }
    } catch (err) {
      const error = err as Error;
      setSubmitError(error);
      if (error instanceof RunwayApiError) {
        const fields = error.issues
          .filter(i => i.severity === 'error')
          .map(i => ({
            field: fieldForIssue(i.path, MODEL_FORM_FIELDS),
            message: i.message,
          }));
        // Open the step of the first field at fault, where its message shows.
        const first = STEPS.findIndex(s =>
          fields.some(f => s.fields.includes(f.field)),
        );
        if (first >= 0) setStep(first);
        for (const f of fields)
          form.setError(f.field as any, { type: 'server', message: f.message });
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
  const help = modelFieldHelp;
  const pickers = usePickers(values.cluster, values.metadata?.namespace);

  return (
    <FormProvider {...form}>
      <WarningsContext.Provider value={warnings}>
        <Box
          component="form"
          noValidate
          aria-label={existing ? 'Edit model' : 'Add a model'}
          onSubmit={e => e.preventDefault()}
        >
          <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
            {existing
              ? `Edit model ${existing.object.metadata?.name}`
              : 'Add a model'}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            The model operator downloads the files once into a
            PersistentVolumeClaim; deployments and pods in the namespace then
            mount them instead of downloading again.
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
                help="Where the files are kept."
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
                help="Only pods in this namespace can mount the model."
              />
              <FormField
                name="metadata.name"
                label="Model name"
                disabled={Boolean(existing)}
                help="Up to 48 lower-case letters, digits and '-'; the PVC is model-<name>."
              />
              {writeAccess.reason && (
                <Alert severity="warning" sx={{ mt: 1 }}>
                  {writeAccess.reason}:{' '}
                  {existing
                    ? 'you can review changes but not save them.'
                    : 'choose another namespace or cluster to be able to add the model.'}
                </Alert>
              )}
            </Box>
          )}

          {step === 1 && (
            <Box>
              <FormField
                name="sourceType"
                label="Source"
                options={SOURCE_OPTIONS}
                help={help('spec.source')}
              />
              {values.sourceType === 'huggingface' && !existing && (
                <HubSearch
                  freeGpus={freeGpus(cluster, DEFAULT_GPU_RESOURCE)}
                  gpuTypes={gpuTypesOf(cluster, DEFAULT_GPU_RESOURCE)}
                  onPick={picked =>
                    form.setValue('spec.source.huggingFace.repoId', picked.id, {
                      shouldValidate: true,
                      shouldDirty: true,
                    })
                  }
                />
              )}
              {values.sourceType === 'huggingface' && (
                <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                  <FormField
                    name="spec.source.huggingFace.repoId"
                    label="Repository"
                    help={help('spec.source.huggingFace.repoId')}
                  />
                  <FormField
                    name="spec.source.huggingFace.revision"
                    label="Revision"
                    help={help('spec.source.huggingFace.revision')}
                    sx={{ maxWidth: { md: 240 } }}
                  />
                </Stack>
              )}
              {values.sourceType === 's3' && (
                <>
                  <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                    <FormField
                      name="spec.source.s3.bucket"
                      label="Bucket"
                      help={help('spec.source.s3.bucket')}
                    />
                    <FormField
                      name="spec.source.s3.key"
                      label="Key or prefix"
                      help={help('spec.source.s3.key')}
                    />
                  </Stack>
                  <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                    <FormField
                      name="spec.source.s3.endpoint"
                      label="Endpoint"
                      help={`${help('spec.source.s3.endpoint')} Empty for AWS.`}
                    />
                    <FormField
                      name="spec.source.s3.region"
                      label="Region"
                      help={help('spec.source.s3.region')}
                    />
                  </Stack>
                </>
              )}
              {values.sourceType === 'url' && (
                <FormField
                  name="spec.source.url.url"
                  label="URL"
                  help={help('spec.source.url.url')}
                />
              )}
              <SuggestField
                name="spec.credentialsSecret"
                label="Credentials Secret"
                help={`${help(
                  'spec.credentialsSecret',
                )} The portal never reads its values.`}
                suggestions={pickers.secrets}
                loading={pickers.secretsLoading}
                problem={pickers.secretsProblem}
              />
              <FormField
                name="spec.version"
                label="Version"
                help={help('spec.version')}
              />
            </Box>
          )}

          {step === 2 && (
            <Box>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                <SuggestField
                  name="spec.storage.storageClass"
                  label="Storage class"
                  help={help('spec.storage.storageClass')}
                  suggestions={pickers.storageClasses}
                  loading={pickers.storageClassesLoading}
                  problem={pickers.storageClassesProblem}
                />
                <FormField
                  name="spec.storage.size"
                  label="Size"
                  help={help('spec.storage.size')}
                />
              </Stack>
              <FormField
                name="spec.storage.accessModes"
                label="Access modes"
                options={ACCESS_MODES.map(m => ({ value: m, label: m }))}
                SelectProps={{ multiple: true }}
                help={`${help(
                  'spec.storage.accessModes',
                )} ReadOnlyMany or ReadWriteMany lets pods on several nodes mount it.`}
              />
              <KeyValueRows
                name="nodeSelector"
                title="Node selector of the download Job"
                keyLabel="Node label"
                valueLabel="Node label value"
              />
              <KeyValueRows
                name="labels"
                title="Model labels"
                keyLabel="Label"
                valueLabel="Label value"
                help={`${KUBERNETES_ID}: <id> shows the model on the catalog entity with that kubernetes-id.`}
              />
            </Box>
          )}

          {step === REVIEW && (
            <Box>
              {preview.loading && (
                <LinearProgress aria-label="loading preview" />
              )}
              {preview.error && (
                <ErrorAlert
                  error={preview.error}
                  title="The cluster rejected the preview"
                />
              )}
              {preview.value && (
                <>
                  {preview.value.warnings.map(w => (
                    <Alert
                      severity="warning"
                      key={`${w.path}|${w.message}`}
                      sx={{ mb: 1 }}
                    >
                      <code>{w.path}</code>: {w.message}
                    </Alert>
                  ))}
                  <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
                    Objects written to cluster {preview.value.cluster}{' '}
                    (server-side dry run)
                  </Typography>
                  {preview.value.objects.map(o => (
                    <ObjectYaml
                      key={`${o.object.kind}/${o.object.metadata?.name}`}
                      object={o.object}
                      action={o.action}
                    />
                  ))}
                </>
              )}
            </Box>
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
                      !allowed || form.formState.isSubmitting || preview.loading
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

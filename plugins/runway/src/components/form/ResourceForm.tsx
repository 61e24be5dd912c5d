/**
 * The one shell of the deployment, model and stack forms: loading the
 * clusters and the object being edited, react-hook-form over runway-common's
 * validation, the stepper, the cluster/namespace/name fields, the dry-run
 * preview on the review step, permission gating, and the submit that puts
 * the API's field errors back on their fields. Each form adds only its own
 * fields and review.
 */
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
  type FormFieldSpec,
  runwayPermissions,
} from '@runway-portal/plugin-runway-common';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  FormProvider,
  get,
  useForm,
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
  ClustersResponse,
  KubeObject,
  PreviewResponse,
  RunwayKind,
} from '../../api/types';
import { useRunwayData } from '../../hooks/useRunwayData';
import { KUBERNETES_ID } from '../../kubernetesId';
import { KIND_WORD } from '../../lib/detail';
import type { FieldIssue } from '../../lib/form';
import { ErrorAlert } from '../common/ErrorAlert';
import { PermissionGate, useRunwayPermission } from '../common/PermissionGate';
import { MetaField, WarningsContext } from './fields';
import { issuesResolver } from './resolver';

export interface ClusterError {
  cluster: string;
  message: string;
}

export interface Loaded<O> {
  cluster: string;
  object: O;
}

/** What a form opens with: the clusters, and the resource it edits or copies. */
export interface FormLoaded<O> {
  clusters: ClusterOverview[];
  clusterErrors: ClusterError[];
  object?: Loaded<O>;
  /** The whole answer (e.g. the stack operator's distributions). */
  overview?: ClustersResponse;
}

/** The resource a form edits or copies, loaded with the clusters; a spinner, then the form or why it cannot open. */
export function ResourceFormLoader<O extends KubeObject>(props: {
  kind: RunwayKind;
  /** The resource to load: the one edited or copied. */
  source?: ResourceRef;
  /** "Cannot edit" (the default) or "Cannot copy". */
  cannot?: string;
  children: (loaded: FormLoaded<O>) => ReactNode;
}) {
  const { kind, source, cannot = 'Cannot edit', children } = props;
  const noun = KIND_WORD[kind];
  const clusters = useRunwayData(api => api.listClusters(), []);
  const existing = useRunwayData(
    api => (source ? api.get(kind, source) : Promise.resolve(undefined)),
    [source?.cluster, source?.namespace, source?.name],
    [kind],
  );
  if (clusters.loading || existing.loading)
    return <LinearProgress aria-label="loading clusters" />;
  if (source && !existing.value) {
    return (
      <ErrorAlert
        error={
          existing.error ??
          new Error(
            `${noun} ${source.namespace}/${source.name} not found in ${source.cluster}`,
          )
        }
        title={cannot}
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
      {children({
        clusters: clusters.value?.items ?? [],
        clusterErrors: clusters.value?.errors ?? [],
        overview: clusters.value,
        object: existing.value
          ? {
              cluster: existing.value.cluster,
              object: existing.value.object as O,
            }
          : undefined,
      })}
    </>
  );
}

/**
 * Where a new resource goes unless the user says otherwise: `?cluster=` and
 * `?namespace=` (else the only cluster, and namespace default), and with
 * `?kubernetesId=` (opened from a catalog entity) the label that shows it on
 * the entity's page.
 */
export function useNewResourceTarget(clusters: ClusterOverview[]): {
  cluster: string;
  namespace: string;
  labels?: Record<string, string>;
} {
  const [search] = useSearchParams();
  const kubernetesId = search.get('kubernetesId');
  return {
    cluster:
      search.get('cluster') ?? (clusters.length === 1 ? clusters[0].name : ''),
    namespace: search.get('namespace') ?? 'default',
    labels: kubernetesId ? { [KUBERNETES_ID]: kubernetesId } : undefined,
  };
}

export interface ResourceFormStep {
  label: string;
  /** Fields validated before leaving the step; undefined: the whole form. */
  fields?: readonly string[];
}

export interface ResourceFormConfig<V extends FieldValues, O> {
  kind: RunwayKind;
  /** The object edited; undefined when creating. */
  existing?: Loaded<O>;
  /** The values the form opens with (read once). */
  defaults: () => V;
  /** The steps; the last is the review (dry-run preview, then submit). */
  steps: readonly ResourceFormStep[];
  /** runway-common's validation of the values, every issue on a form field. */
  validate: (values: V) => FieldIssue[];
  toObject: (values: V) => KubeObject;
  /** The form field of an issue the API reports (`spec.env[0].name` → `env`). */
  fieldOf: (path: string) => string;
  /** The page a saved object opens. */
  detailLink: (cluster: string, namespace: string, name: string) => string;
}

/** The state of a resource form: each form calls it, then renders `<ResourceForm state={...}>` with its fields. */
export function useResourceForm<V extends FieldValues, O extends KubeObject>(
  config: ResourceFormConfig<V, O>,
) {
  const { kind, existing, steps } = config;
  const api = useApi(runwayApiRef);
  const navigate = useNavigate();
  const review = steps.length - 1;
  // Defaults are read once, when the form opens.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const defaults = useMemo(config.defaults, []);
  // The latest validation (it closes over the chosen cluster's context).
  const validate = useRef(config.validate);
  validate.current = config.validate;
  const form = useForm<V>({
    defaultValues: defaults as DefaultValues<V>,
    mode: 'onChange',
    resolver: (values, ctx, options) =>
      issuesResolver<V>(v => validate.current(v))(values, ctx, options),
  });
  const values = useWatch({ control: form.control }) as V;
  const valuesKey = JSON.stringify(values);
  const object = useMemo(() => config.toObject(values), [valuesKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const issues = useMemo(
    () => config.validate(values),
    // values is keyed by its JSON (a new object on every render); the
    // validation's context follows the chosen cluster, one of the values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [valuesKey],
  );
  const warnings = useMemo(
    () => issues.filter(i => i.severity === 'warning'),
    [issues],
  );

  const [step, setStep] = useState(0);
  const [preview, setPreview] = useState<{
    value?: PreviewResponse;
    error?: Error;
    loading: boolean;
  }>({ loading: false });
  const [submitError, setSubmitError] = useState<Error>();
  const cluster = (values as { cluster?: string }).cluster ?? '';
  const namespace =
    (values as { metadata?: { namespace?: string } }).metadata?.namespace ?? '';

  useEffect(() => {
    if (step !== review) return undefined;
    let current = true;
    setPreview({ loading: true });
    api.preview(kind, cluster, object, existing ? 'update' : 'create').then(
      value => current && setPreview({ value, loading: false }),
      error => current && setPreview({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [step, object]); // eslint-disable-line react-hooks/exhaustive-deps

  // A change can fix or break another field (a provider's rule about the
  // engine, a model's provider): re-check the fields the user already saw.
  useEffect(() => {
    const { dirtyFields, touchedFields, errors } = form.formState;
    const fields = steps[step].fields;
    if (!fields) {
      if (Object.keys(errors).length) form.trigger();
      return;
    }
    const seen = fields.filter(
      f => get(dirtyFields, f) || get(touchedFields, f) || get(errors, f),
    );
    if (seen.length) form.trigger(seen as any);
  }, [valuesKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const next = async () => {
    const fields = steps[step].fields;
    const ok = await (fields ? form.trigger(fields as any) : form.trigger());
    if (ok) setStep(s => Math.min(review, s + 1));
  };

  // What saving needs: create where the form points, or update where the object is.
  const permission = existing
    ? runwayPermissions[kind].update
    : runwayPermissions[kind].create;
  const target = existing
    ? {
        cluster: existing.cluster,
        namespace: existing.object.metadata?.namespace ?? '',
      }
    : { cluster, namespace };
  const access = useRunwayPermission(permission, target);

  const submit = form.handleSubmit(async formValues => {
    setSubmitError(undefined);
    const written = config.toObject(formValues as V);
    const ns = written.metadata?.namespace ?? '';
    const name = written.metadata?.name ?? '';
    try {
      if (existing) {
        await api.update(
          kind,
          { cluster: existing.cluster, namespace: ns, name },
          written,
        );
        navigate(config.detailLink(existing.cluster, ns, name));
      } else {
        await api.create(kind, cluster, written);
        navigate(config.detailLink(cluster, ns, name));
      }
    } catch (err) {
      const error = err as Error;
      setSubmitError(error);
      if (error instanceof RunwayApiError) {
        const fields = error.issues
          .filter(i => i.severity === 'error')
          .map(i => ({ field: config.fieldOf(i.path), message: i.message }));
        // Open the step of the first field at fault, where its message shows.
        const first = steps.findIndex(
          (s, i) =>
            i < review &&
            fields.some(f =>
              s.fields ? s.fields.includes(f.field) : f.field !== 'root',
            ),
        );
        if (first >= 0) setStep(first);
        for (const f of fields)
          form.setError(f.field as any, { type: 'server', message: f.message });
      }
    }
  });

  return {
    kind,
    form,
    values,
    object,
    issues,
    warnings,
    step,
    setStep,
    review,
    steps,
    next,
    preview,
    submit,
    submitError,
    existing,
    write: { permission, target, access },
  };
}

export type ResourceFormState<
  V extends FieldValues,
  O extends KubeObject,
> = ReturnType<typeof useResourceForm<V, O>>;

/** The form around a form's own fields: title, stepper, errors and the Back / Next / Create buttons. */
export function ResourceForm<
  V extends FieldValues,
  O extends KubeObject,
>(props: {
  state: ResourceFormState<V, O>;
  /** The form's accessible name ("Deploy a model"). */
  label: string;
  title: string;
  /** What the form makes, under the title. */
  intro?: ReactNode;
  /** The label of the button that leaves a step ("Next"). */
  nextLabel?: string;
  /** Why Create must wait (e.g. a recreate not confirmed yet). */
  holdSubmit?: boolean;
  children: ReactNode;
}) {
  const { state, label, title, intro, nextLabel = 'Next', children } = props;
  const { form, step, setStep, steps, review, preview, existing, write } =
    state;
  // Issues about the whole object block where the whole form is validated: say them there.
  const wholeForm = step === review || !steps[step].fields;
  const rootErrors = state.issues.filter(
    i => i.severity === 'error' && i.field === 'root',
  );
  return (
    <FormProvider {...form}>
      <WarningsContext.Provider value={state.warnings}>
        <Box
          component="form"
          noValidate
          aria-label={label}
          onSubmit={e => e.preventDefault()}
        >
          <Typography variant="h5" component="h1" sx={{ mb: intro ? 1 : 2 }}>
            {title}
          </Typography>
          {intro}
          <Stepper nonLinear activeStep={step} sx={{ mb: 3 }}>
            {steps.map((s, i) => (
              <Step key={s.label} completed={i < step}>
                <StepButton onClick={() => (i < step ? setStep(i) : undefined)}>
                  {s.label}
                </StepButton>
              </Step>
            ))}
          </Stepper>

          {children}

          {wholeForm && rootErrors.length > 0 && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {rootErrors.map(i => (
                <div key={i.message}>
                  <code>{i.path}</code>: {i.message}
                </div>
              ))}
            </Alert>
          )}
          {state.submitError && (
            <ErrorAlert
              error={state.submitError}
              title={existing ? 'Update failed' : 'Create failed'}
            />
          )}

          <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
            <Button disabled={step === 0} onClick={() => setStep(s => s - 1)}>
              Back
            </Button>
            {step < review ? (
              <Button variant="contained" onClick={state.next}>
                {nextLabel}
              </Button>
            ) : (
              <PermissionGate
                permission={write.permission}
                resource={write.target}
              >
                {allowed => (
                  <Button
                    variant="contained"
                    onClick={state.submit}
                    disabled={
                      !allowed ||
                      form.formState.isSubmitting ||
                      preview.loading ||
                      Boolean(preview.error) ||
                      Boolean(props.holdSubmit)
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

/**
 * Cluster, namespace and name: where the object goes, fixed when editing,
 * with the cluster's load error and why the user may not save there.
 */
export function TargetFields<
  V extends FieldValues,
  O extends KubeObject,
>(props: {
  state: ResourceFormState<V, O>;
  clusters: ClusterOverview[];
  clusterErrors: ClusterError[];
  fields: {
    cluster: FormFieldSpec;
    'metadata.namespace': FormFieldSpec;
    'metadata.name': FormFieldSpec;
  };
  /** "create the deployment", "add the model". */
  action: string;
  /** Namespace and name side by side. */
  row?: boolean;
}) {
  const { state, clusters, clusterErrors, fields, action } = props;
  const editing = Boolean(state.existing);
  const chosen = (state.values as { cluster?: string }).cluster;
  const cluster = clusters.find(c => c.name === chosen);
  const clusterOptions = clusters.map(c => ({
    value: c.name,
    label: `${c.title || c.name}${c.reachable ? '' : ' (unreachable)'}`,
  }));
  const namespaceOptions = cluster?.namespaces?.length
    ? cluster.namespaces.map(n => ({ value: n, label: n }))
    : undefined;
  const namespaceAndName = (
    <>
      <MetaField
        field={fields['metadata.namespace']}
        options={namespaceOptions}
        disabled={editing}
      />
      <MetaField field={fields['metadata.name']} disabled={editing} />
    </>
  );
  const reason = state.write.access.reason;
  return (
    <>
      <MetaField
        field={fields.cluster}
        options={clusterOptions}
        disabled={editing}
      />
      {clusterErrors
        .filter(e => e.cluster === chosen)
        .map(e => (
          <Alert severity="error" key={e.cluster}>
            Cluster {e.cluster}: {e.message}
          </Alert>
        ))}
      {props.row ? (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          {namespaceAndName}
        </Stack>
      ) : (
        namespaceAndName
      )}
      {reason && (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {reason}:{' '}
          {editing
            ? 'you can review changes but not save them.'
            : `choose another namespace or cluster to be able to ${action}.`}
        </Alert>
      )}
    </>
  );
}

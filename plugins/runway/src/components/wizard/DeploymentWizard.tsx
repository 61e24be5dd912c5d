import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  cachedModelName,
  DEFAULT_GPU_RESOURCE,
  DEPLOYMENT_FORM_STEPS,
  DEPLOYMENT_FORM,
  identityChanges,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ResourceRef } from '../../api/RunwayApi';
import type { ClusterOverview } from '../../api/types';
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
import { useRunwayLinks } from '../common/useRunwayLinks';
import { KUBERNETES_ID } from '../../kubernetesId';
import { MetaField } from '../form/fields';
import {
  type ClusterError,
  type Loaded,
  ResourceForm,
  ResourceFormLoader,
  TargetFields,
  useNewResourceTarget,
  useResourceForm,
} from '../form/ResourceForm';
import { GatewayFields, TolerationRows } from './fields';
import { HubSearch } from '../models/HubSearch';
import { CachedModelField } from './CachedModelField';
import { ReviewStep } from './ReviewStep';
import { SelectionPanel } from './SelectionPanel';

/** The steps and the fields each one validates: runway-common's description of the form. */
export const STEPS = DEPLOYMENT_FORM_STEPS;

const F = DEPLOYMENT_FORM;

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
  return (
    <ResourceFormLoader<ModelDeployment>
      kind="deployments"
      source={edit ?? copyFrom}
      cannot={edit ? 'Cannot edit' : 'Cannot copy'}
    >
      {loaded => (
        <WizardForm
          clusters={loaded.clusters}
          clusterErrors={loaded.clusterErrors}
          existing={edit ? loaded.object : undefined}
          template={copyFrom ? loaded.object : undefined}
        />
      )}
    </ResourceFormLoader>
  );
}

function WizardForm(props: {
  clusters: ClusterOverview[];
  clusterErrors: ClusterError[];
  existing?: Loaded<ModelDeployment>;
  /** A new deployment's starting values: a copy of this one. */
  template?: Loaded<ModelDeployment>;
}) {
  const { clusters, clusterErrors, existing, template } = props;
  const links = useRunwayLinks();
  const target = useNewResourceTarget(clusters);
  // What validation knows of the chosen cluster.
  const contextOf = (values: WizardValues): FormContext => {
    const chosen = clusters.find(c => c.name === values.cluster);
    return {
      providers: chosen ? providerConfigsFor(chosen) : undefined,
      freeGpus: freeGpus(
        chosen,
        values.spec?.resources?.gpu?.type || DEFAULT_GPU_RESOURCE,
      ),
      namespaces: chosen?.namespaces,
      existing: existing?.object,
    };
  };
  const state = useResourceForm<WizardValues, ModelDeployment>({
    kind: 'deployments',
    existing,
    steps: STEPS,
    defaults: () => {
      if (existing)
        return fromModelDeployment(existing.cluster, existing.object);
      if (template) return copyOfDeployment(template.cluster, template.object);
      return emptyWizardValues(target);
    },
    validate: values => validateWizard(values, contextOf(values)),
    toObject: toModelDeployment,
    fieldOf: path => fieldForIssue(path, SPEC_FIELDS),
    detailLink: links.detail,
  });
  const { values, form, step, review, preview } = state;
  const md = state.object as ModelDeployment;
  const cluster = clusters.find(c => c.name === values.cluster);
  const gpuType = values.spec?.resources?.gpu?.type || DEFAULT_GPU_RESOURCE;
  const selection = useMemo(
    () => selectionView(md.spec, cluster, md.metadata?.name),
    [md, cluster],
  );
  const fits = useMemo(() => providerFits(md.spec, cluster), [md, cluster]);
  const [confirmRecreate, setConfirmRecreate] = useState(false);
  // Saving a change of an identity field recreates the deployment: ask first.
  const recreate = existing
    ? identityChanges(existing.object, md).length > 0
    : false;

  const explicitProvider = values.spec?.provider?.name;
  const chosenFit = fits.find(f => f.name === explicitProvider);
  const free = freeGpus(cluster, gpuType);
  const disaggregated = values.spec?.serving?.mode === 'disaggregated';

  return (
    <ResourceForm
      state={state}
      label={existing ? 'Edit deployment' : 'Deploy a model'}
      title={
        existing
          ? `Edit deployment ${existing.object.metadata?.name}`
          : 'Deploy a model'
      }
      holdSubmit={recreate && !confirmRecreate}
    >
      {step === 0 && (
        <Box>
          <TargetFields
            state={state}
            clusters={clusters}
            clusterErrors={clusterErrors}
            fields={DEPLOYMENT_FORM}
            action="create the deployment"
          />
        </Box>
      )}

      {step === 1 && (
        <Box>
          <MetaField field={F['spec.model.source']} />
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
          <MetaField field={F['spec.model.id']} />
          {values.spec?.model?.source !== 'custom' && (
            <MetaField field={F['spec.model.servedName']} />
          )}
        </Box>
      )}

      {step === 2 && (
        <Box>
          <MetaField field={F['spec.engine.type']} />
          <MetaField
            field={F['spec.provider.name']}
            options={fits.map(f => ({
              value: f.name,
              label: `${f.label}${
                f.problems.length
                  ? ` (${f.ready ? 'incompatible' : 'not ready'})`
                  : ''
              }`,
            }))}
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
          <MetaField field={F['spec.serving.mode']} />
          {free !== undefined && (
            <Typography variant="body2" color="text.secondary">
              Cluster {values.cluster} has {free} free {gpuType}.
            </Typography>
          )}
          {!disaggregated ? (
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              <MetaField field={F['spec.scaling.replicas']} />
              <MetaField field={F['spec.resources.gpu.count']} />
              <MetaField field={F['spec.resources.memory']} />
              <MetaField field={F['spec.resources.cpu']} />
            </Stack>
          ) : (
            (['prefill', 'decode'] as const).map(component => (
              <Stack
                direction={{ xs: 'column', md: 'row' }}
                spacing={2}
                key={component}
              >
                <MetaField field={F[`spec.scaling.${component}.replicas`]} />
                <MetaField field={F[`spec.scaling.${component}.gpu.count`]} />
                <MetaField field={F[`spec.scaling.${component}.memory`]} />
              </Stack>
            ))
          )}
          <MetaField field={F['spec.resources.gpu.type']} />
        </Box>
      )}

      {step === 4 && (
        <Box>
          <MetaField
            field={F.labels}
            help={`${KUBERNETES_ID}: <id> shows the deployment on the catalog entity with that kubernetes-id.`}
          />
          <MetaField field={F['spec.image']} />
          <MetaField field={F['spec.engine.contextLength']} />
          <MetaField field={F.engineArgs} />
          <MetaField field={F.env} />
          <MetaField field={F['spec.secrets.huggingFaceToken']} />
          <MetaField field={F.providerOverrides} />
          <MetaField field={F.nodeSelector} />
          <TolerationRows />
          <MetaField field={F.podLabels} />
          <GatewayFields
            spec={md.spec}
            namespace={values.metadata?.namespace}
          />
        </Box>
      )}

      {step === review && (
        <ReviewStep
          preview={preview}
          existing={existing?.object}
          object={md}
          confirmRecreate={confirmRecreate}
          onConfirmRecreate={setConfirmRecreate}
        />
      )}
    </ResourceForm>
  );
}

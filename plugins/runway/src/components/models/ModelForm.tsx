import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  DEFAULT_GPU_RESOURCE,
  type Model,
  MODEL_FORM,
  MODEL_FORM_FIELDS,
  MODEL_FORM_STEPS,
} from '@runway-portal/plugin-runway-common';
import { useSearchParams } from 'react-router-dom';
import type { ResourceRef } from '../../api/RunwayApi';
import { useRunwayData } from '../../hooks/useRunwayData';
import { fieldForIssue } from '../../lib/form';
import {
  emptyModelValues,
  fromModel,
  type ModelFormValues,
  toModel,
  validateModelForm,
} from '../../lib/modelForm';
import { KUBERNETES_ID } from '../../kubernetesId';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { MetaField } from '../form/fields';
import {
  type FormLoaded,
  ResourceForm,
  ResourceFormLoader,
  TargetFields,
  useNewResourceTarget,
  useResourceForm,
} from '../form/ResourceForm';
import { DryRunPreview } from '../wizard/ReviewStep';
import { freeGpus, gpuTypesOf } from '../../lib/clusters';
import { HubSearch } from './HubSearch';
import { SuggestField } from './SuggestField';

const F = MODEL_FORM;

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
  return (
    <ResourceFormLoader<Model> kind="models" source={edit}>
      {loaded => <Form loaded={loaded} />}
    </ResourceFormLoader>
  );
}

function Form({ loaded }: { loaded: FormLoaded<Model> }) {
  const { clusters, clusterErrors, object: existing } = loaded;
  const links = useRunwayLinks();
  const [search] = useSearchParams();
  const target = useNewResourceTarget(clusters);
  const state = useResourceForm<ModelFormValues, Model>({
    kind: 'models',
    existing,
    steps: MODEL_FORM_STEPS,
    defaults: () =>
      existing
        ? fromModel(existing.cluster, existing.object)
        : emptyModelValues({
            ...target,
            repoId: search.get('repoId') ?? undefined,
          }),
    validate: values =>
      validateModelForm(values, {
        namespaces: clusters.find(c => c.name === values.cluster)?.namespaces,
      }),
    toObject: toModel,
    fieldOf: path => fieldForIssue(path, MODEL_FORM_FIELDS),
    detailLink: (cluster, namespace, name) =>
      links.of('models', cluster, namespace, name),
  });
  const { values, form, step, review, preview } = state;
  const cluster = clusters.find(c => c.name === values.cluster);
  const pickers = usePickers(values.cluster, values.metadata?.namespace);

  return (
    <ResourceForm
      state={state}
      label={existing ? 'Edit model' : 'Add a model'}
      title={
        existing
          ? `Edit model ${existing.object.metadata?.name}`
          : 'Add a model'
      }
      intro={
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          The model operator downloads the files once into a
          PersistentVolumeClaim; deployments and pods in the namespace then
          mount them instead of downloading again.
        </Typography>
      }
    >
      {step === 0 && (
        <Box>
          <TargetFields
            state={state}
            clusters={clusters}
            clusterErrors={clusterErrors}
            fields={F}
            action="add the model"
          />
        </Box>
      )}

      {step === 1 && (
        <Box>
          <MetaField field={F.sourceType} />
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
              <MetaField field={F['spec.source.huggingFace.repoId']} />
              <MetaField
                field={F['spec.source.huggingFace.revision']}
                sx={{ maxWidth: { md: 240 } }}
              />
            </Stack>
          )}
          {values.sourceType === 's3' && (
            <>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                <MetaField field={F['spec.source.s3.bucket']} />
                <MetaField field={F['spec.source.s3.key']} />
              </Stack>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
                <MetaField field={F['spec.source.s3.endpoint']} />
                <MetaField field={F['spec.source.s3.region']} />
              </Stack>
            </>
          )}
          {values.sourceType === 'url' && (
            <MetaField field={F['spec.source.url.url']} />
          )}
          <SuggestField
            field={F['spec.credentialsSecret']}
            suggestions={pickers.secrets}
            loading={pickers.secretsLoading}
            problem={pickers.secretsProblem}
          />
          <MetaField field={F['spec.version']} />
        </Box>
      )}

      {step === 2 && (
        <Box>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <SuggestField
              field={F['spec.storage.storageClass']}
              suggestions={pickers.storageClasses}
              loading={pickers.storageClassesLoading}
              problem={pickers.storageClassesProblem}
            />
            <MetaField field={F['spec.storage.size']} />
          </Stack>
          <MetaField field={F['spec.storage.accessModes']} />
          <MetaField field={F.nodeSelector} />
          <MetaField
            field={F.labels}
            help={`${KUBERNETES_ID}: <id> shows the model on the catalog entity with that kubernetes-id.`}
          />
        </Box>
      )}

      {step === review && (
        <Box>
          <DryRunPreview preview={preview} written="Objects" />
        </Box>
      )}
    </ResourceForm>
  );
}

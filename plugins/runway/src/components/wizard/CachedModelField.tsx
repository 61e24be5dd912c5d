import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import {
  cachedModelChoice,
  cachedModelName,
  type Model,
  withCachedModel,
} from '@runway-portal/plugin-runway-common';
import { useMemo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useRunwayData } from '../../hooks/useRunwayData';
import type { WizardValues } from '../../lib/form';
import { fieldId, useFieldMessages } from '../form/fields';

const NONE = '';

/**
 * "Use a cached model": the Models of the deployment's cluster and namespace
 * (Ready first). Choosing one mounts its PVC (`spec.model.storage.volumes`)
 * and points the model id at the files; choosing none removes that volume.
 */
export function CachedModelField() {
  const { control, setValue, getValues } = useFormContext<WizardValues>();
  const [cluster, namespace, volumes] = useWatch({
    control,
    name: ['cluster', 'metadata.namespace', 'volumes'],
  });
  const models = useRunwayData(
    api =>
      cluster && namespace
        ? api.list('models', { clusters: [cluster], namespace })
        : Promise.resolve(undefined),
    [cluster, namespace],
    ['models'],
  );
  const choices = useMemo(
    () =>
      (models.value?.items ?? [])
        .filter(i => i.cluster === cluster)
        .map(i => cachedModelChoice(i.object as Model))
        // Ready first, then by name.
        .sort(
          (a, b) =>
            Number(Boolean(a.notReady)) - Number(Boolean(b.notReady)) ||
            a.model.localeCompare(b.model),
        ),
    [models.value, cluster],
  );
  const chosenName = cachedModelName(volumes) ?? NONE;
  const chosen = choices.find(c => c.model === chosenName);
  const { error, warning } = useFieldMessages('volumes');

  const choose = (name: string) => {
    const choice = choices.find(c => c.model === name);
    const set = (field: any, value: unknown) =>
      setValue(field, value, { shouldDirty: true, shouldValidate: true });
    set('volumes', withCachedModel(getValues('volumes'), choice));
    if (choice) {
      set('spec.model.source', 'huggingface');
      set('spec.model.id', choice.modelId);
      set('spec.model.servedName', choice.repoId ?? '');
    } else if (chosen) {
      // Back to downloading: the repository the cached files came from.
      set('spec.model.id', chosen.repoId ?? '');
      set('spec.model.servedName', '');
    }
  };

  const label = (c: (typeof choices)[number]) =>
    `${c.model}${c.repoId ? ` (${c.repoId})` : ''}${
      c.notReady ? ' - not Ready' : ''
    }`;
  const help = models.error
    ? `Could not list the Models of ${namespace}: ${models.error.message}`
    : `Mounts a Model's files (read-only, at /models/<name>) instead of downloading them; ${
        choices.length
          ? `${choices.length} Model(s) in ${namespace}.`
          : `no Models in ${namespace || 'the namespace'} on ${
              cluster || 'the cluster'
            }.`
      }`;

  return (
    <>
      <TextField
        select
        id={fieldId('volumes')}
        label="Use a cached model"
        value={chosenName}
        onChange={e => choose(e.target.value)}
        error={Boolean(error)}
        helperText={error ?? warning ?? help}
        FormHelperTextProps={
          { role: error || warning ? 'alert' : undefined } as any
        }
        SelectProps={{ displayEmpty: true }}
        InputLabelProps={{ shrink: true }}
        disabled={!cluster || !namespace}
        fullWidth
        margin="normal"
      >
        <MenuItem value={NONE}>None: the engine downloads the model</MenuItem>
        {choices.map(c => (
          <MenuItem key={c.model} value={c.model}>
            {label(c)}
          </MenuItem>
        ))}
        {chosenName && !chosen && (
          <MenuItem value={chosenName}>
            {chosenName} (not found in {namespace})
          </MenuItem>
        )}
      </TextField>
      {chosen?.notReady && (
        <Alert severity="warning" role="status" aria-label="cached model">
          {chosen.notReady}
        </Alert>
      )}
      {chosen?.singleNode && (
        <Alert severity="info" sx={{ mt: 1 }}>
          {chosen.singleNode}
        </Alert>
      )}
      {chosenName && !chosen && !models.loading && !models.error && (
        <Alert severity="warning" role="status" aria-label="cached model">
          Model {chosenName} is not in {namespace} on {cluster}: its volume
          model-{chosenName} mounts a PVC that may not exist. Choose another
          Model or None.
        </Alert>
      )}
    </>
  );
}

import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { identityChanges, type ModelDeployment } from '@runway-portal/plugin-runway-common';
import { stringify } from 'yaml';
import type { PreviewResponse } from '../../api/types';
import { ErrorAlert } from '../common/ErrorAlert';
import { SelectionPanel } from './SelectionPanel';

/** The object without metadata.managedFields: server bookkeeping, not what the user wrote. */
export function withoutManagedFields(value: unknown): unknown {
  const object = value as { metadata?: Record<string, unknown> } | undefined;
  if (!object?.metadata?.managedFields) return value;
  const { managedFields: _ignored, ...metadata } = object.metadata;
  return { ...object, metadata };
}

export function Yaml({ value, label }: { value: unknown; label: string }) {
  return (
    <Box
      component="pre"
      aria-label={label}
      tabIndex={0}
      sx={{ bgcolor: 'action.hover', p: 2, borderRadius: 1, overflow: 'auto', maxHeight: 480, fontSize: 12 }}
    >
      {stringify(withoutManagedFields(value))}
    </Box>
  );
}

/** The dry-run preview: exactly what will be written, the selection, warnings; identity changes on edit. */
export function ReviewStep(props: {
  preview?: PreviewResponse;
  error?: Error;
  loading: boolean;
  existing?: ModelDeployment;
  object: ModelDeployment;
  confirmRecreate: boolean;
  onConfirmRecreate: (value: boolean) => void;
}) {
  const { preview, error, loading, existing, object, confirmRecreate, onConfirmRecreate } = props;
  const changes = existing ? identityChanges(existing, object) : [];
  return (
    <Box>
      {changes.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>This change recreates the deployment</AlertTitle>
          <ul>
            {changes.map(c => (
              <li key={c.field}>
                spec.{c.field}: {c.from ?? '(unset)'} → {c.to ?? '(unset)'}
              </li>
            ))}
          </ul>
          Changing an identity field deletes and recreates the provider resource: the model is unavailable until the new one is ready.
          <FormControlLabel
            control={<Checkbox checked={confirmRecreate} onChange={e => onConfirmRecreate(e.target.checked)} />}
            label="I understand the deployment will be recreated"
          />
        </Alert>
      )}
      {loading && <LinearProgress aria-label="loading preview" />}
      {error && <ErrorAlert error={error} title="The cluster rejected the preview" />}
      {preview && (
        <>
          {preview.selection && (
            <SelectionPanel
              title="Cluster's selection"
              view={{
                engine: { ...preview.selection.engine, auto: preview.selection.engine.auto ?? false },
                provider: preview.selection.provider && { ...preview.selection.provider, auto: preview.selection.provider.auto ?? false },
              }}
            />
          )}
          {preview.warnings.map(w => (
            <Alert severity="warning" key={`${w.path}|${w.message}`} sx={{ mb: 1 }}>
              <code>{w.path}</code>: {w.message}
            </Alert>
          ))}
          <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
            Objects written to cluster {preview.cluster} (server-side dry run)
          </Typography>
          {preview.objects.map(o => (
            <Box key={`${o.object.kind}/${o.object.metadata?.name}`}>
              <Typography variant="subtitle2">
                {o.action}: {o.object.kind} {o.object.metadata?.namespace}/{o.object.metadata?.name}
              </Typography>
              <Yaml value={o.object} label={`${o.object.kind} ${o.object.metadata?.name} YAML`} />
            </Box>
          ))}
          <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
            Provider objects
          </Typography>
          {preview.providerObjects.objects.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {preview.providerObjects.message}
            </Typography>
          ) : (
            preview.providerObjects.objects.map(o => (
              <Yaml key={`${o.kind}/${o.metadata?.name}`} value={o} label={`${o.kind} ${o.metadata?.name} YAML`} />
            ))
          )}
        </>
      )}
    </Box>
  );
}

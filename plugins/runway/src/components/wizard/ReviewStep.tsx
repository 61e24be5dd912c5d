import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import {
  identityChanges,
  type ModelDeployment,
} from '@runway-portal/plugin-runway-common';
import type { ReactNode } from 'react';
import { stringify } from 'yaml';
import type {
  KubeObject,
  PreviewResponse,
  ProviderObjects,
  ProviderObjectsStatus,
} from '../../api/types';
import { ErrorAlert } from '../common/ErrorAlert';
import { SelectionPanel } from './SelectionPanel';

/** The object without metadata.managedFields: server bookkeeping, not what the user wrote. */
export function withoutManagedFields(value: unknown): unknown {
  const object = value as { metadata?: Record<string, unknown> } | undefined;
  if (!object?.metadata?.managedFields) return value;
  const { managedFields: _ignored, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/** Preformatted text (YAML, a config, a command) in a scrolling, focusable box; `label` is its accessible name. */
export function CodeBlock(props: {
  label: string;
  children: string;
  maxHeight?: number;
}) {
  return (
    <Box
      component="pre"
      aria-label={props.label}
      tabIndex={0}
      sx={{
        bgcolor: 'action.hover',
        p: 2,
        borderRadius: 1,
        overflow: 'auto',
        maxHeight: props.maxHeight ?? 480,
        fontSize: 12,
      }}
    >
      {props.children}
    </Box>
  );
}

export function Yaml({ value, label }: { value: unknown; label: string }) {
  return (
    <CodeBlock label={label}>
      {stringify(withoutManagedFields(value))}
    </CodeBlock>
  );
}

/** One object to be written, captioned with what happens to it, as YAML. */
export function ObjectYaml({
  object,
  action,
}: {
  object: KubeObject;
  action?: string;
}) {
  const { kind, metadata } = object;
  return (
    <Box>
      <Typography variant="subtitle2">
        {action && `${action}: `}
        {kind} {metadata?.namespace}/{metadata?.name}
      </Typography>
      <Yaml value={object} label={`${kind} ${metadata?.name} YAML`} />
    </Box>
  );
}

/** A form's dry-run preview as `useResourceForm` holds it. */
export interface PreviewState {
  value?: PreviewResponse;
  error?: Error;
  loading: boolean;
}

/**
 * The review step's dry run: loading, the cluster's refusal, or its
 * warnings, then what would be written (`written` names it in the heading;
 * `objects` shows it, by default each object as YAML with its action).
 */
export function DryRunPreview(props: {
  preview: PreviewState;
  written: string;
  /** Before the warnings (the cluster's selection). */
  top?: (value: PreviewResponse) => ReactNode;
  objects?: (value: PreviewResponse) => ReactNode;
  /** After the objects (what the provider or operator would write). */
  after?: (value: PreviewResponse) => ReactNode;
}) {
  const { value, error, loading } = props.preview;
  return (
    <>
      {loading && <LinearProgress aria-label="loading preview" />}
      {error && (
        <ErrorAlert error={error} title="The cluster rejected the preview" />
      )}
      {value && (
        <>
          {props.top?.(value)}
          {value.warnings.map(w => (
            <Alert
              severity="warning"
              key={`${w.path}|${w.message}`}
              sx={{ mb: 1 }}
            >
              <code>{w.path}</code>: {w.message}
            </Alert>
          ))}
          <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
            {props.written} written to cluster {value.cluster} (server-side dry
            run)
          </Typography>
          {props.objects
            ? props.objects(value)
            : value.objects.map(o => (
                <ObjectYaml
                  key={`${o.object.kind}/${o.object.metadata?.name}`}
                  object={o.object}
                  action={o.action}
                />
              ))}
          {props.after?.(value)}
        </>
      )}
    </>
  );
}

/** The dry-run preview: exactly what will be written, the selection, warnings; identity changes on edit. */
export function ReviewStep(props: {
  preview: PreviewState;
  existing?: ModelDeployment;
  object: ModelDeployment;
  confirmRecreate: boolean;
  onConfirmRecreate: (value: boolean) => void;
}) {
  const { existing, object, confirmRecreate, onConfirmRecreate } = props;
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
          Changing an identity field deletes and recreates the provider
          resource: the model is unavailable until the new one is ready.
          <FormControlLabel
            control={
              <Checkbox
                checked={confirmRecreate}
                onChange={e => onConfirmRecreate(e.target.checked)}
              />
            }
            label="I understand the deployment will be recreated"
          />
        </Alert>
      )}
      <DryRunPreview
        preview={props.preview}
        written="Objects"
        top={preview =>
          preview.selection && (
            <SelectionPanel
              title="Cluster's selection"
              view={{
                engine: {
                  ...preview.selection.engine,
                  auto: preview.selection.engine.auto ?? false,
                },
                provider: preview.selection.provider && {
                  ...preview.selection.provider,
                  auto: preview.selection.provider.auto ?? false,
                },
              }}
            />
          )
        }
        after={preview => (
          <ProviderObjectsView value={preview.providerObjects} />
        )}
      />
    </Box>
  );
}

const SEVERITY: Record<
  ProviderObjectsStatus,
  'success' | 'info' | 'warning' | 'error'
> = {
  available: 'success',
  'not-applicable': 'info',
  'not-built-in': 'info',
  'no-provider': 'warning',
  'provider-unavailable': 'warning',
  invalid: 'error',
  error: 'error',
};

const TITLE: Record<ProviderObjectsStatus, string> = {
  available: 'What the provider would write',
  'not-applicable': 'No provider objects',
  'not-built-in': 'Provider objects not shown',
  'no-provider': 'No provider would take this deployment',
  'provider-unavailable': 'The provider is not available in this cluster',
  invalid: 'The provider would refuse this deployment',
  error: "The provider's transformation failed",
};

/** What the selected provider would write (its own transformation), or why nothing. */
export function ProviderObjectsView({ value }: { value: ProviderObjects }) {
  return (
    <Box component="section" aria-label="Provider objects">
      <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
        {value.provider
          ? `Objects written by provider ${value.provider}`
          : 'Provider objects'}
        {value.apiVersion && ` (${value.apiVersion})`}
      </Typography>
      <Alert severity={SEVERITY[value.status]} sx={{ mb: 1 }}>
        <AlertTitle>{TITLE[value.status]}</AlertTitle>
        {value.message}
      </Alert>
      {value.warnings.map(w => (
        <Alert severity="warning" key={w} sx={{ mb: 1 }}>
          {w}
        </Alert>
      ))}
      {value.objects.map(o => (
        <ObjectYaml key={`${o.kind}/${o.metadata?.name}`} object={o} />
      ))}
    </Box>
  );
}

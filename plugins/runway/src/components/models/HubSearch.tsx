import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import {
  estimateModelMemory,
  formatBytes,
  gpuFitOnCluster,
  type GpuType,
  type HubModelSummary,
} from '@runway-portal/plugin-runway-common';
import { useEffect, useState } from 'react';
import { runwayApiRef } from '../../api/RunwayApi';

const SEVERITY = {
  fits: 'success',
  unknown: 'info',
  'too-big': 'warning',
  'not-enough-gpus': 'warning',
} as const;

/** `8.0B`, `350M`: a parameter count as model cards write it. */
export function formatParameters(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (n >= 1e6) return `${Math.round(n / 1e6)}M`;
  return String(n);
}

/** One line about a hub repository: parameters, size, license, gated. */
export function hubModelFacts(m: HubModelSummary): string {
  return [
    m.parameters ? `${formatParameters(m.parameters)} parameters` : '',
    m.sizeBytes ? formatBytes(m.sizeBytes) : '',
    m.license ? `license ${m.license}` : '',
    m.gated ? 'gated: needs HF_TOKEN' : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Searches the hub through the backend as the user types and hands the
 * chosen repository to `onPick`; shows its facts and the GPU-fit estimate
 * (runway-common's `gpuFitOnCluster`) against the chosen cluster's free
 * GPUs and their memory. Used by the model form and the deployment wizard.
 */
export function HubSearch(props: {
  onPick: (model: HubModelSummary) => void;
  /** Free GPUs of the resource in the chosen cluster. */
  freeGpus?: number;
  /** Those GPUs by model and memory (`GpuCapacity.types`). */
  gpuTypes?: GpuType[];
}) {
  const api = useApi(runwayApiRef);
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<HubModelSummary[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<Error>();
  const [picked, setPicked] = useState<HubModelSummary>();

  useEffect(() => {
    const query = input.trim();
    if (query.length < 2) return undefined;
    let current = true;
    // One request per pause in typing.
    const timer = setTimeout(() => {
      setLoading(true);
      api.searchHub(query).then(
        answer => {
          if (!current) return;
          setOptions(answer.items);
          setError(undefined);
          setLoading(false);
        },
        err => {
          if (!current) return;
          setError(err);
          setLoading(false);
        },
      );
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, input]);

  const fit = picked
    ? gpuFitOnCluster({
        estimate: estimateModelMemory({
          parameters: picked.parameters,
          weightsBytes: picked.sizeBytes,
        }),
        freeGpus: props.freeGpus,
        types: props.gpuTypes,
      })
    : undefined;

  return (
    <Box sx={{ mt: 1 }}>
      <Autocomplete
        id="runway-hub-search"
        options={options}
        loading={loading}
        filterOptions={o => o}
        getOptionLabel={o => o.id}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onInputChange={(_e, value, reason) => {
          if (reason === 'input') setInput(value);
        }}
        onChange={(_e, value) => {
          setPicked(value ?? undefined);
          if (value) props.onPick(value);
        }}
        renderOption={(optionProps, o) => (
          <li {...optionProps} key={o.id}>
            <Box>
              <div>{o.id}</div>
              <Box component="small" sx={{ color: 'text.secondary' }}>
                {hubModelFacts(o) || 'no size or license on the hub'}
              </Box>
            </Box>
          </li>
        )}
        renderInput={params => (
          <TextField
            {...params}
            label="Search the Hugging Face Hub"
            helperText={
              error
                ? `The hub search failed: ${error.message}; type the repository below.`
                : 'Type two letters or more; picking a result fills the repository.'
            }
            error={Boolean(error)}
            margin="normal"
          />
        )}
      />
      {picked && (
        <Alert
          severity={SEVERITY[fit?.verdict ?? 'unknown']}
          sx={{ mt: 1, mb: 2 }}
          aria-label="GPU fit"
        >
          <strong>{picked.id}</strong>
          {hubModelFacts(picked) ? `: ${hubModelFacts(picked)}. ` : '. '}
          {fit?.message}
          {fit?.estimate?.assumptions.length
            ? ` (Assumes ${fit.estimate.assumptions.join('; ')}.)`
            : ''}
        </Alert>
      )}
    </Box>
  );
}

import Chip from '@mui/material/Chip';

const COLORS: Record<
  string,
  'success' | 'info' | 'warning' | 'error' | 'default'
> = {
  Running: 'success',
  Ready: 'success',
  Deploying: 'info',
  Pending: 'warning',
  Failed: 'error',
  Terminating: 'default',
};

export function PhaseChip({ phase }: { phase: string }) {
  return (
    <Chip
      size="small"
      label={phase || 'Unknown'}
      color={COLORS[phase] ?? 'default'}
      variant="outlined"
    />
  );
}

import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Stack from '@mui/material/Stack';
import type { SelectionView } from '../../lib/selection';

/** The engine and provider the core controller would pick, with its reasons; updates as the user types. */
export function SelectionPanel({
  view,
  title = 'Selection',
}: {
  view: SelectionView;
  title?: string;
}) {
  const { engine, provider } = view;
  return (
    <Stack
      spacing={1}
      sx={{ my: 2 }}
      role="status"
      aria-live="polite"
      aria-label="engine and provider selection"
    >
      <Alert severity={engine.ok ? 'success' : 'error'}>
        <AlertTitle>
          {title}: engine {engine.ok ? engine.engine : 'cannot be selected'}
          {engine.ok && (engine.auto ? ' (automatic)' : ' (explicit)')}
        </AlertTitle>
        {engine.reason}
      </Alert>
      {provider && (
        <Alert severity={provider.ok ? 'success' : 'error'}>
          <AlertTitle>
            {title}: provider{' '}
            {provider.ok ? provider.provider : 'cannot be selected'}
            {provider.ok && (provider.auto ? ' (automatic)' : ' (explicit)')}
          </AlertTitle>
          {provider.reason}
        </Alert>
      )}
    </Stack>
  );
}

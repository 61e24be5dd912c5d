import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { RunwayApiError } from '../../api/RunwayApi';

/** An API error, with the fields the backend named. */
export function ErrorAlert({ error, title }: { error: Error; title?: string }) {
  const issues = error instanceof RunwayApiError ? error.issues : [];
  return (
    <Alert severity="error" sx={{ mb: 2 }}>
      <AlertTitle>{title ?? 'The runway backend could not answer'}</AlertTitle>
      {error.message}
      {issues.length > 0 && (
        <ul>
          {issues.map(i => (
            <li key={`${i.path}|${i.message}`}>
              <code>{i.path}</code>: {i.message}
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

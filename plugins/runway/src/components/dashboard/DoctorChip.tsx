import { useApi } from '@backstage/core-plugin-api';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { runwayApiRef } from '../../api/RunwayApi';
import type { DoctorCheck, DoctorReport } from '../../api/types';
import { doctorChipView, doctorRows } from '../../lib/doctor';

const STATUS_COLOR: Record<DoctorCheck['status'], string> = {
  fail: 'error.main',
  warn: 'warning.main',
  ok: 'success.main',
  'not-checked': 'text.secondary',
};

/**
 * The doctor's verdict on a cluster card: one small chip ("2 problems",
 * coloured by the worst) that opens the checks with their fixes. Nothing
 * before the backend's first run.
 */
export function DoctorChip({
  cluster,
  report,
  stale = false,
}: {
  cluster: string;
  report?: DoctorReport;
  /** The cluster does not answer: its report is the last known one. */
  stale?: boolean;
}) {
  const api = useApi(runwayApiRef);
  const [open, setOpen] = useState(false);
  const [fresh, setFresh] = useState<DoctorReport>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string>();
  const shown = fresh ?? report;
  if (!shown?.checkedAt) return null;
  const chip = doctorChipView(shown, stale && !fresh);
  const checkAgain = async () => {
    setRunning(true);
    setError(undefined);
    try {
      setFresh(await api.doctor(cluster, true));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setRunning(false);
    }
  };
  return (
    <>
      <Chip
        size="small"
        variant="outlined"
        color={chip.color}
        label={chip.label}
        onClick={() => setOpen(true)}
        data-testid={`cluster-doctor-${cluster}`}
        aria-label={`${chip.label}: show the doctor's checks of cluster ${cluster}`}
      />
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        maxWidth="md"
        fullWidth
        aria-labelledby={`doctor-title-${cluster}`}
      >
        <DialogTitle id={`doctor-title-${cluster}`}>
          Checks of cluster {cluster}
          <Typography variant="caption" component="p" color="text.secondary">
            runway doctor, run by the portal at{' '}
            {new Date(shown.checkedAt!).toLocaleString()}
          </Typography>
        </DialogTitle>
        <DialogContent dividers>
          {(shown.error || error) && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {error ?? shown.error}
            </Alert>
          )}
          <List
            dense
            disablePadding
            aria-label={`checks of cluster ${cluster}`}
          >
            {doctorRows(shown.checks).map(c => (
              <ListItem
                key={c.id}
                disableGutters
                data-status={c.status}
                sx={{ display: 'block', py: 0.5 }}
              >
                <Typography variant="body2">
                  <Typography
                    component="span"
                    variant="body2"
                    sx={{
                      color: STATUS_COLOR[c.status],
                      fontWeight: 600,
                      mr: 1,
                    }}
                  >
                    {c.label}
                  </Typography>
                  {c.message}
                </Typography>
                {c.fix && (
                  <Typography
                    variant="caption"
                    component="p"
                    sx={{ fontFamily: 'monospace', ml: 2 }}
                  >
                    fix: {c.fix}
                  </Typography>
                )}
              </ListItem>
            ))}
          </List>
        </DialogContent>
        <DialogActions>
          <Button onClick={checkAgain} disabled={running}>
            {running ? 'Checking…' : 'Check again'}
          </Button>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

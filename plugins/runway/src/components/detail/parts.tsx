import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import type { KubeObject } from '../../api/types';
import { AGE_IN_SECONDS_MS, formatAge } from '../../lib/rows';
import { DETAIL_TICK_MS, useNow } from '../common/useNow';

/** Copies `text`; `label` is its accessible name (several sit side by side). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="small"
      aria-label={label}
      onClick={() =>
        navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}

/** One term and its value in a `dl`. */
export function Fact({
  name,
  children,
}: {
  name: string;
  children: ReactNode;
}) {
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {name}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, mb: 0.75 }}>
        {children}
      </Typography>
    </>
  );
}

/** The overview's facts: a `dl` laid out in columns, compact enough for 1280×800. */
export function OverviewFacts({ children }: { children: ReactNode }) {
  return (
    <Box
      component="dl"
      aria-label="facts"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
        columnGap: 3,
        rowGap: 0.5,
      }}
    >
      {children}
    </Box>
  );
}

/** One fact of the overview (`wide` spans two columns: the endpoint, long reasons). */
export function OverviewFact({
  name,
  wide,
  children,
}: {
  name: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <Box sx={wide ? { gridColumn: 'span 2' } : undefined}>
      <Fact name={name}>{children}</Fact>
    </Box>
  );
}

/**
 * How old the resource is. Its own clock ticks every second while the age is
 * shown in seconds (a page opened on a resource just created), then every
 * few seconds.
 */
export function AgeFact({ object }: { object: KubeObject }) {
  const created = Date.parse(object.metadata?.creationTimestamp ?? '');
  const inSeconds = Date.now() - created < AGE_IN_SECONDS_MS;
  const now = useNow(inSeconds ? 1_000 : DETAIL_TICK_MS);
  return <OverviewFact name="Age">{formatAge(created, now)}</OverviewFact>;
}

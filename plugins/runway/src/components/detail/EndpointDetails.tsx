import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { EndpointInfo, GatewayNotice } from '../../lib/endpoint';
import { CopyButton, Fact } from './parts';

function Example({
  curl,
  label,
  copyLabel,
}: {
  curl: string;
  label: string;
  copyLabel: string;
}) {
  return (
    <>
      <Box
        component="pre"
        aria-label={label}
        sx={{
          bgcolor: 'action.hover',
          p: 1,
          fontSize: 12,
          overflow: 'auto',
          mb: 0,
        }}
      >
        {curl}
      </Box>
      <CopyButton text={curl} label={copyLabel} />
    </>
  );
}

/**
 * How to call the deployment: the Gateway first when the core routes it
 * there, the Service as the in-cluster alternative, and GatewayReady in the
 * controller's own words when it is not True.
 */
export function EndpointDetails({
  info,
  notice,
}: {
  info: EndpointInfo;
  notice?: GatewayNotice;
}) {
  const { gateway, service } = info;
  // A True condition is news only while the Gateway has no address (its message says so).
  const showNotice = notice && (notice.status !== 'True' || !gateway);
  return (
    <>
      {showNotice && (
        <Alert
          severity={notice.severity}
          sx={{ mb: 2 }}
          aria-label="gateway status"
        >
          <AlertTitle>{notice.title}</AlertTitle>
          {notice.message && <Box>{notice.message}</Box>}
          <Typography variant="caption" component="div" sx={{ mt: 0.5 }}>
            GatewayReady: {notice.status}
            {notice.reason ? ` (${notice.reason})` : ''}
          </Typography>
        </Alert>
      )}
      {gateway && (
        <Box
          component="section"
          aria-label="Through the Gateway"
          sx={{ mb: 2 }}
        >
          <Typography variant="subtitle1" component="h3">
            Through the Gateway
          </Typography>
          <Stack direction="row" alignItems="center" spacing={1}>
            <Box component="code">{gateway.url}</Box>
            <CopyButton text={gateway.url} label="Copy gateway endpoint" />
          </Stack>
          <Box component="dl" sx={{ mt: 1, mb: 0 }}>
            <Fact name="Model name (the request's model field)">
              <code>{gateway.modelName}</code>{' '}
              <CopyButton text={gateway.modelName} label="Copy model name" />
            </Fact>
            {gateway.gatewayNamespace && (
              <Fact name="Gateway namespace">{gateway.gatewayNamespace}</Fact>
            )}
            <Fact name="API formats">{gateway.apiFormats.join(', ')}</Fact>
          </Box>
          <Typography variant="body2" color="text.secondary">
            Example request:
          </Typography>
          <Example
            curl={gateway.curl}
            label="example request through the gateway"
            copyLabel="Copy gateway example request"
          />
          {notice?.status === 'True' && notice.message && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {notice.message}
            </Typography>
          )}
        </Box>
      )}
      {service && (
        <Box component="section" aria-label="Through the Service">
          {gateway && (
            <Typography variant="subtitle1" component="h3">
              In-cluster alternative: the Service
            </Typography>
          )}
          <Stack direction="row" alignItems="center" spacing={1}>
            <Box component="code">{service.url}</Box>
            <CopyButton text={service.url} label="Copy Service endpoint" />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Example request (from inside the cluster):
          </Typography>
          <Example
            curl={service.curl}
            label="example request"
            copyLabel="Copy example request"
          />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            From your machine: <code>{service.portForward}</code>, then use{' '}
            {service.localUrl}.
          </Typography>
        </Box>
      )}
      {!gateway && !service && (
        <Typography variant="body2" color="text.secondary">
          No endpoint yet: the provider reports its Service once the model
          server is created.
        </Typography>
      )}
    </>
  );
}

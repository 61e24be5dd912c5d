import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { configContentsText } from '@runway-portal/plugin-runway-common';
import { Link as RouterLink } from 'react-router-dom';
import type { ResourceRef } from '../../api/RunwayApi';
import { useRunwayData } from '../../hooks/useRunwayData';
import { resourcePhase } from '../../lib/detail';
import {
  linkedDeployments,
  type StackAccess,
  stackAccess,
  stackConfig,
} from '../../lib/stackDetail';
import { useRunwayLinks } from '../common/useRunwayLinks';
import { DetailLayout } from '../detail/DetailLayout';
import {
  AgeFact,
  CopyButton,
  OverviewFact,
  OverviewFacts,
} from '../detail/parts';
import { EditAndDelete, useResourceDetail } from '../detail/resourceDetail';
import { CodeBlock } from '../wizard/ReviewStep';
import { useStackLinks } from './links';

/** A block of code as the stack's pages show it (taller than YAML's: a config reads better whole). */
function Code({ label, children }: { label: string; children: string }) {
  return (
    <CodeBlock label={label} maxHeight={560}>
      {children}
    </CodeBlock>
  );
}

/** How to call the server: its URLs and example requests. */
function AccessDetails({ access }: { access: StackAccess }) {
  if (!access.serviceUrl && !access.routeUrl)
    return (
      <Typography color="text.secondary">
        The stack operator has not reported the server's URL yet.
      </Typography>
    );
  return (
    <Stack spacing={1} component="section" aria-label="How to call it">
      {access.routeUrl && (
        <Typography>
          Outside the cluster (Ingress): <code>{access.routeUrl}</code>
        </Typography>
      )}
      {access.serviceUrl && (
        <Typography>
          In the cluster (Service): <code>{access.serviceUrl}</code>
        </Typography>
      )}
      {access.health && <Code label="health check">{access.health}</Code>}
      {access.curl ? (
        <>
          <Typography variant="subtitle2">
            OpenAI-compatible chat completion with model {access.model}
          </Typography>
          <Code label="example request">{access.curl}</Code>
        </>
      ) : (
        <Typography color="text.secondary">
          The stack registers no model (spec.resources.models): add one to get
          an example request.
        </Typography>
      )}
      <Typography variant="body2">
        From your workstation: <code>{access.portForward}</code>, then{' '}
        <code>{access.localUrl}</code>.
      </Typography>
    </Stack>
  );
}

/** What "Deployments used" says when it links none: the list may still be loading, or unreadable. */
function deploymentsText({
  loading,
  error,
  value,
}: {
  loading: boolean;
  error?: Error;
  value?: unknown;
}) {
  if (loading) return 'looking up the portal’s deployments…';
  if (error && value === undefined)
    return `the portal’s deployments could not be read: ${error.message}`;
  return 'none of the portal’s deployments';
}

/** One stack: overview, then config.yaml, how to call it, linked deployments, conditions, events, objects and YAML. */
export function StackDetail({ target }: { target: ResourceRef }) {
  const links = useRunwayLinks();
  const stackLinks = useStackLinks();
  const { detail, loaded } = useResourceDetail('stacks', target);
  const deployments = useRunwayData(
    a => a.list('deployments', { clusters: [target.cluster] }),
    [target.cluster],
  );

  if ('placeholder' in loaded) return loaded.placeholder;
  const { answer } = loaded;
  const { object: stack, conditions, owned } = answer;
  const status = stack.status ?? {};
  const { terminating } = resourcePhase(stack);
  const failed = conditions.find(
    c => c.status === 'False' && c.type !== 'Available',
  );
  const config = stackConfig(stack, owned);
  const access = stackAccess(stack);
  const linked = linkedDeployments(
    target.cluster,
    stack,
    deployments.value?.items ?? [],
  );
  const distribution = stack.spec?.distribution ?? {};
  const generation = status.configGeneration ?? {};

  return (
    <DetailLayout
      {...loaded.layout}
      message={failed?.message}
      actions={
        <EditAndDelete
          kind="stacks"
          target={target}
          terminating={terminating}
          editTo={stackLinks.edit(
            target.cluster,
            target.namespace,
            target.name,
          )}
          deleteTitle={`Delete stack ${target.name}?`}
          onDeleted={detail.refresh}
        >
          The Llama Stack server, its Service, generated config and the other
          objects the operator made for it are deleted from namespace{' '}
          {target.namespace} of cluster {target.cluster}. The deployments its
          providers call are not touched.
        </EditAndDelete>
      }
      overview={
        <OverviewFacts>
          <OverviewFact name="Distribution">
            {distribution.name ?? distribution.image ?? 'none'}
          </OverviewFact>
          <OverviewFact name="Image" wide>
            {status.resolvedDistribution?.image ?? 'not resolved yet'}
          </OverviewFact>
          <OverviewFact name="Replicas">
            {status.availableReplicas ?? 0} available /{' '}
            {stack.spec?.workload?.replicas ?? 1} wanted
          </OverviewFact>
          <OverviewFact name="Config">
            {generation.configMapName
              ? `${configContentsText(generation)} (${
                  status.resolvedDistribution?.configSource ?? 'embedded'
                })`
              : 'not generated yet'}
          </OverviewFact>
          <AgeFact object={stack} />
          <OverviewFact name="Endpoint" wide>
            {access.routeUrl || access.serviceUrl ? (
              <Stack direction="row" alignItems="center" spacing={0.5}>
                <Box component="code" sx={{ wordBreak: 'break-all' }}>
                  {access.routeUrl || access.serviceUrl}
                </Box>
                {access.curl && (
                  <CopyButton text={access.curl} label="Copy how to call it" />
                )}
              </Stack>
            ) : (
              'none yet'
            )}
          </OverviewFact>
          <OverviewFact name="Deployments used" wide>
            {linked.length
              ? linked.map((l, i) => (
                  <span key={`${l.namespace}/${l.name}/${l.providerId}`}>
                    {i > 0 && ', '}
                    <Link
                      component={RouterLink}
                      to={links.detail(l.cluster, l.namespace, l.name)}
                    >
                      {l.namespace}/{l.name}
                    </Link>{' '}
                    ({l.phase})
                  </span>
                ))
              : deploymentsText(deployments)}
          </OverviewFact>
        </OverviewFacts>
      }
      leading={[
        {
          id: 'config',
          label: 'config.yaml',
          content: config ? (
            <Box component="section" aria-label="Generated config.yaml">
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                ConfigMap {config.configMapName}
                {config.current
                  ? ', the config the server runs'
                  : ' (the newest; the status names another or none yet)'}
                . Secrets appear as their {'${env.…}'} references, never their
                values.
              </Typography>
              <Code label="config.yaml">{config.configYaml}</Code>
            </Box>
          ) : (
            <Typography color="text.secondary">
              {stack.spec?.overrideConfig
                ? `The server uses your ConfigMap ${stack.spec.overrideConfig.configMapName} (spec.overrideConfig).`
                : 'The stack operator has not generated a config.yaml yet (see Conditions).'}
            </Typography>
          ),
        },
        {
          id: 'endpoint',
          label: 'Endpoint',
          content: <AccessDetails access={access} />,
        },
        {
          id: 'deployments',
          label: 'Deployments',
          count: linked.length,
          content: linked.length ? (
            <Table size="small" aria-label="Deployments its providers use">
              <TableHead>
                <TableRow>
                  <TableCell>Deployment</TableCell>
                  <TableCell>Phase</TableCell>
                  <TableCell>Provider</TableCell>
                  <TableCell>Through</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {linked.map(l => (
                  <TableRow key={`${l.namespace}/${l.name}/${l.providerId}`}>
                    <TableCell>
                      <Link
                        component={RouterLink}
                        to={links.detail(l.cluster, l.namespace, l.name)}
                      >
                        {l.namespace}/{l.name}
                      </Link>
                    </TableCell>
                    <TableCell>{l.phase}</TableCell>
                    <TableCell>
                      {l.providerId} (<code>{l.providerPath}</code>)
                    </TableCell>
                    <TableCell>
                      {l.via === 'gateway' ? 'Gateway' : 'Service'}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <Typography color="text.secondary">
              No inference provider of this stack calls a deployment of cluster{' '}
              {target.cluster} (its endpoints point elsewhere).{' '}
              <Link
                component={RouterLink}
                to={stackLinks.edit(
                  target.cluster,
                  target.namespace,
                  target.name,
                )}
              >
                Edit the stack
              </Link>{' '}
              to use a running deployment.
            </Typography>
          ),
        },
      ]}
      objects={{
        label: 'Objects',
        empty: 'The stack operator has not created its objects yet.',
      }}
    />
  );
}

import { stringify } from 'yaml';

export interface KubeconfigInput {
  /** Used as the cluster, user and context name. */
  name: string;
  /** https://127.0.0.1:PORT */
  server: string;
  caPem: string;
  clientCertPem: string;
  clientKeyPem: string;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** A self-contained admin kubeconfig (certificates embedded, no file references). */
export function renderKubeconfig(input: KubeconfigInput): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: input.name,
        cluster: {
          server: input.server,
          'certificate-authority-data': base64(input.caPem),
        },
      },
    ],
    users: [
      {
        name: `${input.name}-admin`,
        user: {
          'client-certificate-data': base64(input.clientCertPem),
          'client-key-data': base64(input.clientKeyPem),
        },
      },
    ],
    contexts: [
      {
        name: input.name,
        context: { cluster: input.name, user: `${input.name}-admin` },
      },
    ],
    'current-context': input.name,
    preferences: {},
  });
}

import { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { renderKubeconfig } from './kubeconfig';

describe('renderKubeconfig', () => {
  const input = {
    name: 'dev',
    server: 'https://127.0.0.1:34567',
    caPem: 'CA PEM\n',
    clientCertPem: 'CERT PEM\n',
    clientKeyPem: 'KEY PEM\n',
  };

  it('embeds the certificates and selects the cluster context', () => {
    const config = parse(renderKubeconfig(input));
    expect(config['current-context']).toBe('dev');
    expect(config.clusters[0].cluster.server).toBe('https://127.0.0.1:34567');
    expect(
      Buffer.from(
        config.clusters[0].cluster['certificate-authority-data'],
        'base64',
      ).toString(),
    ).toBe('CA PEM\n');
    expect(
      Buffer.from(config.users[0].user['client-key-data'], 'base64').toString(),
    ).toBe('KEY PEM\n');
  });

  it('is read by @kubernetes/client-node', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(renderKubeconfig(input));
    expect(kubeConfig.getCurrentCluster()?.server).toBe(
      'https://127.0.0.1:34567',
    );
    expect(kubeConfig.getCurrentUser()?.name).toBe('dev-admin');
  });
});

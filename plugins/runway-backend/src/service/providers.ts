/**
 * The providers whose transformation the preview shows: the same
 * definitions their controllers run (`@runway-portal/provider-*`), so a
 * preview is exactly what the provider would write. A provider registered
 * in a cluster but not listed here is previewed as `not-built-in`.
 */
import { dynamoProvider } from '@runway-portal/provider-dynamo';
import { kaitoProvider } from '@runway-portal/provider-kaito';
import { kuberayProvider } from '@runway-portal/provider-kuberay';
import { llmdProvider } from '@runway-portal/provider-llmd';
import type { ProviderDefinition } from '@runway-portal/provider-shared';

export const BUILT_IN_PROVIDERS: readonly ProviderDefinition[] = [
  kaitoProvider,
  dynamoProvider,
  kuberayProvider,
  llmdProvider,
];

/**
 * The core's gateway step for one ModelDeployment: a thin loop around
 * runway-common's `planGateway`. It looks up only what the plan needs
 * (`gatewayLookups`), then applies the InferencePool, endpoint picker and
 * HTTPRoute with the core's field manager (owner: the deployment), or, with
 * `spec.gateway.enabled: false`, deletes what the core created. Failures
 * become GatewayReady's reason and message; they never stop the rest of the
 * core's status.
 */
import {
  type Applier,
  isNotFound,
  type KubeClient,
  type KubeObject,
} from '@runway-portal/controller-runtime';
import {
  type GatewayK8sObject,
  GATEWAY_MANAGED_BY,
  gatewayApplyFailure,
  gatewayLookups,
  type GatewayObjectRef,
  type GatewayPlan,
  type InferenceProviderConfig,
  type ModelDeployment,
  planGateway,
} from '@runway-portal/plugin-runway-common';
import type { GatewayResult } from './decide';
import { fingerprint } from './fingerprint';
import {
  type GatewayCrdCheck,
  type GatewayList,
  inferencePoolExists,
  modelService,
} from './lookups';

/** Look again at a Gateway without address, a missing Gateway or a provider pool not there yet. */
export const GATEWAY_RECHECK_MS = 30_000;
/** Re-apply unchanged objects this often (repairs an edited or deleted EPP). */
export const GATEWAY_RESYNC_MS = 5 * 60_000;

/** Only what this deployment's core created: controlled by it and labelled by the core. */
function createdByCoreFor(obj: KubeObject, uid: string | undefined): boolean {
  return (
    obj.metadata?.labels?.['app.kubernetes.io/managed-by'] ===
      GATEWAY_MANAGED_BY &&
    (obj.metadata?.ownerReferences ?? []).some(
      r => r.controller === true && r.uid === uid,
    )
  );
}

function errorText(err: unknown): string {
  return (err as Error)?.message ?? String(err);
}

export interface GatewayStepOptions {
  explicitGateway?: { name: string; namespace: string };
}

export class GatewayStep {
  /** What this process applied per deployment (a digest, and when), so unchanged objects are not sent again each reconcile. */
  private readonly applied = new Map<string, { digest: string; at: number }>();

  constructor(
    private readonly client: KubeClient,
    private readonly applier: Applier,
    private readonly crds: GatewayCrdCheck,
    private readonly gateways: GatewayList,
    private readonly options: GatewayStepOptions = {},
  ) {}

  forget(key: string): void {
    this.applied.delete(key);
  }

  /** Plans and carries out the gateway step; returns GatewayReady/status.gateway and when to look again. */
  async run(
    key: string,
    md: ModelDeployment,
    provider: InferenceProviderConfig | undefined,
  ): Promise<{ result: GatewayResult; requeueAfterMs?: number }> {
    const missingCrds = await this.crds.missing();
    const needs = gatewayLookups(md, provider, missingCrds);
    const plan = planGateway({
      md,
      provider,
      missingCrds,
      gateways: needs.gateways ? await this.gateways.list() : undefined,
      explicitGateway: this.options.explicitGateway,
      modelService: needs.modelService
        ? await modelService(
            this.client,
            needs.modelService.namespace,
            needs.modelService.name,
          )
        : undefined,
      providerPoolExists: needs.providerPool
        ? await inferencePoolExists(
            this.client,
            needs.providerPool.namespace,
            needs.providerPool.name,
          )
        : undefined,
    });
    return this.carryOut(key, md, plan);
  }

  private async carryOut(
    key: string,
    md: ModelDeployment,
    plan: GatewayPlan,
  ): Promise<{ result: GatewayResult; requeueAfterMs?: number }> {
    switch (plan.action) {
      case 'none':
        return { result: {} };
      case 'report':
        return {
          result: { outcome: plan.outcome },
          requeueAfterMs: plan.recheck ? GATEWAY_RECHECK_MS : undefined,
        };
      case 'cleanup': {
        // Once reported as disabled, the objects are gone: no lookups on every later reconcile.
        const live = md.status?.conditions?.find(
          c => c.type === 'GatewayReady',
        );
        if (live?.reason !== 'GatewayDisabled')
          await this.deleteCreated(md, plan.remove);
        this.applied.delete(key);
        return { result: { outcome: plan.outcome } };
      }
      case 'configure': {
        const groups = [
          ['inferencePool', plan.objects.inferencePool],
          ['endpointPicker', plan.objects.endpointPicker],
          ['httpRoute', plan.objects.httpRoute],
        ] as const;
        const digest = fingerprint(plan.objects);
        const last = this.applied.get(key);
        if (
          !last ||
          last.digest !== digest ||
          Date.now() - last.at > GATEWAY_RESYNC_MS
        ) {
          // Groups at once: none needs another to exist first (the picker's pods wait for their
          // ServiceAccount), so a reconcile waits two round trips instead of eight.
          const failures = await Promise.all(
            groups.map(([, objects]) => this.applyAll(objects)),
          );
          const index = failures.findIndex(Boolean);
          if (index >= 0) {
            const failed = failures[index]!;
            this.applied.delete(key);
            return {
              result: {
                outcome: gatewayApplyFailure(
                  groups[index][0],
                  failed.name,
                  failed.message,
                ),
              },
              requeueAfterMs: GATEWAY_RECHECK_MS,
            };
          }
          await this.deleteCreated(md, plan.remove);
          this.applied.set(key, { digest, at: Date.now() });
        }
        return {
          result: { outcome: plan.outcome, status: plan.status },
          requeueAfterMs: plan.recheck ? GATEWAY_RECHECK_MS : GATEWAY_RESYNC_MS,
        };
      }
      default:
        return { result: {} };
    }
  }

  /**
   * Applies all, RoleBindings last: the API server checks a binding against
   * its Role (the core may bind only what it holds), so the Role must exist.
   * The first failure, by object name and the API server's message.
   */
  private async applyAll(
    objects: readonly GatewayK8sObject[],
  ): Promise<{ name: string; message: string } | undefined> {
    const bindings = objects.filter(o => o.kind === 'RoleBinding');
    for (const stage of [
      objects.filter(o => o.kind !== 'RoleBinding'),
      bindings,
    ]) {
      // Not forced: an object of that name someone else wrote is reported, never taken over.
      const results = await Promise.allSettled(
        stage.map(obj => this.applier.apply(obj as KubeObject)),
      );
      const index = results.findIndex(r => r.status === 'rejected');
      if (index >= 0)
        return {
          name: stage[index].metadata.name,
          message: errorText((results[index] as PromiseRejectedResult).reason),
        };
    }
    return undefined;
  }

  /** Deletes those of `refs` that the core created for this deployment; anything else of those names stays. */
  private async deleteCreated(
    md: ModelDeployment,
    refs: readonly GatewayObjectRef[],
  ): Promise<void> {
    const namespace = md.metadata?.namespace ?? 'default';
    for (const { apiVersion, kind, name } of refs) {
      const rt = await this.client.resolve(apiVersion, kind);
      let live: KubeObject;
      try {
        live = await this.client.get(rt, { namespace, name });
      } catch (err) {
        if (isNotFound(err)) continue;
        throw err;
      }
      if (!createdByCoreFor(live, md.metadata?.uid)) continue;
      try {
        // The uid precondition: never a same-named object created since the read.
        await this.client.delete(
          rt,
          { namespace, name },
          { uid: live.metadata?.uid, propagationPolicy: 'Background' },
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }
}

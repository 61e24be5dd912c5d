/**
 * KubeRay provider controller: the bundle entry point runs the process.
 *
 * @packageDocumentation
 */
import './main';

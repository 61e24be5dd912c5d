/**
 * llm-d provider controller: the bundle entry point runs the process
 * (`src/main.ts`). The pure parts are in `transform.ts`, `status.ts` and
 * `overrides.ts`, wired in `definition.ts`.
 *
 * @packageDocumentation
 */
import './main';

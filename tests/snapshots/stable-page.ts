import { defaultNormalisers, findTokens, foldVendorFrames, type Normaliser } from '../../snapshots/index.js';

/**
 * Positions in appkernel's own files (`core/kernel/router-listener.ts line 38`) become `<LINE>`. Here
 * appkernel is the root, so normaliseVendorPositions cannot tell its files from the app's; they move with
 * every edit of the kernel. The demo app's positions (`core/app/demo-app.ts line 10`) are page content and stay.
 */
export const normaliseFrameworkPositions: Normaliser = (text) =>
  text.replace(
    /\b((?:dist\/)?(?:core|render|cli|snapshots)\/(?!app\/demo-app\.)[\w./-]+?\.[jt]s)(?::\d+(?::\d+)?(?![\d:])|( line )\d+\b)/g,
    (_all, file: string, line: string | undefined) => `${file}${line ?? ':'}<LINE>`,
  );

/** What a page snapshot of ours needs: the page with non-app frames folded, and the normalisers for it. */
export function stablePage(html: string): { html: string; normalisers: Normaliser[] } {
  return {
    html: foldVendorFrames(html),
    normalisers: [
      normaliseFrameworkPositions,
      ...defaultNormalisers({ root: process.cwd(), tokens: findTokens(html) }),
    ],
  };
}

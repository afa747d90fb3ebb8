import type { Profile } from '../../../core/profiler/profile.js';
import { dumpPlace, dumpText } from '../../dump-text.js';
import { asciiHtml, escapeHtml } from '../../escape.js';
import { formatMs } from '../../format.js';
import { editorLinkHtml, type EditorLinks } from '../../editor-link.js';

/** Where a dump was made, with a link that opens it in the editor `app serve --editor` names. */
function place(dump: { file: string | null; line: number | null }, editor: EditorLinks | null | undefined): string {
  return `<code>${escapeHtml(dumpPlace(dump))}</code>${editorLinkHtml(editor, dump.file, dump.line)}`;
}

/** Each dump() call of the request: where it was made, when, and the value as indented text. */
export function renderDumpPanel(profile: Profile, options: { editor?: EditorLinks | null } = {}): string {
  const dumps = profile.collectors.dump?.dumps ?? [];
  if (dumps.length === 0) return '<h2>Dumps</h2><div class="card"><p class="empty">Nothing was dumped.</p></div>';
  return (
    '<h2>Dumps</h2>' +
    dumps
      .map(
        (dump) =>
          `<div class="card"><p>${place(dump, options.editor)}` +
          `${dump.time == null ? '' : ` at ${formatMs(dump.time)}`}</p><pre>${asciiHtml(escapeHtml(dumpText(dump.value)))}</pre></div>`,
      )
      .join('')
  );
}

import { AppError } from '../core/errors.js';
import type { Profile } from '../core/profiler/profile.js';
import { renderDamagedPanel as renderDamagedHtml } from '../render/html/panels/damaged-panel.js';
import { renderDamagedPanel as renderDamagedText } from '../render/text/panels/damaged-panel.js';
import type { EditorLinks } from '../render/editor-link.js';
import type { LogTextOptions } from '../render/text/panels/log-panel.js';

/** What the profile page hands a panel's HTML view: the page's query (the log panel's filters), "open in editor" links. */
export interface PanelHtmlOptions {
  query?: Record<string, string | string[]>;
  editor?: EditorLinks | null;
}

/** What the terminal hands a panel's text view: colour, width, the reader's clock, `--all`. */
export type PanelTextOptions = LogTextOptions;

/** A count beside the panel's title in the menu; `tone` marks errors and warnings. */
export interface PanelBadge {
  text: string;
  tone?: 'err' | 'warn';
}

/**
 * A profiler panel, one module each (panels/built-in/), as Symfony pairs a collector with a template:
 * every view of a profile (the page and its menu, the terminal, `--panel`, the JSON, MCP, the toolbar)
 * takes the panel's name, title, badge and data from here.
 */
export interface PanelDefinition {
  /** `?panel=<name>`, `--panel <name>`, the JSON's "panel" */
  name: string;
  /** other names asked for the same panel (Symfony's) */
  aliases: readonly string[];
  /** the one title of the menu, the page, the terminal and the toolbar */
  title: string;
  /** the menu's counts; none when the panel has nothing to count */
  badges(profile: Profile): PanelBadge[];
  /** the panel's stored data, as `--json --panel` and MCP print it; undefined in a profile recorded before the panel existed */
  data(profile: Profile): unknown;
  html(profile: Profile, options: PanelHtmlOptions): string;
  text(profile: Profile, options: PanelTextOptions): string;
}

/**
 * A definition with no aliases and no badge unless it names them. A store is input (a planted row, a
 * record of a form this build does not know): a view that cannot render the panel's stored data shows
 * the panel as damaged, and its badge marks it, instead of failing the page or the terminal.
 */
export function definePanel(
  panel: Omit<PanelDefinition, 'aliases' | 'badges'> & Partial<Pick<PanelDefinition, 'aliases' | 'badges'>>,
): PanelDefinition {
  const { badges = () => [], html, text } = panel;
  return Object.freeze({
    aliases: [],
    ...panel,
    badges: (profile: Profile) =>
      shown(
        () => badges(profile),
        () => [DAMAGED_BADGE],
      ),
    html: (profile: Profile, options: PanelHtmlOptions) =>
      shown(
        () => html(profile, options),
        (error) => renderDamagedHtml(panel.title, error),
      ),
    text: (profile: Profile, options: PanelTextOptions) =>
      shown(
        () => text(profile, options),
        (error) => renderDamagedText(panel.title, error, options),
      ),
  });
}

const DAMAGED_BADGE: PanelBadge = { text: '!', tone: 'err' };

function shown<T>(view: () => T, damaged: (error: unknown) => T): T {
  try {
    return view();
  } catch (error) {
    if (error instanceof AppError) throw error;
    return damaged(error);
  }
}

/** One plain count, shown when it is not zero. */
export function countBadge(count: number | undefined): PanelBadge[] {
  return count ? [{ text: String(count) }] : [];
}

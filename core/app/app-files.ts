/** The names an app file may have in a folder, in the order they are looked for. */
export const APP_FILES = ['app.config.ts', 'app.config.mts', 'app.config.js', 'app.config.mjs'] as const;

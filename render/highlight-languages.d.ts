// highlight.js ships no declarations for its single-language modules.
declare module 'highlight.js/lib/languages/javascript' {
  import type { LanguageFn } from 'highlight.js';
  const javascript: LanguageFn;
  export default javascript;
}
declare module 'highlight.js/lib/languages/typescript' {
  import type { LanguageFn } from 'highlight.js';
  const typescript: LanguageFn;
  export default typescript;
}

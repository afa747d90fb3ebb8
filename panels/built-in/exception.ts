import { renderExceptionPanel as renderHtml } from '../../render/html/panels/exception-panel.js';
import { renderExceptionPanel as renderText } from '../../render/text/panels/exception-panel.js';
import { definePanel } from '../panel-definition.js';

export const exceptionPanel = definePanel({
  name: 'exception',
  title: 'Exception',
  badges: (profile) => {
    const count = profile.collectors.exception?.chain.length;
    return count ? [{ text: String(count), tone: 'err' }] : [];
  },
  data: (profile) => profile.collectors.exception,
  html: (profile, options) => renderHtml(profile, { editor: options.editor }),
  text: (profile, options) => renderText(profile, options),
});

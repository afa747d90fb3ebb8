export { renderExplainText } from './explain-text.js';
export { renderProfileDiffText } from './profile-diff-text.js';
export { renderProfileListText } from './profile-list-text.js';
export { renderRouteTable, type RouteRow } from './route-table-text.js';

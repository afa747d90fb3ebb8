import { PROFILER_HOME_URL, PROFILER_LATEST_PATH } from '../../core/profiler/profiler-urls.js';

/** The dark strip on top of the profiler pages: home (the search) and the latest profile. */
export function renderTopBar(): string {
  return (
    `<nav class="top"><a class="brand" href="${PROFILER_HOME_URL}">appkernel profiler</a>` +
    `<a href="${PROFILER_HOME_URL}">Search</a><a href="${PROFILER_LATEST_PATH}">Latest</a></nav>`
  );
}

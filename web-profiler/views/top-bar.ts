/** The dark strip on top of the profiler pages: home (the search) and the latest profile. */
export function renderTopBar(): string {
  return '<nav class="top"><a class="brand" href="/_profiler/search?limit=10">appkernel profiler</a>'
    + '<a href="/_profiler/search?limit=10">Search</a><a href="/_profiler/latest">Latest</a></nav>';
}

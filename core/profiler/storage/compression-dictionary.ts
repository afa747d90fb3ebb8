/**
 * A preset deflate dictionary: JSON fragments every profile repeats (the
 * Profile keys in build order, kernel events and listeners, Node's own frames,
 * common headers). It halves a profile on disk. Records name the dictionary
 * they were written with, so this text must never change: a better one is
 * added as DICTIONARY_V2 with a new record format byte. Deflate prefers matches
 * near the end of the dictionary, so the most frequent fragments come last.
 */
const notified = (event: string, listener: string): string =>
  `{"time":1760000000000,"level":"DEBUG","channel":"event","message":"Notified event \\"${event}\\" to listener \\"${listener}\\".","context":{"event":"${event}","listener":"${listener}"}}`;

const frame = (fn: string, file: string, kind: string): string =>
  `{"function":"${fn}","file":"${file}","line":95,"column":5,"kind":"${kind}"}`;

const FRAGMENTS: string[] = [
  '"accept":"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7","accept-encoding":"gzip, deflate, br, zstd","accept-language":"en-US,en;q=0.9","content-type":"application/x-www-form-urlencoded","content-length":"',
  '"sec-ch-ua":"\\"Chromium\\";v=\\"124\\", \\"Google Chrome\\";v=\\"124\\", \\"Not-A.Brand\\";v=\\"99\\"","sec-ch-ua-mobile":"?0","sec-ch-ua-platform":"\\"Linux\\"","upgrade-insecure-requests":"1","sec-fetch-site":"same-origin","sec-fetch-mode":"navigate","sec-fetch-user":"?1","sec-fetch-dest":"document","referer":"http://127.0.0.1:8000/',
  '"user-agent":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36","user-agent":"curl/8.5.0","user-agent":"undici","accept":"*/*"',
  frame('process.processTicksAndRejections', 'node:internal/process/task_queues', 'internal'),
  frame('AsyncLocalStorage.run', 'node:internal/async_local_storage/async_hooks', 'internal'),
  frame('Server.emit', 'node:events', 'internal'),
  frame('parserOnIncoming', 'node:_http_server', 'internal'),
  frame('HTTPParser.parserOnHeadersComplete', 'node:_http_common', 'internal'),
  frame('IncomingMessage.emit', 'node:events', 'internal'),
  frame('endReadableNT', 'node:internal/streams/readable', 'internal'),
  '"kind":"app","excerpt":{"start":',
  ',"lines":["',
  frame('EventDispatcher.dispatch', 'node_modules/appkernel/dist/core/kernel/event-dispatcher.js', 'vendor'),
  frame('Kernel.handleRaw', 'node_modules/appkernel/dist/core/kernel/kernel.js', 'vendor'),
  frame('Kernel.handle', 'node_modules/appkernel/dist/core/kernel/kernel.js', 'vendor'),
  frame('RouterListener.onKernelRequest', 'node_modules/appkernel/dist/core/kernel/router-listener.js', 'vendor'),
  '"router":{"route":null,"params":{},"redirect":null,"explain":[{"name":"_profiler_home","path":"/_profiler/","methods":["GET"],"verdict":"path","detail":"The path \\"/',
  '\\" does not match the route path \\"/_profiler/{token}\\"."},{"name":"_profiler","path":"/_profiler/{token}","methods":["GET"],"verdict":"requirement","detail":"',
  '"security":{"decision":"none","rule":null,"message":null}}}',
  '"time":{"duration":0.',
  '"phases":[{"name":"routing","start":0.',
  '"duration":0.',
  '},{"name":"firewall","start":',
  '},{"name":"controller","start":',
  '},{"name":"view","start":',
  '},{"name":"response","start":',
  '},{"name":"exception","start":',
  '"events":{"events":[{"name":"kernel.request","listeners":[{"listener":"RouterListener::onKernelRequest","duration":0.',
  ',"stoppedPropagation":false},{"listener":"FirewallListener::onKernelRequest","duration":0.',
  '{"name":"kernel.controller","listeners":[]},{"name":"kernel.controller_arguments","listeners":[]},{"name":"kernel.view","listeners":[{"listener":"ViewListener::onKernelView","duration":0.',
  '{"name":"kernel.exception","listeners":[{"listener":"ErrorListener::onKernelException","duration":0.',
  '{"name":"kernel.response","listeners":[{"listener":"DebugHeadersListener::onKernelResponse","duration":0.',
  '{"listener":"ProfilerListener::onKernelResponse","duration":0.',
  '{"name":"kernel.terminate","listeners":[{"listener":"ProfilerListener::onKernelTerminate","duration":0.',
  '"level":"ERROR","channel":"request","message":"Uncaught exception NotFoundHttpError: \\"No route found for \\"GET http://127.0.0.1:8000/',
  '\\"\\" at node_modules/appkernel/dist/core/kernel/router-listener.js line ',
  '"context":{"exception":{"class":"NotFoundHttpError","message":"No route found for \\"GET http://127.0.0.1:8000/',
  '"level":"INFO","channel":"request","message":"Matched route \\"',
  '\\".","context":{"route":"',
  '","route_parameters":{"_route":"',
  '","_controller":"',
  '"},"request_uri":"http://127.0.0.1:8000/',
  '","method":"GET"}}',
  notified('kernel.request', 'RouterListener::onKernelRequest'),
  notified('kernel.request', 'FirewallListener::onKernelRequest'),
  notified('kernel.view', 'ViewListener::onKernelView'),
  notified('kernel.exception', 'ErrorListener::onKernelException'),
  notified('kernel.response', 'DebugHeadersListener::onKernelResponse'),
  notified('kernel.response', 'ProfilerListener::onKernelResponse'),
  '"log":{"records":[',
  '"errors":0,"warnings":0}',
  '"exception":{"chain":[{"class":"NotFoundHttpError","message":"No route found for \\"GET http://127.0.0.1:8000/',
  '"status":404,"headers":{},"frames":[',
  '{"class":"ResourceNotFoundError","message":"No routes found for \\"/',
  '"status":500,"headers":{},"frames":[',
  '"response":{"status":404,"statusText":"Not Found","headers":{"content-type":"text/html; charset=UTF-8","cache-control":"no-cache, private","x-robots-tag":"noindex","x-debug-token":"',
  '"response":{"status":200,"statusText":"OK","headers":{"content-type":"application/json","content-length":"',
  '"x-debug-token-link":"http://127.0.0.1:8000/_profiler/',
  '"size":',
  '"contentType":"text/html; charset=UTF-8","title":"',
  '"redacted":["header cookie","cookie ',
  '"cookies":{},"body":null,',
  '"cookie":"[REDACTED]"},"cookies":{"session":"[REDACTED]"},"body":{"size":',
  ',"contentType":"application/json","text":"',
  ',"truncated":false},',
  '{"version":1,"token":"',
  '","status":200,"ip":"127.0.0.1","method":"GET","url":"http://127.0.0.1:8000/',
  '","time":1760000000000,"duration":0.',
  ',"collectors":{"request":{"method":"GET","url":"http://127.0.0.1:8000/',
  '","path":"/',
  '","route":null,"routeParams":{},"controller":null,"query":{},"headers":{"host":"127.0.0.1:8000","connection":"keep-alive",',
];

export const DICTIONARY_V1: Buffer = Buffer.from(FRAGMENTS.join(''), 'utf8');

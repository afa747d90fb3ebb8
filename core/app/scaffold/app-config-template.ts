/** The app.config.ts `app init` writes: one route of each kind a new project needs first. */
export const APP_CONFIG_TEMPLATE = `// Your app: routes in matching order, each with a controller. Saved edits reload at once (app serve).
import { createApp, NotFoundHttpError, Response } from 'appkernel';

const notes: { id: number; text: string }[] = [{ id: 1, text: 'Hello from appkernel' }];

export const app = createApp({ name: 'my-app' })
  // A profiler panel of your own: what record('notes', entry) gets during a request becomes its rows.
  .panel<{ action: string; id: number }>('notes', { title: 'Notes', columns: ['Action', 'Note'], row: (entry) => [entry.action, String(entry.id)] })
  .get('home', '/', ({ generate }) => Response.html(\`<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><title>My app</title></head>
<body><h1>Home</h1>
<ul>
  <li><a href="\${generate('note', { id: 1 })}">a note</a> (a route parameter with a requirement)</li>
  <li><a href="\${generate('hello', { name: 'world' })}">hello</a> (a controller that logs)</li>
  <li><a href="/admin">admin</a> (guarded: 401 without an Authorization header)</li>
  <li><a href="/_profiler">the profiler</a></li>
</ul></body></html>\`))
  .get('note', '/notes/{id<\\\\d+>}', ({ params, record }) => {
    record('notes', { action: 'read', id: Number(params.id) });
    const note = notes.find((n) => n.id === Number(params.id));
    if (!note) throw new NotFoundHttpError(\`No note \${params.id}.\`);
    return note; // any value but a string or a Response is sent as JSON
  })
  .post('add_note', '/notes', async ({ request }) => {
    const { text } = await request.json<{ text?: string }>(); // malformed JSON is a 400
    const note = { id: notes.length + 1, text: String(text ?? '') };
    notes.push(note);
    return Response.json(note, 201);
  })
  .get('hello', '/hello/{name}', ({ params, log }) => {
    log.info('Said hello to {name}.', { name: params.name });
    return Response.text(\`Hello \${params.name}!\`);
  })
  .get('admin', '/admin', () => Response.html('<!DOCTYPE html><html><body><h1>Admin</h1></body></html>'))
  .guard({
    name: 'admin',
    path: '^/admin',
    check: (request) => request.header('authorization') ? true : { status: 401, message: 'Sign in first.' },
  });
`;

/**
 * The console: reads the session, then shows the layout (application, user,
 * role, nav, sign out) around the page the route table picks. A 401 from any
 * call shows "not signed in": the way back in is a new sign-in link from the
 * operator's site.
 */
import { useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { ApiError, loadSession, signOut, whenSignedOut, type Session } from './api';
import { Loading } from './components';
import { SessionContext } from './session';
import { activeNav, CONSOLE_ROOT, HOME, navFor, routes } from './routes';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-in'; session: Session }
  | { kind: 'signed-out'; by: 'user' | 'server' }
  | { kind: 'failed'; message: string };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    whenSignedOut(() => setState({ kind: 'signed-out', by: 'server' }));
    loadSession().then(
      (session) => setState({ kind: 'signed-in', session }),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) setState({ kind: 'signed-out', by: 'server' });
        else setState({ kind: 'failed', message: error instanceof ApiError ? error.message : 'The server could not be reached.' });
      },
    );
  }, []);

  if (state.kind === 'loading')
    return (
      <Centered>
        <Loading what="the console" />
      </Centered>
    );
  if (state.kind === 'signed-out') return <SignedOut byUser={state.by === 'user'} />;
  if (state.kind === 'failed')
    return (
      <Centered>
        <h1>The console could not start</h1>
        <p role="alert">{state.message} Reload the page to try again.</p>
      </Centered>
    );
  return (
    <SessionContext.Provider value={state.session}>
      <LocationProvider scope={CONSOLE_ROOT}>
        <Layout session={state.session} onSignedOut={() => setState({ kind: 'signed-out', by: 'user' })} />
      </LocationProvider>
    </SessionContext.Provider>
  );
}

function Centered({ children }: { children: preact.ComponentChildren }) {
  return <main class="container centered">{children}</main>;
}

function SignedOut({ byUser }: { byUser: boolean }) {
  return (
    <Centered>
      <article>
        <header>
          <h1>{byUser ? 'Signed out' : 'Not signed in'}</h1>
        </header>
        <p>
          {byUser ? 'Your session has ended on the server.' : 'Your session has ended or this browser has none.'} To sign in again, use the back-office link on
          your operator site: it opens a new session here.
        </p>
      </article>
    </Centered>
  );
}

function Layout({ session, onSignedOut }: { session: Session; onSignedOut: () => void }) {
  const { path } = useLocation();
  const [signingOut, setSigningOut] = useState<string | undefined>();
  const active = activeNav(path, session.role);
  const name = `${session.user.first_name} ${session.user.last_name}`.trim() || session.user.email;
  useEffect(() => {
    document.title = `${active?.nav ?? 'Console'} · ${session.app.name} · urm`;
  }, [active, session.app.name]);

  const leave = async () => {
    setSigningOut('');
    try {
      await signOut();
      onSignedOut();
    } catch (error) {
      setSigningOut(error instanceof ApiError ? error.message : 'Sign out failed: try again.');
    }
  };

  return (
    <>
      <header class="container console-header">
        <nav aria-label="Console">
          <ul>
            <li>
              <strong class="app-name">{session.app.name}</strong>
            </li>
            {navFor(session.role).map((route) => (
              <li key={route.path}>
                <a href={route.path} aria-current={route === active ? 'page' : undefined}>
                  {route.nav}
                </a>
              </li>
            ))}
          </ul>
          <ul>
            <li class="who">
              <span>{name}</span> <mark class={`role role-${session.role}`}>{session.role}</mark>
            </li>
            <li>
              <button type="button" class="secondary outline" onClick={leave} aria-busy={signingOut === ''} disabled={signingOut === ''}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
        {signingOut && (
          <p role="alert" class="error">
            {signingOut}
          </p>
        )}
      </header>
      <main class="container">
        <Router>
          <Route path="/console" component={HOME.component} />
          <Route path={CONSOLE_ROOT} component={HOME.component} />
          {routes.map((route) => (
            <Route key={route.path} path={route.path} component={route.component} />
          ))}
          <Route default component={NotFound} />
        </Router>
      </main>
    </>
  );
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no such page in the console. <a href={HOME.path}>Go to {HOME.nav}</a>.
      </p>
    </>
  );
}

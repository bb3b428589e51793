/**
 * The console: reads the session, then shows the shell (the sidebar of the
 * sections the role may use, a top bar with the application, the user and
 * sign-out) around the page the route table picks. A 401 from any call shows
 * "not signed in": the way back in is a new sign-in link from the operator's
 * site.
 */
import { useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { ApiError, loadSession, signOut, whenSignedOut, type Session } from './api';
import { RoleBadge } from '../../ui/design/badge';
import { ToastProvider } from '../../ui/design/toast';
import { Loading } from './components';
import { SessionContext } from './session';
import { activeNav, CONSOLE_ROOT, LANDING, navFor, navGroups, routes } from './routes';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-in'; session: Session }
  | { kind: 'signed-out'; by: 'user' | 'server' }
  | { kind: 'failed'; message: string };

export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    // A page's call still in flight when the user signs out answers 401 after it: the user's "Signed out" stays.
    whenSignedOut(() => setState((previous) => (previous.kind === 'signed-out' ? previous : { kind: 'signed-out', by: 'server' })));
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
        <ToastProvider>
          <Layout session={state.session} onSignedOut={() => setState({ kind: 'signed-out', by: 'user' })} />
        </ToastProvider>
      </LocationProvider>
    </SessionContext.Provider>
  );
}

function Centered({ children }: { children: preact.ComponentChildren }) {
  return <main class="centered">{children}</main>;
}

function SignedOut({ byUser }: { byUser: boolean }) {
  return (
    <Centered>
      <section class="card">
        <h1>{byUser ? 'Signed out' : 'Not signed in'}</h1>
        <p>
          {byUser ? 'Your session has ended on the server.' : 'Your session has ended or this browser has none.'} To sign in again, use the back-office link on
          your operator site: it opens a new session here.
        </p>
      </section>
    </Centered>
  );
}

function Layout({ session, onSignedOut }: { session: Session; onSignedOut: () => void }) {
  const { path } = useLocation();
  const [signingOut, setSigningOut] = useState<string | undefined>();
  const [menuOpen, setMenuOpen] = useState(false);
  const active = activeNav(path, session.role);
  const name = `${session.user.first_name} ${session.user.last_name}`.trim() || session.user.email;
  const entries = navFor(session.role);
  useEffect(() => {
    document.title = `${active?.nav ?? 'Console'} · ${session.app.name} · urm`;
    setMenuOpen(false);
  }, [active, session.app.name, path]);

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
    <div class="shell">
      <a class="skip" href="#content">
        Skip to content
      </a>
      <aside class="sidebar">
        <div class="brand">
          <span>urm</span>
          <button type="button" class="small nav-toggle" aria-expanded={menuOpen} aria-controls="console-nav" onClick={() => setMenuOpen(!menuOpen)}>
            Menu
          </button>
        </div>
        <nav id="console-nav" aria-label="Console" data-open={String(menuOpen)}>
          {navGroups.map((group) => {
            const inGroup = entries.filter((route) => route.group === group);
            if (inGroup.length === 0) return null;
            return (
              <div key={group}>
                <span class="nav-group" aria-hidden="true">
                  {group}
                </span>
                <ul>
                  {inGroup.map((route) => (
                    <li key={route.path}>
                      <a href={route.path} aria-current={route === active ? 'page' : undefined}>
                        {route.nav}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </nav>
      </aside>
      <div class="main-column">
        <header class="topbar">
          <span class="app app-name" title={`Application ${session.app.app_id}`}>
            {session.app.name}
          </span>
          <div class="cluster">
            <span class="who">
              <span>{name}</span> <RoleBadge role={session.role} as="mark" />
            </span>
            <button type="button" class="small" onClick={leave} aria-busy={signingOut === ''} disabled={signingOut === ''}>
              Sign out
            </button>
          </div>
          {signingOut && (
            <p role="alert" class="field-error">
              {signingOut}
            </p>
          )}
        </header>
        <main class="content" id="content">
          <Router>
            <Route path="/console" component={LANDING.component} />
            <Route path={CONSOLE_ROOT} component={LANDING.component} />
            {routes.map((route) => (
              <Route key={route.path} path={route.path} component={route.component} />
            ))}
            <Route default component={NotFound} />
          </Router>
        </main>
      </div>
    </div>
  );
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no such page in the console. <a href={CONSOLE_ROOT}>Go to {LANDING.nav}</a> or <a href="/console/players">Go to Players</a>.
      </p>
    </>
  );
}

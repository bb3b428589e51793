/**
 * The local demo page of web push (`GET /`): subscribe this browser with the
 * demo application's browser key, send yourself a push, and watch the
 * profile's token and its lifecycle events arrive. Everything it shows is
 * read through the API (by the local-only /demo endpoints of web-push.ts),
 * and a known profile id is proved by the local server (`/demo/identity`),
 * as an integrator's server proves the player it signed in. Every call to
 * those endpoints carries the page's token, which they require.
 */
export interface DemoPageOptions {
  appId: string;
  browserKey: string;
  version: string;
  /** The per-start token the /demo endpoints require (X-Urm-Demo-Token). */
  demoToken: string;
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function demoPage(options: DemoPageOptions): string {
  const config = scriptJson({ appId: options.appId, apiKey: options.browserKey, demoToken: options.demoToken });
  const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>urm web push demo</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1.5rem; color: #1b1f24; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; } h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
  section { border: 1px solid #d0d7de; border-radius: 8px; padding: 1rem; margin: 1rem 0; }
  label { display: block; margin: .4rem 0; } input { font: inherit; padding: .3rem .4rem; width: 22rem; max-width: 100%; }
  button { font: inherit; padding: .35rem .8rem; margin: .25rem .4rem .25rem 0; cursor: pointer; }
  pre { background: #f6f8fa; padding: .6rem; overflow: auto; max-height: 16rem; margin: .4rem 0 0; }
  table { border-collapse: collapse; width: 100%; } td, th { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #eaeef2; }
  .muted { color: #57606a; } code { background: #f6f8fa; padding: 0 .25rem; }
</style>
</head>
<body>
<h1>urm web push demo</h1>
<p class="muted">Application <code id="app"></code> · SDK ${options.version} · permission <code id="permission"></code> · profile <code id="profile">(none yet)</code></p>

<section>
  <h2>1. Subscribe this browser</h2>
  <label>Profile id <input id="profile-id" placeholder="empty: an anonymous visitor (urm-anon-…)"></label>
  <button id="init">Enable notifications</button>
  <button id="pause">Pause (disablePushNotification)</button>
  <button id="resume">Resume (enablePushNotification)</button>
  <button id="unsubscribe">Unsubscribe this browser</button>
  <button id="all-devices">Remove every device of the profile</button>
  <label>Sign in as <input id="sign-in-id" placeholder="a known profile id"></label>
  <button id="sign-in">urmChat.setProfileId</button>
  <pre id="result">Press “Enable notifications”.</pre>
</section>

<section>
  <h2>2. Send yourself a push</h2>
  <label>Title <input id="title" value="Hello from urm"></label>
  <label>Body <input id="body" value="This notification went through send_push."></label>
  <label>URL <input id="url" placeholder="opened on click, e.g. http://127.0.0.1:3000/?clicked"></label>
  <button id="send">Send</button>
  <pre id="sent">The answer of POST /api/send_push shows here.</pre>
</section>

<section>
  <h2>3. The profile and its timeline</h2>
  <p class="muted">Refreshed every two seconds: the token stored by initNotification, then <code>urm_push_sent</code>, and the worker's <code>urm_push_received</code>, <code>urm_push_clicked</code>, <code>urm_push_dismissed</code>.</p>
  <pre id="attributes">(no profile yet)</pre>
  <table><thead><tr><th>event</th><th>time</th><th>notification</th></tr></thead><tbody id="timeline"></tbody></table>
</section>

<script id="urm-demo-config" type="application/json">${config}</script>
<script src="/js/urm-notification.js?date=${today}"></script>
<script>
(() => {
  const { demoToken, ...config } = JSON.parse(document.getElementById('urm-demo-config').textContent);
  // The /demo helpers answer only requests that carry this page's token.
  const demo = (path, init = {}) => fetch(path, { ...init, headers: { ...init.headers, 'X-Urm-Demo-Token': demoToken } });
  const $ = (id) => document.getElementById(id);
  let profileId;
  const show = (id, value) => { $(id).textContent = typeof value === 'string' ? value : JSON.stringify(value, null, 2); };
  const setProfile = (id) => { profileId = id; show('profile', id); refresh(); };
  const showPermission = () => show('permission', typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);
  const run = (id, action) =>
    action().then((value) => show(id, value === undefined ? 'done' : value), (error) => show(id, 'Error: ' + error.message)).finally(showPermission);
  show('app', config.appId);
  showPermission();

  // The integrator's server proves the profile id it signed in (here, the local demo server does, with the demo application's identity secret).
  const proofOf = async (id) => {
    const response = await demo('/demo/identity', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ profile_id: id }) });
    if (!response.ok) throw new Error('/demo/identity answered ' + response.status);
    return (await response.json()).profile_id_hash;
  };
  const init = () => run('result', async () => {
    const typed = $('profile-id').value.trim();
    const known = typed ? { profileId: typed, profileIdHash: await proofOf(typed) } : {};
    const result = await urmNotification.initNotification({ ...config, ...known });
    if (result.profileId) setProfile(result.profileId);
    return result;
  });
  $('init').onclick = init;
  $('pause').onclick = () => run('result', () => urmNotification.disablePushNotification());
  $('resume').onclick = () => run('result', () => urmNotification.enablePushNotification());
  $('unsubscribe').onclick = () => run('result', () => urmNotification.disablePushNotificationPermanent());
  $('all-devices').onclick = () => run('result', () => urmNotification.disablePushNotificationPermanentAllDevice());
  $('sign-in').onclick = () => run('result', async () => {
    const id = $('sign-in-id').value.trim();
    window.urmChat.setProfileId(id, await proofOf(id));
    setProfile(id);
    return 'signed in as ' + id + ': the anonymous profile is merged into it';
  });
  $('send').onclick = () => run('sent', async () => {
    if (!profileId) throw new Error('subscribe first');
    const response = await demo('/demo/send-push', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ profile_id: profileId, title: $('title').value, body: $('body').value, url: $('url').value.trim() || undefined }),
    });
    return { status: response.status, body: await response.json() };
  });

  async function refresh() {
    if (!profileId) return;
    const query = '?profile_id=' + encodeURIComponent(profileId);
    const [profile, timeline] = await Promise.all([demo('/demo/profile' + query), demo('/demo/timeline' + query)]);
    show('attributes', profile.ok ? (await profile.json()).attributes : 'profile not stored yet (' + profile.status + ')');
    const rows = timeline.ok ? (await timeline.json()).events : [];
    $('timeline').replaceChildren(...rows.map((event) => {
      const row = document.createElement('tr');
      for (const text of [event.event, event.urm_date_time, event.attributes.notification_id || '']) {
        const cell = document.createElement('td');
        cell.textContent = text;
        row.append(cell);
      }
      return row;
    }));
  }
  setInterval(() => refresh().catch(() => {}), 2000);
  // Already allowed: subscribe again at once, as a site does on every page load.
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted') init();
})();
</script>
</body>
</html>
`;
}
